#!/usr/bin/env bash
# The RTL soak: the lockstep bench (the Verilated RTL router against the SystemC router, pin by pin
# every cycle, random stimulus) over random configurations (control logic, dimension, node, packet
# length, queue depth, SBT rotation; on the input-buffered router also the switching mode, VCs, depths,
# delays, link period, ejection VCs and allocator iterations) until CYCLES cycles have run in all;
# prints cycles per second and the mismatches (the failing configurations' waves go to
# BUILD/lockstep-waves/). ROUTER: output (the ideal router), input (the input-buffered one), through-node
# (the input-buffered one forwarding through the node), fan-out (the input-buffered one replicating
# the cube's collectives by fan-out: SBT and MNB), all-port (the input-buffered one through the node on
# the all-port network interface: SBT, MNB and TE), message-classes (the input-buffered one with two
# message classes in every configuration with two VCs or more, every control logic) or both (output and input), taking turns round by
# round. Not part of the test suite (10^8 cycles take hours): see
# docs/testing.md for the figures.
#   scripts/soak.sh [CYCLES] [SEED] [BUILD] [ROUTER]   default 10^7 cycles, seed 1, build/, both
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
total="${1:-10000000}"
seed="${2:-1}"
per_config=1000000
build="${3:-$root/build}"
[ -d "$build" ] || { echo "soak: BUILD '$build' is not a folder: accepted a build folder (scripts/setup.sh makes build/)" >&2; exit 2; }
build="$(cd "$build" && pwd)"  # (the bench runs from inside it)
router="${4:-both}"
bench="$build/cubecast_lockstep"
[[ "$total" =~ ^[0-9]+$ ]] && ((total > 0)) || { echo "soak: CYCLES '$total': accepted a whole number > 0" >&2; exit 2; }
[[ "$seed" =~ ^[0-9]+$ ]] || { echo "soak: SEED '$seed': accepted a whole number" >&2; exit 2; }
case "$router" in output | input | through-node | fan-out | all-port | message-classes | both) ;;
  *) echo "soak: ROUTER '$router': accepted output, input, through-node, fan-out, all-port, message-classes, both" >&2; exit 2 ;; esac
[ -x "$bench" ] || { echo "soak: $bench is missing: run scripts/setup.sh first" >&2; exit 2; }
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
run=0 configs=0 mismatches=0 round=0
start=$(date +%s.%N)
seconds_since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { print b - a }'; }
while ((run < total)); do
  # A round runs one random configuration of each control logic (3 on the ideal router; on the
  # input-buffered one 4, in each of the 3 switching modes), each from its own seed.
  buffering=$router forwarding=router
  [[ "$router" == both ]] && { ((round % 2)) && buffering=input || buffering=output; }
  [[ "$router" == through-node ]] && buffering=input forwarding=node
  [[ "$router" == fan-out ]] && buffering=input
  [[ "$router" == all-port ]] && buffering=input forwarding=node
  [[ "$router" == message-classes ]] && buffering=input
  [[ "$buffering" == input ]] && per_round=12 || per_round=3
  extra=()
  [[ "$buffering" == input && "$router" != message-classes ]] && extra=(--forwarding "$forwarding")
  [[ "$router" == fan-out ]] && per_round=6 extra+=(--replication fan-out --mode sbt mnb)
  [[ "$router" == all-port ]] && per_round=9 extra+=(--network-interface all-port --mode sbt mnb te)
  # (message classes: every configuration with two VCs or more; the forwarding drawn)
  [[ "$router" == message-classes ]] && extra+=(--message-classes on)
  cycles=$(( (total - run + per_round - 1) / per_round ))
  ((cycles > per_config)) && cycles=$per_config
  (cd "$build" && "$bench" --buffering "$buffering" --cycles "$cycles" --seed $((seed * 1000003 + round)) \
    "${extra[@]}" --waves lockstep-waves) >"$log" 2>&1
  status=$?
  ran=$(grep -c -E '^(PASS|FAIL) ' "$log")
  if ((ran == 0)); then  # (the bench itself failed: say how, rather than loop)
    echo "soak: the lockstep bench ran nothing (exit $status):" >&2
    tail -5 "$log" >&2
    exit 1
  fi
  configs=$((configs + ran))
  failed=$(grep -c '^FAIL ' "$log")
  if ((failed)); then
    mismatches=$((mismatches + failed))
    grep -A2 '^FAIL ' "$log"
  fi
  run=$((run + ran * cycles))
  round=$((round + 1))
  elapsed=$(seconds_since "$start")
  [[ "$buffering" == input ]] && name="input-buffered router" || name="ideal router"
  [[ "$forwarding" == node ]] && name="input-buffered router forwarding through the node"
  [[ "$router" == fan-out ]] && name="input-buffered router replicating by fan-out"
  [[ "$router" == all-port ]] && name="input-buffered router through the node on the all-port network interface"
  [[ "$router" == message-classes ]] && name="input-buffered router with two message classes"
  printf 'soak: %d cycles, %d configurations, %d mismatches, %.0f cycles/s (last round: the %s)\n' "$run" \
    "$configs" "$mismatches" "$(awk -v r="$run" -v e="$elapsed" 'BEGIN { print r / e }')" "$name"
done
((mismatches == 0))
