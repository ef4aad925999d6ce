#!/usr/bin/env bash
# The Verilog router's area with Yosys (generic cells, `synth`, hierarchy kept): for each configuration
# the cells of each block (all its instances together) and the total, one line each.
#   rtl/synth.sh [PORTS:QDEPTH:PF_MAX:INJ_DEPTH ...]       the ideal router (default: the grid in docs/rtl-area.md)
#   rtl/synth.sh --ib [PORTS:VCS:DEPTH:FLIT_W[:ITERS[:R[:N[:F[:A[:M[:S]]]]]]] ...]  the input-buffered router (likewise)
#   rtl/synth.sh --markdown [--ib] [...]                   either, as the docs' Markdown table rows
#   rtl/synth.sh --markdown [--ib] --header                that table's two header lines, without synthesis
# Ideal router: PORTS is D_MAX (the ports built), QDEPTH the output queues' depth in packets, PF_MAX the
# largest packet in 64-bit flits, INJ_DEPTH the copies each port's injection queue holds (a power of two).
# Input-buffered router: PORTS, VCS virtual channels per port, DEPTH flits per VC (a power of two),
# FLIT_W the link's width in bits (64 and up: a header is one flit; 32: two), ITERS the allocators' iterations
# built (default 1), R 1 with per-branch replication built (the default: a copy's state per port in
# each VC) or 0 serial only, N 1 with forwarding through the node built (the default) or 0 without,
# F 1 with fan-out replication built (a crossbar that multicasts) or 0 without (the default here, so
# the docs' rows measured before it stay comparable; the simulator's build has it), A 1 with the
# all-port network interface built (an injection input per link) or 0 without (the default here,
# likewise), M 1 with two message classes built (control tokens on VCs of their own) or 0 without (the
# default here, likewise), S 1 with the straps registered at reset (the simulator's build) or 0 wired
# through (the default); packets of up to 4 flits, credit delays up to 4.
# Needs yosys (scripts/setup.sh installs it) and a built build/cubecast_romgen (the ROM images;
# CUBECAST_ROMGEN names another).
set -euo pipefail
# --markdown first: the same rows as the tables of docs/rtl-area.md (numbers with thousands separators).
if [ "${1:-}" = "--markdown" ]; then
  shift
  if [ "${1:-}" = "--ib" ]; then
    header="| PORTS:VCS:B:W[:I[:R[:N[:F[:A[:M[:S]]]]]]] | total | buffers | control | ROM | VC alloc | switch alloc | outputs | interface | crossbar | glue |"
  else
    header="| PORTS:QDEPTH:PF:INJ | total | output queues | injection | input units | control | ROM | crossbar and glue |"
  fi
  echo "$header"
  echo "$header" | sed 's/[^|]\+/---/g'
  [ "${1:-}" = "--header" ] || [ "${2:-}" = "--header" ] && exit 0
  bash "${BASH_SOURCE[0]}" "$@" | awk '
    function sep(n,  s) { s = ""; while (n >= 1000) { s = sprintf(",%03d", n % 1000) s; n = int(n / 1000) } return n s }
    NR > 1 { printf "| %s |", $1; for (i = 2; i <= NF; i++) printf " %s |", sep($i); print "" }'
  exit
fi
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
romgen="${CUBECAST_ROMGEN:-$here/../build/cubecast_romgen}"
[ -x "$romgen" ] || { echo "synth.sh: build first ($romgen is missing)" >&2; exit 2; }
command -v yosys >/dev/null || { echo "synth.sh: yosys is missing (scripts/setup.sh installs it)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
src="$here/src"
if [ "${1:-}" = "--ib" ]; then
  shift
  configs=("$@")
  ((${#configs[@]})) || configs=(4:2:8:64 6:2:8:64 8:2:8:64 4:1:8:64 4:4:8:64 4:2:4:64 4:2:16:64 4:2:8:32 4:2:8:128 4:2:8:64:2)
  for c in "${configs[@]}"; do
    [[ "$c" =~ ^([2-9]|1[0-2]):([1-9]|1[0-6]):([0-9]+):([0-9]+)(:[1-8](:[01](:[01](:[01](:[01](:[01](:[01])?)?)?)?)?)?)?$ ]] && ((BASH_REMATCH[4] == 32 || BASH_REMATCH[4] >= 64)) &&
      ((BASH_REMATCH[3] >= 2 && (BASH_REMATCH[3] & (BASH_REMATCH[3] - 1)) == 0 && BASH_REMATCH[3] <= 128)) ||
      { echo "synth.sh: '$c' is not PORTS:VCS:DEPTH:FLIT_W[:ITERS[:R[:N[:F[:A[:M[:S]]]]]]]: accepted PORTS 2..12, VCS 1..16, DEPTH a power of two 2..128, FLIT_W 32 or >= 64, ITERS 1..8, R 0 or 1, N 0 or 1, F 0 or 1, A 0 or 1, M 0 or 1, S 0 or 1" >&2; exit 2; }
  done
  printf '%-18s %9s %9s %9s %9s %9s %9s %9s %9s %9s %9s\n' "PORTS:VCS:B:W[:I[:R[:N[:F[:A[:M[:S]]]]]]]" "total" "buffers" "control" "rom" "vc alloc" \
    "sw alloc" "outputs" "interface" "crossbar" "glue"
  for c in "${configs[@]}"; do
    IFS=: read -r ports vcs depth width iters branches node fan all msg straps <<<"$c"
    iters="${iters:-1}"
    branches="${branches:-1}"
    node="${node:-1}"
    fan="${fan:-0}"
    all="${all:-0}"
    msg="${msg:-0}"
    straps="${straps:-0}"
    dir="$work/ib-$ports-$vcs-$depth-$width-$iters-$branches-$node-$fan-$all-$msg-$straps"
    mkdir -p "$dir"
    (cd "$dir" && "$romgen" . "$ports" >/dev/null)
    (cd "$dir" && yosys -q -p "read_verilog -I$src $src/cc_ib_router.v $src/cc_ib_input_unit.v $src/cc_ib_vc_allocator.v \
        $src/cc_ib_switch_allocator.v $src/cc_ib_crossbar.v $src/cc_ib_output_unit.v $src/cc_ib_injection_unit.v $src/cc_ib_arbiter.v \
        $src/cc_control_logic.v $src/cc_rom.v; \
        chparam -set PORTS $ports -set VCS $vcs -set DEPTH $depth -set FLIT_W $width -set ITERS $iters -set PER_BRANCH $branches -set NODE_FORWARDING $node -set FAN_OUT $fan -set ALL_PORT $all -set MSG_CLASSES $msg -set STRAP_REGS $straps -set PF_MAX 4 -set CD_MAX 4 cc_ib_router; \
        synth -top cc_ib_router; tee -o stat.txt stat" >/dev/null)
    # Each module's own cells (less one per submodule instance) times its instances, following the
    # nested hierarchy (an arbiter belongs to the allocator above it). The columns add up to the total.
    awk -v name="$c" '
      /^=== / { module = $2; if (module == "design") in_h = 1; next }
      !in_h && /Number of cells:/ && !(module in cells) { cells[module] = $4 }
      in_h && /Number of wires:/ { tree_done = 1 }
      in_h && !tree_done && NF == 2 && $2 ~ /^[0-9]+$/ {
        match($0, /^ */); depth = (RLENGTH - 3) / 2; mult[depth] = $2 * (depth ? mult[depth - 1] : 1); parent[depth] = $1
        m = $1; b = "glue"
        if (m ~ /cc_ib_input_unit/) b = "in"; else if (m ~ /cc_control_logic/) b = "ctl"; else if (m ~ /cc_rom/) b = "rom"
        else if (m ~ /cc_ib_vc_allocator/) b = "va"; else if (m ~ /cc_ib_switch_allocator/) b = "sa"
        else if (m ~ /cc_ib_output_unit/) b = "out"; else if (m ~ /cc_ib_injection_unit/) b = "ni"
        else if (m ~ /cc_ib_crossbar/) b = "xbar"
        else if (m ~ /cc_ib_arbiter/) b = parent[depth - 1] ~ /vc_allocator/ ? "va" : "sa"
        sum[b] += cells[m] * mult[depth]
        if (depth) sum[parentblock[depth - 1]] -= mult[depth]   # the instance cell in its parent is not logic
        parentblock[depth] = b
      }
      in_h && /Number of cells:/ { total = $4 }
      END {
        printf "%-18s %9d %9d %9d %9d %9d %9d %9d %9d %9d %9d\n", name, total, sum["in"], sum["ctl"], sum["rom"], sum["va"], sum["sa"], \
          sum["out"], sum["ni"], sum["xbar"], sum["glue"]
      }' "$dir/stat.txt"
  done
  exit 0
fi
configs=("$@")
((${#configs[@]})) || configs=(2:4:2:8 4:4:2:8 6:4:2:8 8:4:2:8 4:2:2:8 4:8:2:8 4:4:1:8 4:4:4:8 4:4:2:32)
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
