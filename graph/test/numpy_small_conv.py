#!/usr/bin/python3
# Independent numpy reference for good/small_conv.json (including the
# documented splitmix64 weight init). usage: numpy_small_conv.py X.npy Y.npy
import numpy as np, sys
M = (1 << 64) - 1
def u01(seed, i):
    z = (seed + (i + 1) * 0x9E3779B97F4A7C15) & M
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    z = z ^ (z >> 31)
    return (z >> 11) * 2.0 ** -53
def rnd(v):  # ties away from zero
    return np.sign(v) * np.floor(np.abs(v) + 0.5)
w = np.array([rnd(100 * (2 * u01(7, i) - 1)) for i in range(54)]).clip(-128, 127).reshape(3, 2, 3, 3)
b = np.array([10, -20, 30])
x = np.load(sys.argv[1]).astype(np.int64)
xp = np.pad(x, ((1, 1), (1, 1), (0, 0)))
y = np.zeros((4, 4, 3), np.int64)
for oy in range(4):
    for ox in range(4):
        y[oy, ox] = b + np.einsum('yxr,fryx->f', xp[oy:oy+3, ox:ox+3], w.astype(np.int64))
got = np.load(sys.argv[2])
print("match" if (got == y).all() and got.dtype == np.int32 else "MISMATCH")
sys.exit(0 if (got == y).all() else 1)
