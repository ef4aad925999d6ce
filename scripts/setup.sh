#!/usr/bin/env bash
# Installs the Debian packages cubecast needs (only those missing), then configures and builds it in
# build/, saying what it does and how far it is. Called by scripts/run.sh (which needs only the
# cubecast command: on a first build without the Verilated routers, unless CUBECAST_RTL=ON) and
# scripts/test.sh (--tests: every target, the Verilated routers included, and what only the tests
# need: Chromium, to render the HTML report); safe to run again (incremental).
#   scripts/setup.sh [--tests]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tests=0
[ "${1:-}" = "--tests" ] && tests=1
say() { echo "cubecast setup: $*" >&2; }
# (clang and its runtimes: the sanitizer build and the fuzzers; xvfb, xauth: GTKWave headless in the tests)
# (libyaml-cpp-dev: experiment files; libopenmpi-dev, openmpi-bin: experiments over MPI ranks; yosys: rtl/synth.sh;
#  pybind11-dev, python3-dev: the Python module, build/python/cubecast)
# The Verilated Verilog routers (--router rtl) take most of a first build: running builds them only
# when asked (CUBECAST_RTL=ON) or when an earlier build has them; the tests always do.
rtl=()
if ((tests)); then
  rtl=(-DCUBECAST_RTL=ON)
elif [ -n "${CUBECAST_RTL:-}" ]; then
  rtl=(-DCUBECAST_RTL="$CUBECAST_RTL")
elif [ ! -f "$root/build/CMakeCache.txt" ]; then
  rtl=(-DCUBECAST_RTL=OFF)
fi
# What running needs; the tests add the Verilog tools, the waves' viewer, the linters and the browser
# (python3-yaml: scripts/docs_tables.py, which the tests run to hold the docs' tables to their experiments;
# python3-matplotlib: the Python module's worked example, docs/python.md).
packages=(cmake g++ make pkg-config libsystemc-dev libgtest-dev libcli11-dev nlohmann-json3-dev zlib1g-dev gnuplot-nox
          libyaml-cpp-dev libopenmpi-dev openmpi-bin pybind11-dev python3-dev)
((tests)) && packages+=(googletest gtkwave verilator iverilog clang clang-format libclang-rt-14-dev xvfb xauth yosys
                        chromium python3 python3-yaml python3-matplotlib)
if [ "${CUBECAST_RTL:-}" = ON ] || grep -qs '^CUBECAST_RTL:BOOL=ON' "$root/build/CMakeCache.txt"; then
  packages+=(verilator)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  noun=packages
  ((${#missing[@]} == 1)) && noun=package
  say "installing ${#missing[@]} Debian $noun (a few minutes on a fresh machine): ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  # (a bare system has no apt-utils, and debconf says so for every package: that line tells nobody anything)
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    2> >(grep -v '^debconf: delaying package configuration, since apt-utils is not installed' >&2)
fi
# Build output goes to build/build.log (Verilator's runtime headers are noisy); shown if it fails. The
# run needs the cubecast command (and its Python module, build/python, a minute more); the tests every target.
mkdir -p "$root/build"
log="$root/build/build.log"
jobs="$(nproc)"
if ! cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release "${rtl[@]}" >"$log" 2>&1; then
  tail -n 40 "$log" >&2
  say "configuring the build failed (full log: $log)"
  exit 1
fi
if ((tests)); then
  targets=(all)
  what="cubecast, its Verilated routers, its tests and benches (6 to 17 minutes from scratch on 2 cores)"
elif grep -qs '^CUBECAST_RTL:BOOL=ON' "$root/build/CMakeCache.txt"; then
  targets=(cubecast cubecast_python)
  what="the cubecast command with its Verilated routers, and its Python module (about 10 minutes from scratch on 2 cores)"
else
  targets=(cubecast cubecast_python)
  what="the cubecast command and its Python module (2 to 4 minutes from scratch on 2 cores; the Verilated routers of --router rtl come with bash scripts/test.sh, or CUBECAST_RTL=ON bash scripts/run.sh)"
fi
start=$SECONDS
cmake --build "$root/build" -j "$jobs" --target "${targets[@]}" >>"$log" 2>&1 &
builder=$!
# An up-to-date build ends within seconds and says nothing; a real one says what it builds, then its
# progress from make's own percentages, a line every half minute.
for _ in 1 2 3 4 5; do kill -0 "$builder" 2>/dev/null && sleep 1; done
if ! kill -0 "$builder" 2>/dev/null; then
  if wait "$builder"; then exit 0; fi
  tail -n 40 "$log" >&2
  say "the build failed (full log: $log)"
  exit 1
fi
say "building $what; log: $log"
last=""
while kill -0 "$builder" 2>/dev/null; do
  for _ in $(seq 30); do kill -0 "$builder" 2>/dev/null && sleep 1; done
  kill -0 "$builder" 2>/dev/null || break
  percent="$(grep -o '^\[ *[0-9]*%\]' "$log" | tail -n 1 | tr -dc '0-9')"
  if [ -n "$percent" ] && [ "$percent" != "$last" ]; then
    say "building: ${percent}% after $(((SECONDS - start) / 60))m$(((SECONDS - start) % 60))s"
    last="$percent"
  fi
done
if ! wait "$builder"; then
  tail -n 40 "$log" >&2
  say "the build failed (full log: $log)"
  exit 1
fi
say "built in $(((SECONDS - start) / 60))m$(((SECONDS - start) % 60))s"
