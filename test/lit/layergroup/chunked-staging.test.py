"""Checks of chunked-staging.test: on every core of a group whose input
(ELEMS floats) is staged once per chip in chunks, the first __bang_conv
starts before the core has read its share (ELEMS / cores floats) from
GDRAM into SRAM, and the rest of the share is read after it started.

  chunked-staging.test.py TRACE ELEMS
"""
import json
import sys

trace = json.load(open(sys.argv[1]))["traceEvents"]
elems = int(sys.argv[2])
cores = {}
for e in trace:
    if e.get("ph") != "X":
        continue
    a = e["args"]
    cores.setdefault(a["core"], []).append((a["start_cycle"], a["cycles"],
                                            e["name"], a))
share = elems * 4 // len(cores)
for core, events in sorted(cores.items()):
    conv = min(s for s, _, name, _ in events if name == "__bang_conv")
    reads = [(s, c, a["bytes"]) for s, c, name, a in events
             if name == "GDRAM2SRAM"]
    before = sum(b for s, c, b in reads if s + c <= conv)
    after = sum(b for s, c, b in reads if s >= conv)
    assert before < share, (core, before, share)
    assert before + after == share, (core, before, after, share)
    assert after > 0, core
print("ok: %d cores start before their share of %d bytes is staged"
      % (len(cores), share))
