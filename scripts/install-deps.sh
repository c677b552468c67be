#!/usr/bin/env bash
# Installs every package bangc-sim needs on Debian bookworm, by name.
set -euo pipefail
PKGS=(cmake ninja-build g++ git
      llvm-19-dev libclang-19-dev clang-19 llvm-19-tools libclang-rt-19-dev
      libfmt-dev libgtest-dev libgmock-dev libbenchmark-dev
      libprotobuf-dev protobuf-compiler python3 python3-numpy
      python3-dev pybind11-dev gdb linux-perf
      libopenblas-dev)  # OpenBLAS: bench/gemm's comparison only
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
