#!/bin/sh
# perf-map.sh BANGC_SIM SRC_DIR: with BANGC_PERF_MAP=1 the JIT writes
# /tmp/perf-<pid>.map, and `perf report` names the kernel function in a
# profile of `bangc-sim run` (docs/workbench.md). Exits 77 (skipped) where
# perf is missing or perf events are not allowed.
set -eu
sim=$(realpath "$1") src=$(realpath "$2")
perf=$(command -v perf || ls /usr/bin/perf_* 2>/dev/null | head -n1 || true)
[ -n "$perf" ] || { echo "SKIP: perf is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
if ! "$perf" record -q -o probe.data -- /bin/true >probe.log 2>&1; then
  echo "SKIP: perf events are not available here:"; cat probe.log; exit 77
fi
fail() { echo "FAIL: $1"; exit 1; }
# A kernel that spins long enough for the sampler to land in it.
cat >spin.mlu <<'MLU'
__mlu_global__ void spin_kernel(float *out, int n) {
  float acc = 0;
  for (int i = 0; i < n; ++i)
    acc = acc * 0.999f + (float)(i & 7);
  out[taskId] = acc;
}
MLU
BANGC_PERF_MAP=1 "$perf" record -q -F 2000 -o perf.data -- \
  "$sim" run spin.mlu --kernel spin_kernel --dim 1 --no-cache \
  --arg out:o.npy:f32:1 --arg i32:200000000 >run.log 2>&1 ||
  { cat run.log; fail "perf record of bangc-sim run failed"; }
"$perf" report -i perf.data --stdio --sort sym 2>/dev/null >report.txt
head -n 20 report.txt
grep -q "spin_kernel" report.txt ||
  fail "perf report does not name the kernel spin_kernel (no perf map?)"
echo "PASS"
