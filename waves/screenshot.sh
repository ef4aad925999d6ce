#!/usr/bin/env bash
# Dumps a small run's waves and takes a headless GTKWave screenshot of them with the generated
# .gtkw (needs gtkwave, xvfb, xauth and imagemagick: apt-get install gtkwave xvfb xauth imagemagick).
#   waves/screenshot.sh OUT.png [--internals] [cubecast run arguments]
# Default run: the optimal MNB on a 4-cube with 2-flit packets. Dumps go to build/waves/. --internals
# (with Verilog routers: --router rtl or --rtl-nodes) shows their internals' dump and save file instead.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: waves/screenshot.sh OUT.png [--internals] [cubecast run arguments]}"
shift
view=""
if [ "${1:-}" = "--internals" ]; then
  view="_rtl"
  shift
fi
for tool in gtkwave xvfb-run import; do
  command -v "$tool" >/dev/null || {
    echo "waves/screenshot.sh: $tool is missing (apt-get install gtkwave xvfb xauth imagemagick)" >&2
    exit 2
  }
done
(($#)) || set -- --task mnb --algorithm bostt --dim 4 --packet-flits 2
mkdir -p "$root/build/waves"
vcd="$root/build/waves/shot.vcd"
"$root/build/cubecast" run "$@" --vcd "$vcd" >/dev/null
xvfb-run -a -s "-screen 0 1280x720x24" bash -c \
  "gtkwave '${vcd%.vcd}$view.vcd' '${vcd%.vcd}$view.gtkw' >/dev/null 2>&1 & sleep 4; import -window root '$out'; s=\$?; kill %1; exit \$s"
[ -s "$out" ] || { echo "waves/screenshot.sh: the screenshot '$out' was not written" >&2; exit 1; }
echo "wrote $out"
