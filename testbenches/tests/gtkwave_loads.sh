#!/usr/bin/env bash
# The waves in a real GTKWave (headless, under Xvfb): for dumps written by both levels, as VCD and as
# FST, GTKWave opens the dump with its generated .gtkw, and every signal the save file names must be
# shown, in its order (a name the dump lacks is silently left out by GTKWave: the lists then differ).
#   gtkwave_loads.sh CUBECAST WORKDIR
set -euo pipefail
bin="$1"
work="$2"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mkdir -p "$work"
failed=0
check() {  # label dump gtkw
  local label="$1" dump="$2" gtkw="$3"
  # The rows the save file asks for, in order: its comments ("-text") and its signals (shown by the
  # last part of their hierarchical name).
  grep -v -E '^(\[|@|\*)' "$gtkw" | sed -e 's/^-//' -e '/^[^ ]*\./s/.*\.//' >"$work/want.txt"
  GTKW_OUT="$work/got.txt" xvfb-run -a gtkwave -S "$here/gtkwave_loads.tcl" "$dump" "$gtkw" >"$work/gtkwave.log" 2>&1
  local signals want got
  signals=$(grep -c -v -E '^(\[|@|\*|-)' "$gtkw")
  want=$(wc -l <"$work/want.txt")
  got=$(wc -l <"$work/got.txt")
  if [ "$signals" -eq 0 ] || ! diff -q "$work/want.txt" "$work/got.txt" >/dev/null; then
    echo "FAIL $label: the .gtkw asks for $want rows ($signals signals), GTKWave shows $got"
    diff "$work/want.txt" "$work/got.txt" | head -5
    failed=1
  else
    echo "ok $label: all $signals signals of the .gtkw loaded, in its order"
  fi
}
for level in cycle tlm; do
  for format in vcd fst; do
    stem="$work/mnb_${level}"
    "$bin" run --task mnb --dim 3 --packet-flits 2 --level "$level" "--$format" "$stem.$format" >/dev/null
    check "3-cube MNB, $level level, $format" "$stem.$format" "$stem.gtkw"
  done
done
"$bin" run --task pmnb --algorithm vbm-split --topology torus --dim 2 --radix 3 --k 4 --packet-flits 4 --vcd "$work/torus.vcd" >/dev/null
check "3x3 torus PMNB, vcd" "$work/torus.vcd" "$work/torus.gtkw"
for level in cycle tlm; do  # the input-buffered router's links add their VC and credit signals
  "$bin" run --task traffic --algorithm dor --topology array --dim 2 --radix 3 --rate 0.3 --packet-flits 2 \
    --buffering input --warmup-cycles 20 --window 60 --drain 40 --level "$level" --vcd "$work/ib_$level.vcd" >/dev/null
  check "3x3 mesh, input-buffered, $level level, vcd" "$work/ib_$level.vcd" "$work/ib_$level.gtkw"
done
if "$bin" run --task mnb --dim 2 --router rtl >/dev/null 2>&1; then  # (a build with the Verilog routers)
  # Their internals' save file: each router's state by port (and VC), named from the dump's declarations.
  "$bin" run --task mnb --dim 3 --rtl-nodes 1,6 --vcd "$work/rtl.vcd" >/dev/null
  check "3-cube MNB, ideal Verilog routers' internals, vcd" "$work/rtl_rtl.vcd" "$work/rtl_rtl.gtkw"
  "$bin" run --task mnb --dim 3 --buffering input --vcs 2 --router rtl --fst "$work/ib_rtl.fst" >/dev/null
  check "3-cube MNB, input-buffered Verilog routers' internals, fst" "$work/ib_rtl_rtl.fst" "$work/ib_rtl_rtl.gtkw"
  "$bin" run --task traffic --topology torus --dim 2 --radix 4 --rate 0.3 --buffering input --vcs 2 --warmup-cycles 20 \
    --window 60 --drain 60 --rtl-nodes 0,5 --vcd "$work/torus_rtl.vcd" >/dev/null
  check "4x4 torus traffic, input-buffered Verilog routers' internals, vcd" "$work/torus_rtl_rtl.vcd" "$work/torus_rtl_rtl.gtkw"
  "$bin" run --task traffic --topology array --dim 2 --radix 4 --rate 0.3 --buffering input --vcs 2 --warmup-cycles 20 \
    --window 60 --drain 60 --router rtl --vcd "$work/mesh_rtl.vcd" >/dev/null
  check "4x4 mesh traffic, input-buffered Verilog routers' internals (edges without their unlinked inputs), vcd" \
    "$work/mesh_rtl_rtl.vcd" "$work/mesh_rtl_rtl.gtkw"
fi
exit "$failed"
