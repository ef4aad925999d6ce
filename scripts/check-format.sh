#!/usr/bin/env bash
# Fails (exit 1) naming every C++ source that clang-format (the committed .clang-format) would change;
# scripts/format.sh changes them. (One clang-format for all the files: one a file took 30 s where
# starting a process is slow.)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
command -v clang-format >/dev/null || { echo "check-format: clang-format is missing (scripts/setup.sh installs it)"; exit 1; }
mapfile -t files < <(find models routers testbenches rtl -name '*.cpp' -o -name '*.h' | sort)
report=$(clang-format --dry-run --Werror "${files[@]}" 2>&1)
status=$?
# (Each change it would make is a line "FILE:LINE:COLUMN: error: ...", a file's lines together.)
mapfile -t bad < <(grep -E '^[^ :]+:[0-9]+:[0-9]+: (error|warning): ' <<<"$report" | cut -d: -f1 | uniq)
for f in "${bad[@]}"; do echo "not formatted: $f (run scripts/format.sh)"; done
if ((status != 0 && ${#bad[@]} == 0)); then
  echo "check-format: clang-format failed (exit $status) without naming a file:"
  echo "$report"
  exit 1
fi
((status == 0)) && echo "format: ${#files[@]} sources as .clang-format says"
((status == 0))
