#!/usr/bin/env bash
# Configures and builds the suite into ${BUILD_DIR:-build} (Release unless BUILD_TYPE says
# otherwise). Extra CMake options may follow, e.g. scripts/build.sh -DSUITE_SANITIZE=ON.
# TARGETS="a b" builds only those targets (the main job builds what it runs, nothing more).
#
# Both README commands configure through here with the same options (warnings are errors in
# every build), so the test command after the main job reuses its build directory and its
# objects: a different option would reconfigure and recompile everything.
set -euo pipefail
source "$(dirname "$0")/usage.sh"
script_help "$0" "$@"
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
mkdir -p "$build_dir"
log="$build_dir/configure.log"
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" -DSUITE_WERROR=ON "$@" >"$log" 2>&1 \
  || { cat "$log"; exit 1; }
targets=()
for t in ${TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$build_dir" -j "$(nproc)" "${targets[@]}"
