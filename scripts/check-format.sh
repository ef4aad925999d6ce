#!/usr/bin/env bash
# Fails (exit 1) naming every C++ source that clang-format (the committed .clang-format) would change;
# scripts/format.sh changes them.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
command -v clang-format >/dev/null || { echo "check-format: clang-format is missing (scripts/setup.sh installs it)"; exit 1; }
mapfile -t files < <(find models routers testbenches rtl -name '*.cpp' -o -name '*.h' | sort)
bad=0
for f in "${files[@]}"; do
  if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
    echo "not formatted: $f (run scripts/format.sh)"
    bad=1
  fi
done
[[ $bad == 0 ]] && echo "format: ${#files[@]} sources as .clang-format says"
exit $bad
