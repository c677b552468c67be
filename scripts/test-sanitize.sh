#!/usr/bin/env bash
# The sanitizer job: builds the whole project and its tests with clang-19,
# AddressSanitizer (leaks reported) and UndefinedBehaviorSanitizer (every
# report fatal), plus the libFuzzer targets, in build-asan/ (or
# $BUILD_DIR); runs every test there; then runs the compile fuzzer for
# $FUZZ_SECONDS (default 60) and each reader's fuzzer (npy, spec, taskir,
# cache, args) for $FUZZ_READER_SECONDS (default 12): two minutes in all.
# .ci/run calls it. See docs/testing.md.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
export BUILD_DIR=${BUILD_DIR:-build-asan}
CC=clang-19 CXX=clang++-19 \
  CMAKE_ARGS="-DBANGC_SANITIZE=ON -DBANGC_FUZZ=ON ${CMAKE_ARGS:-}" \
  bash scripts/build.sh
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
ctest --test-dir "$BUILD_DIR" --output-on-failure -j"${JOBS:-$(nproc)}"
# A problem the compiler's fuzzer finds still lets the readers' fuzzers run.
status=0
bash scripts/fuzz.sh "${FUZZ_SECONDS:-60}" "$BUILD_DIR" compile || status=1
bash scripts/fuzz.sh "${FUZZ_READER_SECONDS:-12}" "$BUILD_DIR" npy spec taskir cache args || status=1
exit $status
