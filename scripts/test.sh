#!/usr/bin/env bash
# Set up (install missing Debian packages, build), then run the whole test suite with CTest.
# Extra arguments go to ctest (e.g. -L unit).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
cd "$root/build"
exec ctest -j "$(nproc)" --output-on-failure --timeout 900 "$@"
