#!/usr/bin/env bash
# Formats every C++ source in place with the committed .clang-format.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
find models routers testbenches rtl -name '*.cpp' -o -name '*.h' | xargs clang-format -i
