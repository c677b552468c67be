#!/usr/bin/env python3
"""Our BorderAlign forward against mlu-ops' own kernel, on the same simulated
card, and how far the ratio hangs on the cost model's assumed constants.

  bench/peer_border_align.py MLUOPS_ROOT [BUILD_DIR] [OUT.md]

Issue 24, item 6 (the peer comparison). MLUOPS_ROOT is a checkout of
github.com/Cambricon/mlu-ops: its
kernels/border_align/border_align_forward/border_align_forward_union1.mlu
compiles unmodified (`bangc-sim run ... -I ROOT -I ROOT/kernels`) and runs
with the launch mlu-ops' policyFunc chooses on the MLU370 (UNION1, 4x4
tasks). Nothing of mlu-ops is kept in this repository: without a checkout
the script says so and exits 0. The inputs are random (numpy, fixed seed);
the two outputs must agree exactly, else the script fails. Then each
constant marked ASSUMED (bench/sensitivity.py's variants) at half and
double: cycles of both and their ratio. About 1 minute.
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sensitivity import assumed_keys, base_spec, variants  # noqa: E402

KERNEL = ("kernels/border_align/border_align_forward/"
          "border_align_forward_union1.mlu")
N, H, W, C, POOL = 2, 25, 38, 64, 10
K = H * W


def make_inputs(tmp):
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, (N, H, W, 4 * C)).astype(np.float32)
    x1 = rng.uniform(0, W - 2, (N, K))
    y1 = rng.uniform(0, H - 2, (N, K))
    x2 = x1 + rng.uniform(0.5, W - 1 - x1)
    y2 = y1 + rng.uniform(0.5, H - 1 - y1)
    boxes = np.stack([x1, y1, x2, y2], -1).astype(np.float32)
    np.save(os.path.join(tmp, "x.npy"), x)
    np.save(os.path.join(tmp, "b.npy"), boxes)


def cycles_of(output):
    for line in output.splitlines():
        if "simulated cycles" in line:
            return int(line.split(" simulated cycles")[0].split()[-1])
    raise RuntimeError("no cycle count in:\n" + output)


def run(cmd, tmp):
    r = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(" ".join(cmd) + "\n" + r.stdout + r.stderr)
    return cycles_of(r.stdout + r.stderr)


def both(sim, root, spec_path, tmp):
    ours = run([sim, "op", "border_align_forward", "--device", spec_path,
                "--in", "input=x.npy", "--in", "boxes=b.npy",
                "--out", "output=ours.npy", "--attr", "pool_size=%d" % POOL],
               tmp)
    args = [("i32:%d" % v) for v in (POOL, N, H, W, C, K)]
    theirs = run([sim, "run", os.path.join(root, KERNEL), "-I", root, "-I",
                  os.path.join(root, "kernels"), "--device", spec_path,
                  "-D__BANG_ARCH__=372", "-O3", "-DNDEBUG",
                  "--kernel", "MLUKernelBorderAlignForward<float>",
                  "--dim", "4,4,1", "--type", "union1",
                  "--arg", "in:x.npy", "--arg", "in:b.npy"] +
                 sum((["--arg", a] for a in args), []) +
                 ["--arg", "out:theirs.npy:f32:%dx%dx4x%d" % (N, K, C),
                  "--arg", "out:argmax.npy:i32:%dx%dx4x%d" % (N, K, C)], tmp)
    a = np.load(os.path.join(tmp, "ours.npy"))
    b = np.load(os.path.join(tmp, "theirs.npy"))
    if a.shape != b.shape or not (a == b).all():
        raise RuntimeError("outputs differ: max |ours - mlu-ops| = %g" %
                           float(np.abs(a - b).max()))
    return ours, theirs


def main():
    if len(sys.argv) < 2 or not os.path.isfile(
            os.path.join(sys.argv[1], KERNEL)):
        print("peer_border_align: no mlu-ops checkout given (MLUOPS_ROOT "
              "with %s): skipped" % KERNEL)
        return
    root = os.path.abspath(sys.argv[1])
    build = sys.argv[2] if len(sys.argv) > 2 else "build"
    out = sys.argv[3] if len(sys.argv) > 3 else "bench/peer_border_align.md"
    sim = os.path.abspath(os.path.join(build, "bin", "bangc-sim"))
    spec = base_spec(sim)
    spec["name"] = "mlu370"
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        make_inputs(tmp)
        path = os.path.join(tmp, "spec.json")
        cases = [("baseline", 1.0, spec)] + list(
            variants(spec, assumed_keys(sim)))
        for name, f, s in cases:
            json.dump(s, open(path, "w"))
            sys.stderr.write("%s x%g\n" % (name, f))
            ours, theirs = both(sim, root, path, tmp)
            rows.append((name, f, ours, theirs))
    lines = ["# BorderAlign forward: ours against mlu-ops' kernel", "",
             "`bench/peer_border_align.py` (issue 24): input [%d, %d, %d, %d] "
             "(NHWC, 4C), %d boxes an image, pool_size %d, mlu370; both "
             "outputs equal exactly. Each assumed constant at half and "
             "double." % (N, H, W, 4 * C, K, POOL), "",
             "| constant | x | ours (cycles) | mlu-ops (cycles) | "
             "mlu-ops / ours |", "|---|---|---|---|---|"]
    for name, f, ours, theirs in rows:
        lines.append("| %s | %g | %d | %d | %.2fx |" %
                     (name, f, ours, theirs, theirs / ours))
    open(out, "w").write("\n".join(lines) + "\n")
    print("wrote", out)


if __name__ == "__main__":
    main()
