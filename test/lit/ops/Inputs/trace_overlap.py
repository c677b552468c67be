#!/usr/bin/env python3
"""trace_overlap.py TRACE.json: finds a core whose DMA track (tid = core*2+1,
cat "dma") has an event overlapping an event of its compute track (tid =
core*2, cat "compute"). Prints the core and the overlap; exits 1 if none."""
import json
import sys

events = json.load(open(sys.argv[1]))["traceEvents"]
by_tid = {}
for e in events:
    if e.get("ph") != "X" or "dur" not in e:
        continue
    by_tid.setdefault(e["tid"], []).append(e)
best = None
for tid, dmas in by_tid.items():
    if tid % 2 != 1:
        continue
    core = tid // 2
    assert all(e["cat"] == "dma" for e in dmas)
    computes = sorted(by_tid.get(core * 2, []), key=lambda e: e["ts"])
    assert all(e["cat"] == "compute" for e in computes)
    for d in dmas:
        d0, d1 = d["ts"], d["ts"] + d["dur"]
        for c in computes:
            c0, c1 = c["ts"], c["ts"] + c["dur"]
            if c0 >= d1:
                break
            ov = min(d1, c1) - max(d0, c0)
            if ov > 0 and (best is None or ov > best[1]):
                best = (core, ov, d["name"], c["name"])
if best is None:
    print("no DMA overlaps compute on any core")
    sys.exit(1)
print("core %d: DMA %s overlaps compute %s" % (best[0], best[2], best[3]))
