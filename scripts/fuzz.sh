#!/usr/bin/env bash
# Runs the libFuzzer targets (the traffic-file reader, the RTL ROM check, the command line, experiment
# files) for a while each, from the committed seed corpus, in a scratch folder.
#   scripts/fuzz.sh [SECONDS] [BUILD]     default: 10 s each, build-sanitize/ (CUBECAST_FUZZ=ON)
# Exit 1 if a target crashed, hung or leaked: the input that did it is printed and kept in
# build-sanitize/fuzz-findings/; fix the cause and add that input to testbenches/fuzz/corpus/<target>/.
# New inputs the fuzzers find go to a scratch corpus (the committed corpus stays as it is).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-10}"
build="${2:-$root/build-sanitize}"
findings="$build/fuzz-findings"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$findings"
status=0
for target in traffic_file rom_file command_line experiment_file; do
  mkdir -p "$scratch/$target"
  # In the scratch folder (the command line probes output paths by creating them), stdin from /dev/null.
  if (cd "$scratch" && "$build/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
        -artifact_prefix="$findings/${target}_" -print_final_stats=1 \
        "$scratch/$target" "$root/testbenches/fuzz/corpus/$target" </dev/null >"$scratch/$target.log" 2>&1); then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$scratch/$target.log" | grep -o '[0-9]*$')
    echo "fuzz_$target: ${runs:-?} inputs in ${seconds} s, no crash"
  else
    status=1
    echo "fuzz_$target FAILED:"
    grep -E "ERROR|SUMMARY|artifact|Test unit written" "$scratch/$target.log" | head -20
  fi
done
exit "$status"
