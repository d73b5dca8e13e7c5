#!/usr/bin/env bash
# README command (2): set up, build with warnings as errors, and pass every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
BUILD_DIR=${BUILD_DIR:-build} bash scripts/build.sh -DSUITE_WERROR=ON
cd "${BUILD_DIR:-build}"
ctest --output-on-failure -j 2 "$@"
