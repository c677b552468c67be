#!/usr/bin/env python3
"""trace_overlap.py TRACE.json [NAME]: finds a core on which an event of a
DMA pipe (cat "dma": io-dma or move-dma; named NAME, e.g. GDRAM2NRAM, if
given) overlaps an event of a compute pipe (cat "compute": scalar, vector
or tensor); each event's args name its core and pipe. Prints the core and
the longest overlap; exits 1 if none."""
import json
import sys

events = json.load(open(sys.argv[1]))["traceEvents"]
dmas, computes = {}, {}
for e in events:
    if e.get("ph") != "X" or "dur" not in e:
        continue
    core = e["args"]["core"]
    pipe = e["args"]["pipe"]
    if e["cat"] == "dma":
        assert pipe in ("io-dma", "move-dma"), pipe
        if len(sys.argv) < 3 or e["name"] == sys.argv[2]:
            dmas.setdefault(core, []).append(e)
    else:
        assert pipe in ("scalar", "vector", "tensor"), pipe
        computes.setdefault(core, []).append(e)
best = None
for core, ds in dmas.items():
    cs = sorted(computes.get(core, []), key=lambda e: e["ts"])
    for d in ds:
        d0, d1 = d["ts"], d["ts"] + d["dur"]
        for c in cs:
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
