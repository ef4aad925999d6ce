#!/usr/bin/env bash
# The RTL soak: the lockstep bench (the Verilated RTL router against the SystemC router, pin by pin
# every cycle, random stimulus) over random configurations (control logic, dimension, node, packet
# length, queue depth, SBT rotation) until CYCLES cycles have run in all; prints cycles per second and
# the mismatches (the failing configurations' waves go to BUILD/lockstep-waves/). Not part of the test
# suite (10^8 cycles take over an hour): see docs for the figure.
#   scripts/soak.sh [CYCLES] [SEED] [BUILD]      default 10^7 cycles, seed 1, build/
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
total="${1:-10000000}"
seed="${2:-1}"
per_config=1000000
build="${3:-$root/build}"
bench="$build/cubecast_lockstep"
[ -x "$bench" ] || { echo "soak: $bench is missing: run scripts/setup.sh first" >&2; exit 2; }
[[ "$total" =~ ^[0-9]+$ ]] && ((total > 0)) || { echo "soak: CYCLES '$total': accepted a whole number > 0" >&2; exit 2; }
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
run=0 configs=0 mismatches=0 round=0
start=$(date +%s.%N)
seconds_since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { print b - a }'; }
while ((run < total)); do
  cycles=$(( (total - run + 2) / 3 ))  # a round runs one configuration of each of the 3 control logics
  ((cycles > per_config)) && cycles=$per_config
  # One random configuration of each control logic per round, each from its own seed.
  (cd "$build" && "$bench" --cycles "$cycles" --seed $((seed * 1000003 + round)) --waves lockstep-waves) >"$log" 2>&1
  configs=$((configs + $(grep -c -E '^(PASS|FAIL) ' "$log")))
  failed=$(grep -c '^FAIL ' "$log")
  if ((failed)); then
    mismatches=$((mismatches + failed))
    grep -A2 '^FAIL ' "$log"
  fi
  run=$((run + 3 * cycles))
  round=$((round + 1))
  elapsed=$(seconds_since "$start")
  printf 'soak: %d cycles, %d configurations, %d mismatches, %.0f cycles/s\n' "$run" "$configs" "$mismatches" \
    "$(awk -v r="$run" -v e="$elapsed" 'BEGIN { print r / e }')"
done
((mismatches == 0))
