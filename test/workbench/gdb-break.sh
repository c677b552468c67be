#!/bin/sh
# gdb-break.sh BANGC_SIM SRC_DIR: a -g kernel is registered with the
# debugger JIT interface, so gdb in batch mode can break on a line of the
# .mlu source of an -O0 kernel and print a kernel argument, a local and
# the task's taskId (docs/workbench.md). Exits 77 (skipped) where gdb
# cannot trace a process.
set -eu
sim=$(realpath "$1") src=$(realpath "$2")
command -v gdb >/dev/null || { echo "SKIP: gdb is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
# gdb must be able to ptrace a child (containers may forbid it).
if ! gdb -batch -ex run --args /bin/true >probe.log 2>&1 ||
   grep -qi "ptrace\|Operation not permitted" probe.log; then
  echo "SKIP: gdb cannot trace a process here:"; cat probe.log; exit 77
fi
gdb -batch -ex 'set breakpoint pending on' \
  -ex 'break vector_add.mlu:28' -ex run \
  -ex 'print n' -ex 'print count' \
  -ex "print '(anonymous namespace)::tlsTask'->ctx.taskId" \
  -ex 'bt 1' \
  --args "$sim" run "$src/examples/vector_add.mlu" --kernel vadd --dim 1 \
  --arg in:"$src/test/workbench/a37.npy" --arg in:"$src/test/workbench/a37.npy" \
  --arg out:c.npy:f32:37 --arg i32:37 -g -O0 --no-cache >gdb.log 2>&1 || true
cat gdb.log
fail() { echo "FAIL: $1"; exit 1; }
grep -q "hit Breakpoint 1, vadd (" gdb.log ||
  fail "gdb did not stop in the kernel vadd (JIT debug info not registered?)"
grep -q "vector_add.mlu:28" gdb.log || fail "the stop is not at vector_add.mlu:28"
grep -q '^\$1 = 37$' gdb.log || fail "print n did not give the argument 37"
grep -q '^\$2 = 37$' gdb.log || fail "print count (a local) did not give 37"
grep -q '^\$3 = 0$' gdb.log || fail "taskId of the only task is not 0"
echo "PASS"
