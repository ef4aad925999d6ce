#!/usr/bin/env bash
# Installs the Debian packages cubecast needs (only those missing), then configures and builds it in
# build/. Called by scripts/run.sh and scripts/test.sh; safe to run again (incremental). With --tests
# it also installs what only the tests need (Chromium, to render the HTML report).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# (clang and its runtimes: the sanitizer build and the fuzzers; xvfb, xauth: GTKWave headless in the tests)
# (libyaml-cpp-dev: experiment files; libopenmpi-dev, openmpi-bin: experiments over MPI ranks; yosys: rtl/synth.sh)
packages=(cmake g++ make pkg-config libsystemc-dev libgtest-dev googletest libcli11-dev nlohmann-json3-dev gtkwave
          verilator zlib1g-dev iverilog gnuplot-nox clang clang-format libclang-rt-14-dev xvfb xauth
          libyaml-cpp-dev libopenmpi-dev openmpi-bin yosys)
[ "${1:-}" = "--tests" ] && packages+=(chromium)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "cubecast setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# Build output goes to build/build.log (Verilator's runtime headers are noisy); shown if it fails.
mkdir -p "$root/build"
log="$root/build/build.log"
if ! { cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release && cmake --build "$root/build" -j "$(nproc)"; } >"$log" 2>&1; then
  tail -n 40 "$log" >&2
  echo "cubecast setup: the build failed (full log: $log)" >&2
  exit 1
fi
