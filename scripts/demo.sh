#!/usr/bin/env bash
# Installs what bangc-sim needs, builds it, and runs the first example: a
# vector addition kernel compiled by bangc-sim and run on the simulated
# device, with its result and profile printed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# Only the compiler and what it needs: the tests and benchmarks are built by
# scripts/test.sh.
bash scripts/build.sh bangc-sim
BIN=${BUILD_DIR:-build}/bin/bangc-sim
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 - "$work" <<'PY'
import sys, numpy as np
d = sys.argv[1]
np.save(d + "/a.npy", np.arange(1024, dtype=np.float32))
np.save(d + "/b.npy", np.full(1024, 0.5, dtype=np.float32))
PY
echo "\$ bangc-sim run examples/vector_add.mlu --kernel vadd --dim 4 --type union1 \\"
echo "      --arg in:a.npy --arg in:b.npy --arg out:c.npy:f32:1024 --arg i32:1024 --profile"
"$BIN" run examples/vector_add.mlu --kernel vadd --dim 4 --type union1 \
  --arg in:"$work"/a.npy --arg in:"$work"/b.npy --arg out:"$work"/c.npy:f32:1024 \
  --arg i32:1024 --profile
/usr/bin/python3 - "$work" <<'PY'
import sys, numpy as np
d = sys.argv[1]
a, b, c = (np.load("%s/%s.npy" % (d, n)) for n in "abc")
print("c[:6] =", c[:6], "... c[-3:] =", c[-3:])
assert np.array_equal(c, a + b), "wrong result"
print("c == a + b: correct")
PY
