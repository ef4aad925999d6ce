#!/usr/bin/env bash
# The reference runs (scripts/reference-runs.sh) against their committed checksums
# (testbenches/reference/manifest.sha256): exit 1 naming every trace, JSON, exit code or wave file
# that changed. A change meant to alter behaviour updates the manifest with --update, and its commit
# says which runs changed and why.
#   scripts/check-reference.sh [--update] [CUBECAST]
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
update=0
[[ "${1:-}" == --update ]] && { update=1; shift; }
bin="${1:-$root/build/cubecast}"
manifest="$root/testbenches/reference/manifest.sha256"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
bash "$root/scripts/reference-runs.sh" "$out" "$bin" >/dev/null || exit 1
(cd "$out" && sha256sum -- * | sort -k2) >"$out.sums"
if ((update)); then
  mkdir -p "$(dirname "$manifest")"
  mv "$out.sums" "$manifest"
  echo "reference: manifest updated ($(wc -l <"$manifest") files)"
  exit 0
fi
if diff -q "$manifest" "$out.sums" >/dev/null; then
  echo "reference: $(wc -l <"$manifest") files byte-identical to the manifest"
  rm -f "$out.sums"
  exit 0
fi
echo "reference: these files differ from the manifest (scripts/reference-runs.sh DIR writes them to compare):"
diff <(awk '{print $2, $1}' "$manifest") <(awk '{print $2, $1}' "$out.sums") | grep '^[<>]' | awk '{print $2}' | sort -u | sed 's/^/  /'
rm -f "$out.sums"
exit 1
