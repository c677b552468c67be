"""Checks of tile-rows.test: VGG-16's conv5 block equals the reference, each
group is estimated within 3% of its simulated cycles, and on each group's
slowest core the matrix and vector units wait (gaps between its first and
last compute operation, group_phases.py) less than 2% of its matrix time;
on every core the bias's GDRAM->NRAM load starts before the resident
input's SRAM->NRAM copy ends.

  tile-rows.test.py REPORT PHASES_JSON TRACE_DIR
"""
import json
import sys

report = json.load(open(sys.argv[1]))
assert report["max_rel_err"] <= 1e-4, report["max_rel_err"]
groups = report["grouped"]["groups"]
assert [g["layers"][0] for g in groups] == ["conv5_1", "conv5_2", "conv5_3"]
for g in groups:
    ratio = g["estimated_cycles"] / g["simulated_cycles"]
    assert 0.97 <= ratio <= 1.03, (g["layers"][0], ratio)

phases = json.load(open(sys.argv[2]))
assert len(phases) == len(groups), (len(phases), len(groups))
for p, g in zip(phases, groups):
    print(g["layers"][0], "gaps", round(p["gaps"]), "tensor", round(p["tensor"]))
    assert p["gaps"] < 0.02 * p["tensor"], (g["layers"][0], p["gaps"], p["tensor"])

for k in range(len(groups)):
    trace = json.load(open(f"{sys.argv[3]}/lg_group{k}.trace.json"))
    cores = {}
    for e in trace["traceEvents"]:
        if e.get("ph") == "X":
            a = e["args"]
            cores.setdefault(a["core"], []).append(
                (a["start_cycle"], a["start_cycle"] + a["cycles"], e["name"]))
    assert len(cores) == 16, (k, len(cores))
    for core, ev in cores.items():
        copy = min(hi for lo, hi, n in ev if n == "SRAM2NRAM")
        bias = min(lo for lo, hi, n in ev if n == "GDRAM2NRAM")
        assert bias < copy, (k, core, bias, copy)
print("tile-rows: ok")
