#!/usr/bin/env bash
# The sanitizer build and the fuzzers: clang with AddressSanitizer and UndefinedBehaviorSanitizer,
# without the RTL (a quicker build), at -O1 with line tables only (the stack traces name file and line;
# a third quicker to compile than -O2 -g), with the libFuzzer targets, in build-sanitize/; runs its
# unit, cli, algorithms, routers, levels and experiment tests (any sanitizer report fails them) but
# the largest repeats, then each fuzzer for SECONDS (default 10) from the committed corpus. Called by
# scripts/test.sh --sanitize after the main suite (run scripts/setup.sh first for the packages).
#   scripts/sanitize.sh [SECONDS]        CUBECAST_SANITIZE_ALL=1: the largest repeats too (about
#                                        20 more minutes of two cores)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build-sanitize"
mkdir -p "$build"
log="$build/build.log"
targets=(cubecast unit_tests algorithm_tests router_tests cli_tests levels_tests experiment_tests
  fuzz_traffic_file fuzz_rom_file fuzz_command_line fuzz_experiment_file)
if ! { cmake -S "$root" -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
         "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" \
         -DCUBECAST_RTL=OFF -DCUBECAST_FUZZ=ON && cmake --build "$build" -j "$(nproc)" --target "${targets[@]}"; } >"$log" 2>&1; then
  tail -n 40 "$log" >&2
  echo "cubecast sanitize: the build failed (full log: $log)" >&2
  exit 1
fi
# The largest repeats: the same code paths as the smaller tests beside them, at more sizes, seeds or
# loads (each over 20 s under the sanitizers, together about four fifths of the label's time). They
# run in the main build; CUBECAST_SANITIZE_ALL=1 runs them here too.
largest='^(Levels\.EveryAlgorithmEveryTopology|MeshDynamic\.TheoremFigures|Pmnb\.Vb2MiniPacketsExact|Pmnb\.Vb3ClassesExact'
largest+='|DynamicPeriods\.(MeanDelay|LightLoad|BeyondTheLimit|SameSeed)|MultinodeBroadcast\.BosttIsOptimalFor'
largest+='|MeshPmnb\.ExactSchedule|MeshPack\.GreedyPaths|CommandLine\.AStoppedRunSaysWhereItStopped'
largest+='|CommandLine\.AnInputBufferedStallNamesTheDepth|Experiment\.ResumesAfterAKill'
largest+='|InputBuffered\.ThroughTheNodeNoCollective|InputBuffered\.EveryCollectiveDeliversOnce)'
exclude=()
[ "${CUBECAST_SANITIZE_ALL:-0}" = 1 ] || exclude=(-E "$largest")
status=0
(cd "$build" && ctest -j "$(nproc)" -L 'unit|cli|algorithms|routers|levels|experiment' "${exclude[@]}" --output-on-failure --timeout 1800) || status=1
"$root/scripts/fuzz.sh" "${1:-10}" "$build" || status=1
exit "$status"
