#!/usr/bin/env bash
# Builds BookSim2 and Noxim from source folders you supply (their public repositories, checked out),
# into build/peers/, runs the same synthetic-traffic experiments in them and in cubecast, and writes
# one table and one latency-vs-load plot (PNG, SVG) per experiment to build/peers/results/. Nothing
# of the peers' code enters this repository.
#   scripts/compare-peers.sh BOOKSIM_SRC NOXIM_SRC [--quick] [--matched [--seeds N] | --power | --speed [--reps N]] [--docs]
# --quick: fewer loads and shorter runs (a smoke test of the script); --matched: cubecast's router set
# as each peer's; --power: power per block against BookSim2's power module; --speed: each simulator's
# wall time and peak memory on the same runs, alternating, medians (the ideal router's, and the matched
# routers' --preset booksim and --preset noxim against their peers); --docs: the tables and plots this
# run made also written into the docs (tables between their '<!-- peers FILE: ... -->' lines).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
booksim_src="$(cd "${1:?usage: scripts/compare-peers.sh BOOKSIM_SRC NOXIM_SRC [--quick]}" && pwd)"
noxim_src="$(cd "${2:?usage: scripts/compare-peers.sh BOOKSIM_SRC NOXIM_SRC [--quick]}" && pwd)"
shift 2
"$root/scripts/setup.sh"
# What the peers need to build, from Debian: BookSim's parser generators, Noxim's YAML library.
missing=()
for p in flex bison libyaml-cpp-dev python3 time; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
peers="$root/build/peers"
mkdir -p "$peers"
# Build copies, so the user's folders stay as they are.
if [ ! -x "$peers/booksim2/src/booksim" ]; then
  rm -rf "$peers/booksim2" && cp -r "$booksim_src" "$peers/booksim2"
  make -C "$peers/booksim2/src" -j "$(nproc)" >"$peers/booksim_build.log" 2>&1 || { tail -20 "$peers/booksim_build.log"; exit 1; }
fi
if [ ! -x "$peers/noxim/bin/noxim" ]; then
  rm -rf "$peers/noxim" && cp -r "$noxim_src" "$peers/noxim"
  # Debian's SystemC is built as C++17 (TOOLCHAIN.md); the system's yaml-cpp and SystemC headers.
  make -C "$peers/noxim/bin" -j "$(nproc)" INCDIR="-I../src" LIBDIR="-L../src" \
    OTHER="-Wall -DSC_NO_WRITE_CHECK --std=c++17" >"$peers/noxim_build.log" 2>&1 || { tail -20 "$peers/noxim_build.log"; exit 1; }
fi
exec python3 "$root/scripts/compare_peers.py" --cubecast "$root/build/cubecast" --booksim "$peers/booksim2/src/booksim" \
  --noxim "$peers/noxim/bin/noxim" --noxim-config "$peers/noxim/config_examples/default_config.yaml" \
  --out "$peers/results" "$@"
