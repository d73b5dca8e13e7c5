#!/usr/bin/env bash
# Configures and builds the suite into ${BUILD_DIR:-build} (Release unless BUILD_TYPE says
# otherwise). Extra CMake options may follow, e.g. scripts/build.sh -DSUITE_SANITIZE=ON.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
mkdir -p "$build_dir"
log="$build_dir/configure.log"
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" "$@" >"$log" 2>&1 \
  || { cat "$log"; exit 1; }
cmake --build "$build_dir" -j "$(nproc)"
