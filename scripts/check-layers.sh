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
cd "$root"
mapfile -t files < <(for dir in "${layers[@]}"; do find "$dir" -name '*.h' -o -name '*.cpp' | sort; done)
# (One awk over every file: a process an include took 8 s where starting a process is slow.)
awk -v layers="${layers[*]}" '
  BEGIN { n = split(layers, layer, " ") }
  function rank(path,   i) {
    for (i = 1; i <= n; ++i) if (index(path, layer[i] "/") == 1) return i
    return 0
  }
  /^#include "[^"]*"/ {
    inc = $0
    sub(/^#include "/, "", inc)
    sub(/".*/, "", inc)
    from = rank(FILENAME)
    to = rank(inc)
    if (to > from) {
      print FILENAME " includes " inc ": " layer[to] " is above " layer[from]
      bad = 1
    }
  }
  END {
    if (!bad) print "layers: no include runs back up a layer"
    exit bad
  }' "${files[@]}"
