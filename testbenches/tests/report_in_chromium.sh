#!/usr/bin/env bash
# An experiment's HTML report as a browser shows it: an experiment with two plots runs, `cubecast
# report` writes the page, headless Chromium renders it offline (no network), and the rendered
# document must lead with the summary of the columns the file chose (titled as people read them, the
# command last), then show both plots as inline SVG, the link maps of the points (rings and 2-D tori)
# with their axes, the outcome, every result and the sessions (with the points at once and MPI
# ranks); a screenshot of it must not be blank.
set -euo pipefail
bin="$1"
work="$2"
rm -rf "$work" && mkdir -p "$work" && cd "$work"
cat >report.yaml <<'YAML'
name: report-check
run:
  task: traffic
  topology: torus
  radix: 4
  buffering: input
  window: 500
  drain: 500
axes:
  dim: [1, 2]
  rate: [0.1, 0.3]
plots:
  - name: latency
    x: rate
    y: traffic.mean_latency_cycles
    curves: dim
    reference: [traffic.zero_load_latency_cycles]
  - name: accepted
    x: rate
    y: traffic.accepted
    curves: dim
report:
  columns: [dim, rate, traffic.mean_latency_cycles]
  link_maps: yes
YAML
"$bin" experiment report.yaml --out results >/dev/null 2>&1
rm -f results/report.html
"$bin" report results >/dev/null
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "chromium is not installed (scripts/test.sh installs it)"; exit 1; }
flags=(--headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$work/profile" --virtual-time-budget=2000)
timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$work/results/report.html" 2>/dev/null >dom.html
timeout 120 "$browser" "${flags[@]}" --window-size=1280,2000 --screenshot="$work/shot.png" "file://$work/results/report.html" >/dev/null 2>&1
fail=0
check() { if [ "$2" != "$3" ]; then echo "FAIL: $1: $2 (expected $3)"; fail=1; else echo "ok: $1: $2"; fi; }
check "tables" "$(grep -o '<table id="[a-z]*"' dom.html | tr '\n' ' ')" '<table id="summary" <table id="outcome" <table id="results" <table id="sessions" '
check "summary first" "$(grep -o '<table id="summary"\|<figure class="plot"' dom.html | head -1)" '<table id="summary"'
check "summary columns" "$(grep '<table id="summary"' dom.html | sed 's/<\/thead>.*//' | grep -o '<th[^>]*>[^<]*</th>' | sed 's/<[^>]*>//g' | tr '\n' '|')" 'dimension d|offered load (flits/node/cycle)|mean latency (cycles)|command|'
check "summary rows" "$(sed -n '/<table id="summary"/,/<\/table>/p' dom.html | grep -c '^<tr><td>')" 4
check "result rows" "$(sed -n '/<table id="results"/,/<\/table>/p' dom.html | grep -c '^<tr><td>')" 4
check "sessions record" "$(grep -c '<th>points at once</th><th>MPI ranks</th>' dom.html)" 1
check "plots shown" "$(grep -o '<figure class="plot" id="plot-[a-z]*"><svg' dom.html | wc -l)" 2
check "link maps shown" "$(grep -o '<figure class="plot" id="links-point-[0-9]*"><svg' dom.html | wc -l)" 4
check "link maps captioned" "$(grep -o '<figcaption>point [0-9] dim=[12] rate=0.[13]</figcaption>' dom.html | wc -l)" 4
check "outcome" "$(grep -c '<td>ok</td><td>4</td>' dom.html)" 1
# A blank 1280x2000 page compresses to a few kB of PNG; text, tables and curves make it far larger.
size=$(stat -c %s "$work/shot.png" 2>/dev/null || echo 0)
if [ "$size" -lt 40000 ]; then echo "FAIL: the screenshot is $size bytes: the page did not render"; fail=1; else echo "ok: screenshot of $size bytes"; fi
exit "$fail"
