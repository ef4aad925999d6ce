#!/usr/bin/env bash
# Set up (install missing Debian packages, build), then run the whole test suite: CTest in build/
# (every label: unit, algorithms, cli, levels, cosim, rtl, waves, reference, experiment), then the sanitizer build's tests
# and a short run of each fuzzer (scripts/sanitize.sh). Arguments go to the first ctest (e.g. -L unit)
# and skip the sanitizer build.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh" --tests
status=0
(cd "$root/build" && ctest -j "$(nproc)" --output-on-failure --timeout 900 "$@") || status=1
if (($# == 0)); then "$root/scripts/sanitize.sh" || status=1; fi
exit "$status"
