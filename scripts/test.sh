#!/usr/bin/env bash
# Set up (install missing Debian packages, build), then run the whole test suite: CTest in build/
# (every label: unit, algorithms, routers, cli, levels, cosim, rtl, waves, reference, experiment; not
# `long`, the 10^6-cycle lockstep runs), then the sanitizer build's tests and a short run of each
# fuzzer (scripts/sanitize.sh). Arguments go to the first ctest instead (e.g. -L unit, or -L long)
# and skip the sanitizer build.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh" --tests
status=0
whole=$(($# == 0))
if ((whole)); then set -- -LE long; fi
(cd "$root/build" && ctest -j "$(nproc)" --output-on-failure --timeout 900 "$@") || status=1
if ((whole)); then "$root/scripts/sanitize.sh" || status=1; fi
exit "$status"
