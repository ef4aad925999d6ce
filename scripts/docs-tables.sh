#!/usr/bin/env bash
# The docs' tables regenerated from their experiment files (scripts/docs_tables.py says how): runs
# each experiment with a table (resuming its results under build/docs-tables/) and rewrites the table
# in its doc. --check writes nothing and fails on a table that differs; --affordable (with --check)
# runs only each file's check: rows, as the test suite does. The Verilog routers' Yosys tables are
# synthesised again only with --synthesis (hours in all); without it --check holds them to their rows.
#   scripts/docs-tables.sh [--check [--affordable]] [--synthesis] [NAME ...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
exec python3 "$root/scripts/docs_tables.py" "$@"
