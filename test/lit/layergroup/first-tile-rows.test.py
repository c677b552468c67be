"""Checks of first-tile-rows.test: VGG-16 32x32 equals the reference, the
groups whose first weight tile loads a kernel row at a time are estimated
within 5% of their simulated cycles, and on every core of conv3_2's group
(3x3 over 256 channels, tiles of 16 output channels: 147,456 bytes, a
kernel row 49,152) the first __bang_conv starts when at most one kernel
row has arrived in WRAM.

  first-tile-rows.test.py REPORT TRACE
"""
import json
import sys

report = json.load(open(sys.argv[1]))
assert report["max_rel_err"] <= 1e-4, report["max_rel_err"]
groups = report["grouped"]["groups"]
for g in groups:
    if g["layers"][0] in ("conv3_1", "conv3_2", "conv3_3", "conv4_1",
                          "conv4_2", "conv4_3"):
        ratio = g["estimated_cycles"] / g["simulated_cycles"]
        assert 0.95 <= ratio <= 1.05, (g["layers"][0], ratio)

trace = json.load(open(sys.argv[2]))["traceEvents"]
cores = {}
for e in trace:
    if e.get("ph") != "X":
        continue
    a = e["args"]
    cores.setdefault(a["core"], []).append((a["start_cycle"], a["cycles"],
                                            e["name"], e["args"]))
TILE, ROW = 3 * 3 * 256 * 16 * 4, 3 * 256 * 16 * 4
assert len(cores) == 16, len(cores)
for core, events in cores.items():
    conv = min(s for s, _, n, _ in events if n == "__bang_conv")
    arrived = sum(a["bytes"] for s, c, n, a in events
                  if n == "GDRAM2WRAM" and s + c <= conv)
    assert 0 < arrived <= ROW < TILE, (core, arrived, conv)
print("first-tile-rows: ok")
