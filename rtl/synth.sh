#!/usr/bin/env bash
# The Verilog router's area with Yosys (generic cells, `synth`, hierarchy kept): for each configuration
# the cells of each block (all its instances together) and the total, one line each.
#   rtl/synth.sh [PORTS:QDEPTH:PF_MAX:INJ_DEPTH ...]     default: the grid in docs/rtl-area.md
# PORTS is D_MAX (the ports built), QDEPTH the output queues' depth in packets, PF_MAX the largest
# packet in 64-bit flits, INJ_DEPTH the copies each port's injection queue holds (a power of two).
# Needs yosys (scripts/setup.sh installs it) and a built build/cubecast_romgen (the ROM images;
# CUBECAST_ROMGEN names another).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
romgen="${CUBECAST_ROMGEN:-$here/../build/cubecast_romgen}"
[ -x "$romgen" ] || { echo "synth.sh: build first ($romgen is missing)" >&2; exit 2; }
command -v yosys >/dev/null || { echo "synth.sh: yosys is missing (scripts/setup.sh installs it)" >&2; exit 2; }
configs=("$@")
((${#configs[@]})) || configs=(2:4:2:8 4:4:2:8 6:4:2:8 8:4:2:8 4:2:2:8 4:8:2:8 4:4:1:8 4:4:4:8 4:4:2:32)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
src="$here/src"
for c in "${configs[@]}"; do
  [[ "$c" =~ ^([2-9]|1[0-6]):([2-9]|[1-9][0-9]+):[1-9][0-9]*:([2-9]|[1-9][0-9]+)$ ]] ||
    { echo "synth.sh: '$c' is not PORTS:QDEPTH:PF_MAX:INJ_DEPTH: accepted PORTS 2..16, QDEPTH >= 2, PF_MAX >= 1, INJ_DEPTH a power of two >= 2" >&2; exit 2; }
  inj="${c##*:}"
  (((inj & (inj - 1)) == 0)) ||
    { echo "synth.sh: INJ_DEPTH $inj in '$c' is not a power of two: accepted 2, 4, 8, ..." >&2; exit 2; }
done
printf '%-22s %10s %10s %10s %10s %10s %10s %10s\n' "PORTS:QD:PF:INJ" "total" "output q" "injection" \
  "input" "control" "rom" "crossbar"
for c in "${configs[@]}"; do
  IFS=: read -r ports qdepth pf inj <<<"$c"
  dir="$work/$ports-$qdepth-$pf-$inj"
  mkdir -p "$dir"
  (cd "$dir" && "$romgen" . "$ports" >/dev/null)
  (cd "$dir" && yosys -q -p "read_verilog -I$src $src/cc_router.v $src/cc_rom.v $src/cc_input_unit.v \
      $src/cc_output_unit.v $src/cc_control_logic.v $src/cc_injection_unit.v; \
      chparam -set D_MAX $ports -set QDEPTH $qdepth -set PF_MAX $pf -set INJ_DEPTH $inj cc_router; \
      synth -top cc_router; tee -o stat.txt stat" >/dev/null)
  # Each module's cells, times its instances (the design hierarchy's counts); cc_router's own cells
  # are the crossbar, its arbitration and the glue between the blocks. The columns add up to the total.
  awk -v name="$c" '
    /^=== / { module = $2; if (module == "design") in_h = 1; next }
    !in_h && /Number of cells:/ && !(module in cells) { cells[module] = $4 }
    in_h && NF == 2 && $2 ~ /^[0-9]+$/ { count[$1] = $2 }
    in_h && /Number of cells:/ { total = $4 }
    function block(m) {
      if (m ~ /cc_output_unit/) return "out"; if (m ~ /cc_injection_unit/) return "inj"
      if (m ~ /cc_input_unit/) return "in"; if (m ~ /cc_control_logic/) return "ctl"
      if (m ~ /cc_rom/) return "rom"; return "top"
    }
    END {
      # (the cells of cc_router include one per submodule instance: those are not logic)
      for (m in cells) { n = (m in count) ? count[m] : 1; sum[block(m)] += cells[m] * n; if (block(m) != "top") sum["top"] -= n }
      printf "%-22s %10d %10d %10d %10d %10d %10d %10d\n", name, total, sum["out"], sum["inj"], sum["in"], sum["ctl"], sum["rom"], sum["top"]
    }' "$dir/stat.txt"
done
