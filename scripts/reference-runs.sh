#!/usr/bin/env bash
# The reference runs: a fixed set of runs covering every task family at both levels, the RTL router,
# bounded queues, stalls, port models and meshes. Each run's trace CSV, its JSON (the wall-time and
# speed fields removed) and its exit code go to OUTDIR, and a few runs' waves (VCD, the .gtkw, the
# RTL's internals; their date lines removed), so two builds can be compared with `diff -r`: a change
# that should not alter behaviour must leave every file byte-identical.
#   scripts/reference-runs.sh OUTDIR [CUBECAST]      (default CUBECAST: build/cubecast)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: reference-runs.sh OUTDIR [CUBECAST]}"
bin="${2:-$root/build/cubecast}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
# The runs write their trace and waves under relative names in a scratch folder, so what the trace
# header and the .gtkw record is the same on every machine.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
trace="reference-trace.csv"
runs=(
  "snb_sbt|--task snb --algorithm sbt --dim 5 --root 3"
  "mnb_bostt|--task mnb --algorithm bostt --dim 6"
  "mnb_bostt_f3_q6|--task mnb --algorithm bostt --dim 5 --packet-flits 3 --queue-depth 6"
  "mnb_bostt_stall|--task mnb --algorithm bostt --dim 6 --queue-depth 1"
  "mnb_sbt|--task mnb --algorithm sbt --dim 5"
  "mnb_st|--task mnb --algorithm st --dim 4"
  "mnb_vb3|--task mnb --algorithm vb3 --dim 5"
  "scatter|--task scatter --algorithm bostt --dim 6 --root 5"
  "scatter_q4|--task scatter --algorithm bostt --dim 6 --root 5 --queue-depth 4"
  "te|--task te --algorithm bostt --dim 5 --packet-flits 2"
  "te_q3|--task te --algorithm bostt --dim 4 --queue-depth 3"
  "kb_same|--task kb --algorithm same-order --dim 5 --k 9 --placement adversarial"
  "kb_pair|--task kb --algorithm pair --dim 5 --sources 3,17"
  "kb_rank|--task kb --algorithm rank --dim 4 --k 4 --with-prefix"
  "kb_st|--task kb --algorithm st --dim 5 --sources 1,1,4,9,30,30,30"
  "kb_st_random|--task kb --algorithm st-random-guaranteed --dim 5 --k 12 --seed 3"
  "kb_sla|--task kb --algorithm same-order --dim 4 --k 5 --port-model sla"
  "succ_gray|--task succ --algorithm gray --dim 4 --port-model shout"
  "succ_seq|--task succ --algorithm sequential --dim 3"
  "pmnb_vb1|--task pmnb --algorithm vb1 --dim 5 --k 7"
  "pmnb_vba0|--task pmnb --algorithm vb-a0 --dim 5 --k 9 --token-flits 2 --packet-flits 2"
  "pmnb_vb2|--task pmnb --algorithm vb2 --dim 4 --k 6 --packet-flits 4"
  "pmnb_vb3|--task pmnb --algorithm vb3 --dim 5 --k 11 --known-sources"
  "pmnb_full|--task pmnb --algorithm full-mnb --dim 4 --k 5"
  "dyn_periods|--task dynamic --algorithm periods --dim 4 --packet-flits 4 --slots 400 --rho 0.5"
  "dyn_greedy|--task dynamic --algorithm greedy --dim 4 --slots 300 --rho 0.3"
  "dyn_mesh|--task dynamic --algorithm periods --topology torus --radix 4 --dim 2 --packet-flits 4 --slots 300"
  "torus_vbm_split|--task pmnb --algorithm vbm-split --topology torus --dim 2 --radix 5 --sources 0,1,2,5,6,7,10,11,12 --packet-flits 4"
  "array_vbm|--task pmnb --algorithm vbm --topology array --dim 3 --radix 3 --k 8 --packet-flits 2"
  "array_vbma0|--task pmnb --algorithm vbm-a0 --topology array --dim 2 --radix 4 --k 6"
  "torus_mnb_vbm|--task mnb --algorithm vbm --topology torus --dim 2 --radix 4"
  "torus_quadrant|--task mnb --algorithm quadrant --topology torus --dim 2 --radix 5"
  "fold_quadrant|--task mnb --algorithm quadrant --topology array --dim 2 --radix 4 --torus-on-array"
  "fold_split|--task pmnb --algorithm vbm-split --topology array --dim 2 --radix 4 --torus-on-array --sources 3,5,9 --packet-flits 4"
  "ring_line|--task kb --algorithm line --topology torus --dim 1 --radix 7 --k 4"
  "ring_split|--task kb --algorithm line-split --topology torus --dim 1 --radix 6 --k 3 --packet-flits 2"
  "array_pack|--task pack --algorithm greedy --topology array --dim 2 --radix 5 --k 9"
  "array_monotone|--task monotone --algorithm greedy --topology array --dim 2 --radix 4 --k 6"
  "array_pe|--task pe --algorithm rc --topology array --dim 2 --radix 4 --k 5"
  "torus_pg|--task pg --algorithm rc --topology torus --dim 2 --radix 4 --k 4 --packet-flits 2"
  "traffic_cube|--task traffic --algorithm ecube --dim 5 --rate 0.3 --warmup-cycles 100 --window 400 --drain 400"
  "traffic_mesh_sizes|--task traffic --algorithm dor --topology array --dim 2 --radix 4 --packet-sizes 1:3,4:1 --rate 0.2 --warmup-cycles 100 --window 300 --drain 300"
  "traffic_torus_deadlock|--task traffic --algorithm dor --topology torus --dim 2 --radix 8 --rate 0.9 --queue-depth 2"
  "traffic_adaptive_q|--task traffic --algorithm adaptive --topology torus --dim 2 --radix 4 --rate 0.4 --queue-depth 3 --warmup-cycles 100 --window 300 --drain 300"
  "traffic_flatfly_q|--task traffic --algorithm adaptive --topology flatfly --dim 2 --radix 4 --rate 0.6 --queue-depth 2 --warmup-cycles 100 --window 300 --drain 300"
)
wave_runs=(
  "waves_mnb|--task mnb --algorithm bostt --dim 3 --packet-flits 2"
  "waves_torus_q|--task pmnb --algorithm vbm-split --topology torus --dim 2 --radix 3 --k 4 --packet-flits 4 --queue-depth 1"
  "waves_traffic|--task traffic --algorithm dor --topology array --dim 2 --radix 3 --rate 0.3 --warmup-cycles 20 --window 60 --drain 40"
  "waves_flatfly|--task traffic --algorithm dor --topology flatfly --dim 2 --radix 3 --rate 0.3 --warmup-cycles 20 --window 60 --drain 40"
  "waves_ib|--task traffic --algorithm dor --topology torus --dim 2 --radix 3 --rate 0.4 --packet-flits 3 --buffering input --vcs 2 --vc-depth 3 --router-delay 1 --link-delay 1 --warmup-cycles 20 --window 60 --drain 40"
)
# The input-buffered router at both levels: traffic with small buffers and every delay, the presets,
# collectives in each switching mode, a held-packet logic, and a torus deadlock.
ib_runs=(
  "ib_traffic_mesh|--task traffic --algorithm dor --topology array --dim 2 --radix 4 --rate 0.4 --packet-flits 4 --buffering input --vcs 2 --vc-depth 3 --credit-delay 2 --link-delay 1 --warmup-cycles 100 --window 300 --drain 300"
  "ib_adaptive_torus|--task traffic --algorithm adaptive --topology torus --dim 2 --radix 5 --rate 0.7 --packet-flits 4 --buffering input --vcs 3 --vc-depth 2 --warmup-cycles 100 --window 300 --drain 300"
  "ib_booksim_torus|--task traffic --algorithm dor-split --topology torus --dim 2 --radix 6 --rate 0.3 --packet-sizes 1:1,6:1 --preset booksim --self-packets --warmup-cycles 100 --window 300 --drain 300"
  "ib_noxim_mesh|--task traffic --algorithm dor --topology array --dim 2 --radix 4 --rate 0.2 --packet-flits 4 --preset noxim --warmup-cycles 100 --window 300 --drain 300"
  "ib_mnb|--task mnb --algorithm bostt --dim 5 --buffering input --vcs 2 --vc-depth 16"
  "ib_te_sf|--task te --algorithm bostt --dim 4 --packet-flits 4 --buffering input --switching store-forward --vcs 4 --router-delay 3"
  "ib_snb_ct|--task snb --algorithm sbt --dim 6 --packet-flits 3 --buffering input --switching cut-through --router-delay 1 --injection-delay 2 --ejection-delay 1"
  "ib_kb_st|--task kb --algorithm st --dim 4 --k 5 --buffering input"
  "ib_torus_deadlock|--task traffic --algorithm dor --topology torus --dim 2 --radix 8 --rate 0.5 --packet-flits 4 --buffering input --vcs 2 --vc-depth 4 --datelines off"
)
rtl_runs=(
  "rtl_mnb|--task mnb --algorithm bostt --dim 4 --router rtl"
  "rtl_te_mixed|--task te --algorithm bostt --dim 4 --rtl-nodes 1,6,11 --packet-flits 2"
  "rtl_sbt_q|--task snb --algorithm sbt --dim 5 --router rtl --queue-depth 2 --sbt-rotation 2"
  "rtl_ib_mnb|--task mnb --algorithm bostt --dim 4 --router rtl --buffering input --vcs 2 --vc-depth 4 --router-delay 1"
  "rtl_ib_te_mixed|--task te --algorithm bostt --dim 4 --rtl-nodes 0,5,10,15 --packet-flits 4 --buffering input --switching cut-through --credit-delay 2"
  "rtl_ib_traffic|--task traffic --algorithm ecube --dim 4 --rate 0.3 --warmup-cycles 200 --window 500 --drain 300 --router rtl --buffering input --vcs 2 --vc-depth 4 --router-delay 1 --link-delay 1"
  "rtl_ib_mesh|--task traffic --algorithm dor --topology array --dim 2 --radix 4 --rate 0.3 --packet-flits 2 --warmup-cycles 100 --window 300 --drain 300 --router rtl --buffering input --vcs 2 --vc-depth 4 --switching wormhole --router-delay 1"
)
strip_speed() { grep -v -E '"(wall_seconds|elaboration_seconds|router_cycles_per_second|packet_hops_per_second)"'; }
one() {  # name level args...
  local name="$1" level="$2"
  shift 2
  local stem="$out/${name}_$level"
  # One trace path for every build: the trace's header records the command line.
  # A stall's tries get ten minutes: what they find must not depend on how busy the machine is.
  "$bin" run "$@" --level "$level" --rerun-seconds 600 --json --trace "$trace" 2>"$stem.err" | strip_speed >"$stem.json"
  echo "${PIPESTATUS[0]}" >"$stem.rc"
  mv -f "$trace" "$stem.csv" 2>/dev/null
  sed -i -e '/^cubecast: [0-9]* s: /d' "$stem.err"  # progress lines come with wall time: how many depends on the machine
}
for r in "${runs[@]}"; do
  IFS='|' read -r name args <<<"$r"
  # shellcheck disable=SC2086
  for level in cycle tlm; do one "$name" "$level" $args; done
done
for r in "${ib_runs[@]}"; do
  IFS='|' read -r name args <<<"$r"
  # shellcheck disable=SC2086
  for level in cycle tlm; do one "$name" "$level" $args; done
done
for r in "${rtl_runs[@]}"; do
  IFS='|' read -r name args <<<"$r"
  # shellcheck disable=SC2086
  one "$name" cycle $args
done
# Waves: written to one path for every build (the .gtkw names its dump), the date lines dropped.
undated() { sed -e '/^\$date/,/^\$end/d' "$1"; }
waves="reference-waves"
# The RTL's dump holds its ROM files' paths: the ROMs are copied here and named relatively.
if [ -d "$(dirname "$bin")/rtl" ]; then
  mkdir -p roms roms_ib && cp "$(dirname "$bin")"/rtl/*.hex roms/ && cp "$(dirname "$bin")"/rtl_ib/*.hex roms_ib/
fi
for r in "${wave_runs[@]}" "waves_rtl|--task mnb --algorithm bostt --dim 3 --router rtl --rtl-rom-dir roms" \
  "waves_rtl_ib|--task mnb --algorithm bostt --dim 3 --router rtl --buffering input --vcs 2 --vc-depth 4 --rtl-rom-dir roms_ib"; do
  IFS='|' read -r name args <<<"$r"
  for level in cycle tlm; do
    [[ "$name" == waves_rtl* && "$level" == tlm ]] && continue
    # shellcheck disable=SC2086
    "$bin" run $args --level "$level" --vcd "$waves.vcd" >/dev/null 2>&1
    undated "$waves.vcd" >"$out/${name}_$level.vcd"
    cp "$waves.gtkw" "$out/${name}_$level.gtkw"
    [ -f "${waves}_rtl.vcd" ] && undated "${waves}_rtl.vcd" >"$out/${name}_${level}_rtl.vcd" && rm -f "${waves}_rtl.vcd"
    [ -f "${waves}_rtl.gtkw" ] && mv "${waves}_rtl.gtkw" "$out/${name}_${level}_rtl.gtkw"
    rm -f "$waves.vcd" "$waves.gtkw"
  done
done
echo "reference runs written to $out ($(ls "$out"/*.rc | wc -l) runs)"
