#!/usr/bin/env python3
"""tin_ref.py IN.npy SHIFTS.npy OUT.npy [backward]: the TinShift reference in
numpy: out[n,t,c] = in[n,t-s,c] (backward: in[n,t+s,c]), zero outside."""
import sys

import numpy as np

x = np.load(sys.argv[1])
shifts = np.load(sys.argv[2]).astype(np.int64)
sign = -1 if len(sys.argv) > 4 and sys.argv[4] == "backward" else 1
N, T, C, HW = x.shape
G = shifts.shape[1]
out = np.zeros_like(x)
for n in range(N):
    for c in range(C):
        s = sign * shifts[n, c // (C // G)]
        for t in range(T):
            if 0 <= t - s < T:
                out[n, t, c] = x[n, t - s, c]
np.save(sys.argv[3], out)
