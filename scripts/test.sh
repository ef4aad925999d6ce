#!/usr/bin/env bash
# Set up (install missing Debian packages, build), then run the whole test suite: CTest in build/
# (every label: unit, algorithms, routers, cli, levels, cosim, rtl, waves, reference, experiment; not
# `long`, the 10^6-cycle lockstep runs). About 27 to 29 minutes on a fresh 2-core machine (docs/testing.md).
#   scripts/test.sh [--sanitize] [CTEST ARGUMENTS]
# --sanitize: then the sanitizer build's tests and a short run of each fuzzer (scripts/sanitize.sh,
# about 16 minutes more: a second build of everything with AddressSanitizer). CTest arguments (e.g.
# -L unit, or -L long) replace the default selection.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sanitize=0
if [[ "${1:-}" == --sanitize ]]; then
  sanitize=1
  shift
fi
"$root/scripts/setup.sh" --tests
status=0
if (($# == 0)); then set -- -LE long; fi
(cd "$root/build" && ctest -j "$(nproc)" --output-on-failure --timeout 900 "$@") || status=1
if ((sanitize)); then "$root/scripts/sanitize.sh" || status=1; fi
exit "$status"
