"""Checks of late-weights.test: on every core of a group of tiles with
resident weights staged once per chip, the SRAM->WRAM copy of the
weights of BYTES bytes starts after the core's first __bang_conv started
(`late`: GroupPlan::LateWeights) or ends before it (`first`: the
prologue copies them).

  late-weights.test.py TRACE BYTES late|first
"""
import json
import sys

trace = json.load(open(sys.argv[1]))["traceEvents"]
size, mode = int(sys.argv[2]), sys.argv[3]
cores = {}
for e in trace:
    if e.get("ph") != "X":
        continue
    a = e["args"]
    cores.setdefault(a["core"], []).append((a["start_cycle"], a["cycles"],
                                            e["name"], a))
for core, events in sorted(cores.items()):
    conv = min(s for s, _, name, _ in events if name == "__bang_conv")
    copies = [(s, c) for s, c, name, a in events
              if name == "SRAM2WRAM" and a.get("bytes") == size]
    assert len(copies) == 1, (core, copies)
    s, c = copies[0]
    if mode == "late":
        assert s > conv, (core, s, conv)
    else:
        assert s + c <= conv, (core, s + c, conv)
print("ok: %d cores copy the %d bytes %s" %
      (len(cores), size, "after their first convolution started"
       if mode == "late" else "before their first convolution"))
