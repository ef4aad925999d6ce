#!/usr/bin/env bash
# Set up (install missing Debian packages, build), then run the whole test suite: CTest in build/
# (every label: unit, algorithms, routers, cli, levels, cosim, rtl, partition, waves, reference,
# experiment; not `long`, the 10^6-cycle lockstep runs). About 21 to 30 minutes on a fresh 2-core
# machine (docs/testing.md).
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
# Open MPI resolves the machine's name at each launch; where it does not resolve (a bare container
# or chroot without /etc/hosts) each launch of more ranks than cores waits about 10 s.
if command -v getent >/dev/null && ! getent hosts "$(hostname)" >/dev/null 2>&1; then
  echo "cubecast test: this machine's name '$(hostname)' does not resolve (no line for it in /etc/hosts): Open MPI then" \
       "waits about 10 s at each launch of more ranks than cores and the partition tests may run out of time; add" \
       "'127.0.1.1 $(hostname)' to /etc/hosts" >&2
fi
status=0
if (($# == 0)); then set -- -LE long; fi
(cd "$root/build" && ctest -j "$(nproc)" --output-on-failure --timeout 900 "$@") || status=1
if ((sanitize)); then "$root/scripts/sanitize.sh" || status=1; fi
exit "$status"
