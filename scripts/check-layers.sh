#!/usr/bin/env bash
# The source folders are layers, each including only itself and the ones below it:
#   models/fabric < routers/logic < routers/algorithms < routers/blocks < routers/cores
#   < models/observe < models/sim < testbenches/experiment < testbenches/app < testbenches/python
#   (tests and fuzzers may include any)
# Prints every include that runs back up a layer; exit 1 if there is one.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
layers=(models/fabric routers/logic routers/algorithms routers/blocks routers/cores models/observe models/sim testbenches/experiment testbenches/app
        testbenches/python)
rank() {
  local i
  for i in "${!layers[@]}"; do [[ "$1" == "${layers[$i]}"/* ]] && { echo "$i"; return; }; done
  echo -1
}
bad=0
cd "$root"
for dir in "${layers[@]}"; do
  while IFS= read -r file; do
    from=$(rank "$file")
    while IFS= read -r inc; do
      to=$(rank "$inc")
      if ((to > from)); then
        echo "$file includes $inc: ${layers[$to]} is above ${layers[$from]}"
        bad=1
      fi
    done < <(grep -o '^#include "[^"]*"' "$file" | sed 's/#include "\(.*\)"/\1/')
  done < <(find "$dir" -name '*.h' -o -name '*.cpp' | sort)
done
((bad == 0)) && echo "layers: no include runs back up a layer"
exit "$bad"
