#!/usr/bin/env bash
# Installs what bangc-sim needs, builds it, and runs every test: GoogleTest
# units, lit/FileCheck tests (IR, diagnostics, CLI, device runs) and the
# ground-truth tests, through CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j"${JOBS:-$(nproc)}"
