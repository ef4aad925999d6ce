#!/usr/bin/env bash
# Set up (install missing Debian packages, build), then run cubecast. Without arguments: the optimal
# multinode broadcast on a 6-cube. With arguments: `cubecast` with those arguments, e.g.
#   scripts/run.sh run --task te --dim 8
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
if (($# == 0)); then set -- run --task mnb --algorithm bostt --dim 6; fi
exec "$root/build/cubecast" "$@"
