#!/usr/bin/env bash
# The sanitizer build and the fuzzers: clang with AddressSanitizer and UndefinedBehaviorSanitizer,
# without the RTL (a quicker build), with the libFuzzer targets, in build-sanitize/; runs its unit,
# cli, algorithms, levels and experiment tests (any sanitizer report fails them), then each fuzzer for SECONDS
# (default 10) from the committed corpus. Called by scripts/test.sh after the main suite (run
# scripts/setup.sh first for the packages).
#   scripts/sanitize.sh [SECONDS]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build-sanitize"
mkdir -p "$build"
log="$build/build.log"
if ! { cmake -S "$root" -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
         -DCUBECAST_RTL=OFF -DCUBECAST_FUZZ=ON && cmake --build "$build" -j "$(nproc)"; } >"$log" 2>&1; then
  tail -n 40 "$log" >&2
  echo "cubecast sanitize: the build failed (full log: $log)" >&2
  exit 1
fi
status=0
(cd "$build" && ctest -j "$(nproc)" -L 'unit|cli|algorithms|levels|experiment' --output-on-failure --timeout 1800) || status=1
"$root/scripts/fuzz.sh" "${1:-10}" "$build" || status=1
exit "$status"
