#!/usr/bin/env bash
# Configures and builds bangc-sim in build/ (or $BUILD_DIR): every target,
# or only the targets named as arguments (scripts/demo.sh builds bangc-sim
# alone).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-$(nproc)}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-RelWithDebInfo} ${CMAKE_ARGS:-} >/dev/null
ninja -C "$BUILD_DIR" -j"$JOBS" "$@"
