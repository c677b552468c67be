"""Checks of first-positions.test: VGG-16 64x64 equals the reference, and
conv3_2's group with its first weight tile in pieces of kernel positions
takes fewer simulated cycles than by kernel rows (--no-first-positions),
with an estimate within 2% of the simulation.

  first-positions.test.py ON_REPORT OFF_REPORT
"""
import json
import sys

on, off = (json.load(open(f)) for f in sys.argv[1:3])
assert on["max_rel_err"] <= 1e-5, on["max_rel_err"]
group = lambda r: next(g for g in r["grouped"]["groups"]
                       if g["layers"][0] == "conv3_2")
a, b = group(on), group(off)
assert a["simulated_cycles"] < b["simulated_cycles"], (a["simulated_cycles"],
                                                       b["simulated_cycles"])
ratio = a["estimated_cycles"] / a["simulated_cycles"]
assert 0.98 <= ratio <= 1.02, ratio
print("first-positions: ok", round(b["simulated_cycles"]),
      round(a["simulated_cycles"]))
