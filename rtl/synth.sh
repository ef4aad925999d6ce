#!/usr/bin/env bash
# Synthesis check of the Verilog router with Yosys (generic cells): prints the cell count for each
# configuration. Needs yosys and a built build/cubecast_romgen (for the ROM images).
#   rtl/synth.sh [D_MAX ...]     default: 4 8
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
romgen="$here/../build/cubecast_romgen"
[ -x "$romgen" ] || { echo "synth.sh: build first ($romgen is missing)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for d in "${@:-4 8}"; do
  for dd in $d; do
    mkdir -p "$work/d$dd" && (cd "$work/d$dd" && "$romgen" . "$dd")
    cells=$(cd "$work/d$dd" && yosys -q -p "read_verilog -I$here/src $here/src/cc_router.v $here/src/cc_rom.v \
      $here/src/cc_input_unit.v $here/src/cc_output_unit.v $here/src/cc_control_logic.v; \
      chparam -set D_MAX $dd -set QDEPTH 8 -set PF_MAX 2 cc_router; synth -top cc_router; tee -o stat.txt stat" \
      >/dev/null && awk '/Number of cells:/ {n=$4} END {print n}' stat.txt)
    echo "cc_router D_MAX=$dd QDEPTH=8 PF_MAX=2: $cells cells"
  done
done
