#!/usr/bin/env python3
"""The cost of launching from Python: one small kernel (vadd on 256 floats,
one task), warm compile cache, launched through bangsim's Python binding and
through the C++ host API alone (the same malloc / copy / launch / copy back /
free sequence, in C++, from Launcher._cxx_launch_loop) in one process.

  PYTHONPATH=build/python /usr/bin/python3 bench/python_overhead.py
"""

import time

import numpy as np

import bangsim

SRC = r"""
__nram__ float na[256];
__nram__ float nb[256];
__mlu_global__ void vadd(const float *a, const float *b, float *c, int n) {
  __memcpy(na, a, n * sizeof(float), GDRAM2NRAM);
  __memcpy(nb, b, n * sizeof(float), GDRAM2NRAM);
  __bang_add(na, na, nb, n);
  __memcpy(c, na, n * sizeof(float), NRAM2GDRAM);
}
"""


def main(iterations=2000, rounds=5):
    bangsim.compile(SRC)  # warm the compile cache
    start = time.perf_counter()
    mod = bangsim.compile(SRC)
    warm_compile = time.perf_counter() - start
    n = 256
    a = np.arange(n, dtype=np.float32)
    b = np.ones(n, dtype=np.float32)
    c = np.zeros(n, dtype=np.float32)
    launch = mod.vadd[1, "block"]
    launch(a, b, c, n)
    assert (c == a + b).all()
    py_best = cxx_best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(iterations):
            launch(a, b, c, n)
        py_best = min(py_best, (time.perf_counter() - start) / iterations)
        cxx_best = min(cxx_best, launch._cxx_launch_loop(a, b, c, n,
                                                         n=iterations))
    print(f"warm-cache compile: {warm_compile * 1e3:.2f} ms")
    print(f"python launch: {py_best * 1e6:.1f} us   "
          f"C++ host API: {cxx_best * 1e6:.1f} us   "
          f"ratio {py_best / cxx_best:.2f}x "
          f"(+{(py_best - cxx_best) * 1e6:.1f} us per launch)")


if __name__ == "__main__":
    main()
