#!/usr/bin/env bash
# The co-simulation regression: set up and build, then run every RTL and co-simulation test (the
# Verilog lint and Icarus bench, RTL-vs-SystemC network traces, the lockstep bench at 10^6 cycles per
# control logic) and write a JUnit XML summary for a CI server.
#   scripts/regress.sh [JUNIT.xml]      default: build/cosim-junit.xml
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
junit="${1:-$root/build/cosim-junit.xml}"
"$root/scripts/setup.sh"
cd "$root/build"
status=0
ctest -j "$(nproc)" -L 'cosim|rtl' --output-on-failure --output-junit "$junit" || status=$?
echo "JUnit summary: $junit"
exit "$status"
