#!/bin/sh
# race_check_cost.sh [BUILD_DIR]: what --check=race costs on bench/run's
# TinShift and BorderAlign cases (kernels/bench/bench.cpp's shapes, mlu370):
# host time of the operator's launches (the stats' host_seconds, median of
# five runs, warm compile cache) with --check=race against a plain run.
# Prints one row per case and the ratio; docs/device.md quotes the figures.
set -eu
cd "$(dirname "$0")/.."
BUILD=${1:-build}
sim=$(realpath "$BUILD/bin/bangc-sim")
npy=$(realpath test/lit/Inputs/npy.py)
py=/usr/bin/python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export BANGC_CACHE_DIR="$work/cache"
# seconds ARGS...: median host_seconds of five runs of `bangc-sim op ARGS`.
seconds() {
  for i in 1 2 3 4 5; do
    rm -f s.json
    "$sim" op "$@" --stats-json s.json >log.txt 2>&1 ||
      { cat log.txt >&2; echo "failed: bangc-sim op $*" >&2; exit 1; }
    "$py" -c "import json; print(json.load(open('s.json'))['host_seconds'])"
  done | sort -g | sed -n 3p
}
# row LABEL ARGS...: the plain and the checked time of one case.
row() {
  label=$1
  shift
  seconds "$@" >/dev/null # compile both variants once: warm cache
  seconds "$@" --check=race >/dev/null
  plain=$(seconds "$@")
  checked=$(seconds "$@" --check=race)
  "$py" -c "print('%-44s %9.2f ms %9.2f ms %6.2fx' % ('$label', $plain * 1e3, $checked * 1e3, $checked / $plain))"
}
printf '%-44s %12s %12s %7s\n' case plain --check=race ratio
# TinShift [N, T, C, HW], shifts [N, G] in [-3, 3].
tin() { # label N T C HW G dtype direction
  "$py" "$npy" make x.npy "np.random.default_rng(1).standard_normal(($2, $3, $4, $5)).astype(np.$7)"
  "$py" "$npy" make s.npy "np.random.default_rng(2).integers(-3, 4, ($2, $6)).astype(np.int32)"
  if [ "$8" = forward ]; then
    row "tin_shift $1 forward" tin_shift_forward --in input=x.npy --in shifts=s.npy
  else
    row "tin_shift $1 backward" tin_shift_backward --in grad_output=x.npy --in shifts=s.npy
  fi
}
tin "mlu-ops half" 3 15 16 45435 4 float16 forward
for dir in forward backward; do
  tin "ResNet-50 res2" 2 8 256 3136 2 float32 $dir
  tin "ResNet-50 res5" 2 8 2048 49 2 float32 $dir
  tin "64 MiB" 4 8 256 2048 2 float32 $dir
done
# BorderAlign: BorderDet's shapes, pool_size 10.
for shape in "2 7 10 1024 70" "2 25 38 1024 950" "2 10 7 512 70"; do
  set -- $shape
  "$py" "$npy" make x.npy "np.random.default_rng(7).uniform(-4, 4, ($1, $2, $3, $4)).astype(np.float32)"
  X1="np.random.default_rng(9).uniform(0, $3 * 0.8, ($1, $5))"
  Y1="np.random.default_rng(10).uniform(0, $2 * 0.8, ($1, $5))"
  "$py" "$npy" make b.npy "np.stack([$X1, $Y1, $X1 + np.random.default_rng(8).uniform(0, 1, ($1, $5)) * ($3 - $X1), $Y1 + np.random.default_rng(12).uniform(0, 1, ($1, $5)) * ($2 - $Y1)], -1).astype(np.float32)"
  "$py" "$npy" make g.npy "np.random.default_rng(11).uniform(-0.5, 0.5, ($1, $5, 4, $4 // 4)).astype(np.float32)"
  "$sim" op border_align_forward --in input=x.npy --in boxes=b.npy --attr pool_size=10 --out argmax_idx=a.npy >/dev/null 2>&1
  row "border_align [$1,$2,$3,$4] K=$5 forward" border_align_forward --in input=x.npy --in boxes=b.npy --attr pool_size=10
  row "border_align [$1,$2,$3,$4] K=$5 backward" border_align_backward --in grad_output=g.npy --in boxes=b.npy --in argmax_idx=a.npy --attr pool_size=10 --attr height=$2 --attr width=$3
done
