#!/usr/bin/env bash
# README command (2): set up, build (warnings are errors), and pass every test.
# Extra arguments go to ctest (e.g. -L unit, -LE slow, -R sweep3d).
# SANITIZE=1 instead builds with ASan + UBSan into build-sanitize and runs the tests but
# the slow ones there (MPICH's own leaks at MPI_Finalize are not reported: detect_leaks=0).
set -euo pipefail
source "$(dirname "$0")/usage.sh"
script_help "$0" "$@"
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# The apps' machine-file cache (docs/user-guide.md) for the tests: a folder of the build, so
# the tests neither read nor fill the user's ~/.cache. The first 2-rank run fills it.
cache_in() { mkdir -p "$1/test-cache" && export XDG_CACHE_HOME="$(cd "$1/test-cache" && pwd)"; }
if [ "${SANITIZE:-0}" = 1 ]; then
  export BUILD_DIR=${BUILD_DIR:-build-sanitize} BUILD_TYPE=${BUILD_TYPE:-RelWithDebInfo}
  bash scripts/build.sh -DSUITE_SANITIZE=ON
  # Every test process, also those a test script starts itself, inherits this.
  export ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1
  cache_in "$BUILD_DIR"
  cd "$BUILD_DIR"
  ctest --output-on-failure -j 2 -LE slow "$@"
else
  # The main job's build directory and configuration (scripts/build.sh): what it built is
  # reused, only the rest (the tests, the other tools) is compiled here.
  BUILD_DIR=${BUILD_DIR:-build} bash scripts/build.sh
  cache_in "${BUILD_DIR:-build}"
  cd "${BUILD_DIR:-build}"
  ctest --output-on-failure -j 2 "$@"
fi
