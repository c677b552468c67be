#!/usr/bin/env python3
"""Test helper: make .npy inputs and check .npy outputs with numpy.

  npy.py make FILE EXPR          save eval(EXPR) to FILE
  npy.py check FILE EXPR [TOL]   compare FILE with eval(EXPR): exact, or within
                                 TOL (absolute) for floats; prints OK or the
                                 first differences and exits 1
  npy.py show FILE               print dtype, shape and values

EXPR may use np, and the arrays of earlier files by name: for FILE a.npy the
name is `a` (files in the current directory are loaded on demand).
"""
import os
import sys

import numpy as np


class Files(dict):
    def __missing__(self, name):
        path = name + ".npy"
        if os.path.exists(path):
            value = np.load(path)
            self[name] = value
            return value
        raise KeyError(name)


def evaluate(expr):
    scope = Files(np=np)
    return eval(expr, {"__builtins__": __builtins__}, scope)


def main(argv):
    cmd = argv[1]
    if cmd == "make":
        np.save(argv[2], evaluate(argv[3]))
        return 0
    if cmd == "show":
        a = np.load(argv[2])
        print(a.dtype, list(a.shape))
        print(a)
        return 0
    if cmd == "check":
        got = np.load(argv[2])
        want = np.asarray(evaluate(argv[3]))
        tol = float(argv[4]) if len(argv) > 4 else 0.0
        if got.shape != want.shape:
            print("shape differs: got %s, want %s" % (got.shape, want.shape))
            return 1
        if tol == 0:
            same = np.array_equal(got, want, equal_nan=got.dtype.kind == "f")
            if got.dtype.kind == "f":
                # bit-exact, including the sign of zero
                same = same and np.array_equal(np.signbit(got), np.signbit(want))
        else:
            same = np.allclose(got, want, atol=tol, rtol=0, equal_nan=True)
        if same:
            print("OK")
            return 0
        bad = np.argwhere(~np.isclose(got, want, atol=tol, rtol=0, equal_nan=True)
                          if got.dtype.kind == "f" else got != want)
        print("%d elements differ; first: " % len(bad))
        for idx in bad[:8]:
            idx = tuple(idx)
            print("  %s: got %r want %r" % (idx, got[idx], want[idx]))
        return 1
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
