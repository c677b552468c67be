#!/usr/bin/env python3
"""How far the ops' simulated figures hang on the cost model's assumptions.

  bench/sensitivity.py [BUILD_DIR] [OUT.md]

Issue 24, item 6. Reads the assumed constants of the mlu370 profile from
`bangc-sim device --sources mlu370` (those marked ASSUMED), then reruns
`mluop_bench --quick` (tin_shift and border_align, simulated figures) on
the mlu370 spec with each assumed constant at half and at double its value,
and writes a table of the figures against the baseline: cycles, the
bottleneck side's efficiency and the acceptance verdict per case. The three
GDRAM efficiencies are varied together (their penalty 1 - e halved and
doubled) so that they keep the guide's order. Host times are not used.
Takes about 3 minutes.
"""
import json
import os
import subprocess
import sys
import tempfile

BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
OUT = sys.argv[2] if len(sys.argv) > 2 else "bench/sensitivity.md"
SIM = os.path.join(BUILD, "bin", "bangc-sim")
BENCH = os.path.join(BUILD, "bin", "mluop_bench")
EFFICIENCIES = ["gdram_write_efficiency", "gdram_strided_read_efficiency",
                "gdram_strided_write_efficiency"]


def assumed_keys(sim):
    out = subprocess.run([sim, "device", "--sources", "mlu370"], check=True,
                         capture_output=True, text=True).stdout
    keys = []
    for line in out.splitlines()[1:]:
        parts = line.split(None, 2)
        if len(parts) == 3 and parts[2].startswith("ASSUMED"):
            keys.append(parts[0])
    return keys


def base_spec(sim):
    out = subprocess.run([sim, "device", "mlu370"], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def variants(spec, keys):
    """(name, factor, spec) for each assumed constant at half and double."""
    done_eff = False
    for key in keys:
        if key == "nram_banks":  # 0: no bank model; nothing to scale
            continue
        if key in EFFICIENCIES:
            if done_eff:
                continue
            done_eff = True
            for f in (0.5, 2.0):
                s = json.loads(json.dumps(spec))
                for k in EFFICIENCIES:
                    s[k] = round(1 - (1 - spec[k]) * f, 6)
                yield ("GDRAM efficiencies (penalty)", f, s)
            continue
        for f in (0.5, 2.0):
            s = json.loads(json.dumps(spec))
            if "." in key:
                a, b = key.split(".")
                s[a][b] = spec[a][b] * f
            else:
                v = spec[key] * f
                if key == "gdram_core_gbps":
                    v = min(v, spec["gdram_gbps"])
                if key.endswith("_cycles"):  # whole numbers in a spec
                    v = int(round(v))
                s[key] = v
            yield (key, f, s)


def run(spec, tmp):
    path = os.path.join(tmp, "spec.json")
    json.dump(spec, open(path, "w"))
    out = os.path.join(tmp, "ops.json")
    for attempt in range(2):  # a launch can fail on a loaded host: retry
        r = subprocess.run([BENCH, "--quick", "--json", out, "--device", path],
                           capture_output=True, text=True)
        if r.returncode == 0:
            break
        sys.stderr.write(r.stdout[-2000:] + r.stderr[-2000:])
    r.check_returncode()
    d = json.load(open(out))
    rows = {}
    for r in d["tin_shift"]:
        name = "tin_shift %s %s %s" % (r["direction"][:3], r["label"],
                                       "x".join(map(str, r["shape"])))
        rows[name] = r
    for r in d["border_align"]:
        name = "border_align %s %s" % (r["direction"][:3],
                                       "x".join(map(str, r["input"])))
        rows[name] = r
    return rows


def side(r):
    io, comp = r["io_efficiency"], r["compute_efficiency"]
    return ("IO", io) if io > comp else ("compute", comp)


def verdict(r):
    e = side(r)[1]
    return "60" if e >= 0.6 else "30" if e >= 0.3 else "-"


def main():
    keys = assumed_keys(SIM)
    spec = base_spec(SIM)
    spec["name"] = "mlu370"  # the same __BANG_ARCH__ and kernels' policies
    with tempfile.TemporaryDirectory() as tmp:
        base = run(spec, tmp)
        results = []
        for name, f, s in variants(spec, keys):
            sys.stderr.write("%s x%g\n" % (name, f))
            results.append((name, f, run(s, tmp)))
    cases = list(base)
    lines = ["# Sensitivity of the ops' simulated figures to the assumed "
             "constants", "",
             "`bench/sensitivity.py` (issue 24): the mlu370 profile with each "
             "constant marked ASSUMED in abi/include/bangsim/DeviceSpec.def "
             "at half and double its value; `mluop_bench --quick`'s "
             "cases. Each cell: cycles relative to the baseline, then the "
             "bottleneck side and its efficiency, then the acceptance level "
             "met (60: >= 60% network shapes, 30: >= 30% others, -: "
             "neither). A changed verdict is in bold.", "",
             "## Baseline", "",
             "| case | cycles | bottleneck | efficiency | meets |",
             "|---|---|---|---|---|"]
    for c in cases:
        r = base[c]
        s, e = side(r)
        lines.append("| %s | %.0f | %s | %.1f%% | %s |" %
                     (c, r["cycles"], s, e * 100, verdict(r)))
    lines += ["", "## Each assumed constant at half (x0.5) and double (x2)",
              "", "| constant | x | " + " | ".join(cases) + " |",
              "|---|---|" + "---|" * len(cases)]
    for name, f, rows in results:
        cells = []
        for c in cases:
            r, b = rows[c], base[c]
            s, e = side(r)
            v = verdict(r)
            mark = "**%s**" % v if v != verdict(b) else v
            cells.append("%+.0f%% %s %.0f%% %s" %
                         ((r["cycles"] / b["cycles"] - 1) * 100, s, e * 100,
                          mark))
        lines.append("| %s | %g | %s |" % (name, f, " | ".join(cells)))
    open(OUT, "w").write("\n".join(lines) + "\n")
    print("wrote", OUT)


if __name__ == "__main__":
    main()
