#!/usr/bin/env python3
"""Draws bench/results.json as an SVG (written by hand, no plotting library).

    chart.py RESULTS_JSON OUT_SVG

Top: every comparison as a ratio "alternative / bangc-sim" on a log scale,
so that 1 is parity and bars to the right mean bangc-sim is faster (or, for
LayerGroup, that grouping moves fewer bytes or takes fewer cycles). Bottom:
simulated IO and compute efficiency per kernel and shape, with the seeds'
50% threshold.
"""
import json
import math
import sys
from xml.sax.saxutils import escape

WIDTH = 980
LABEL_W = 380
BAR_X = LABEL_W + 10
BAR_W = 520
ROW = 17
LOG_MIN, LOG_MAX = 0.01, 1000.0  # the log axis
GOOD, BAD, IO, COMPUTE = "#4c9a5f", "#d9822b", "#3f6fb5", "#9a9a9a"


def ratios(r):
    """(group, label, ratio) rows, ratio = alternative / ours (higher is better)."""
    rows = []
    c = r.get("compile")
    if c:
        for k in c["kernels"]:
            name = k["file"].split("/")[-1]
            rows.append(("compile, cold", "%s: clang++ -O2 -c / ours" % name, k["clang_O2_c_s"] / k["cold_s"]))
        for k in c["kernels"]:
            name = k["file"].split("/")[-1]
            rows.append(("compile, warm", "%s: clang++ -O2 -c / ours" % name, k["clang_O2_c_s"] / k["warm_s"]))
    ops = r.get("ops")
    if ops:
        for t in ops["tin_shift"]:
            if "host_s" in t:
                rows.append(("host time", "tin_shift %s %s %.0f MiB: memcpy / ours" % (
                    t["direction"], t["dtype"], t["bytes"] / 2**20), t["memcpy_s"] / t["host_s"]))
        for b in ops["border_align"]:
            where = ",".join(map(str, b["input"]))
            if "host_1_thread_s" in b:
                rows.append(("host time", "border_align %s [%s], 1 thread: plain C++ / ours" % (
                    b["direction"], where), b["plain_s"] / b["host_1_thread_s"]))
            rows.append(("host time", "border_align %s [%s], %s threads: plain C++ / ours" % (
                b["direction"], where, b.get("host_threads", "all")), b["plain_s"] / b["host_s"]))
    intr = r.get("intrinsics")
    if intr:
        for f in intr["families"]:
            rows.append(("host time", "%s: plain loop / ours" % f["intrinsic"],
                         f["plain_ns_per_elem"] / f["ours_ns_per_elem"]))
    spine = r.get("spine")
    if spine:
        cp = spine["copy"]
        rows.append(("host time", "copy kernel %d MiB: memcpy / ours" % (cp["bytes"] >> 20),
                     cp["memcpy_s"] / cp["host_s"]))
    lg = r.get("layergroup")
    if lg:
        for n in lg["networks"]:
            if "unsupported" in n:
                continue
            rows.append(("LayerGroup", "%s: GDRAM bytes, layer by layer / grouped" % n["network"],
                         n["layer_by_layer_gdram_bytes"] / n["grouped_gdram_bytes"]))
            rows.append(("LayerGroup", "%s: cycles, layer by layer / grouped" % n["network"],
                         n["layer_by_layer_cycles"] / n["grouped_cycles"]))
    if spine:
        s = spine["scaling"]
        rows.append(("scaling", "2 host threads: time on 1 / time on 2",
                     s["host_s_1_thread"] / s["host_s_2_threads"]))
    return rows


def efficiencies(r):
    rows = []
    ops = r.get("ops")
    if ops:
        for t in ops["tin_shift"]:
            rows.append(("tin_shift %s %s %s" % (t["direction"], t["label"], t["dtype"]),
                         t["io_efficiency"], t["compute_efficiency"]))
        for b in ops["border_align"]:
            rows.append(("border_align %s [%s]" % (b["direction"], ",".join(map(str, b["input"]))),
                         b["io_efficiency"], b["compute_efficiency"]))
    if r.get("spine"):
        rows.append(("copy kernel", r["spine"]["copy"]["io_efficiency"], 0.0))
    return rows


def logx(v):
    v = min(max(v, LOG_MIN), LOG_MAX)
    span = math.log10(LOG_MAX) - math.log10(LOG_MIN)
    return BAR_X + BAR_W * (math.log10(v) - math.log10(LOG_MIN)) / span


def text(x, y, s, anchor="start", size=11, weight="normal", color="#222"):
    return ('<text x="%.1f" y="%.1f" font-size="%d" font-weight="%s" fill="%s" '
            'text-anchor="%s">%s</text>' % (x, y, size, weight, color, anchor, escape(s)))


def main():
    r = json.load(open(sys.argv[1]))
    meta = r.get("meta", {})
    svg = []
    y = 24
    svg.append(text(10, y, "bangc-sim benchmarks: %s, %s, commit %s (%s)" % (
        meta.get("machine", "?"), meta.get("date", "?"), meta.get("commit", "?"), meta.get("mode", "?")),
        size=13, weight="bold"))
    y += 22
    svg.append(text(10, y, "Alternative / bangc-sim, log scale: right of 1 is better for bangc-sim"))
    y += 16
    top = y
    rows = ratios(r)
    group = None
    for g, label, v in rows:
        if g != group:
            y += 6
            svg.append(text(10, y + 12, g, weight="bold"))
            y += ROW
            group = g
        svg.append(text(LABEL_W, y + 12, label, anchor="end", size=10))
        x0, x1 = logx(1.0), logx(v)
        color = GOOD if v >= 1 else BAD
        svg.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%d" fill="%s"/>' % (
            min(x0, x1), y + 3, max(abs(x1 - x0), 1), ROW - 5, color))
        svg.append(text(max(x0, x1) + 4, y + 12, "%.2fx" % v if v < 100 else "%.0fx" % v, size=10))
        y += ROW
    # Axis: decades and the parity line.
    d = LOG_MIN
    while d <= LOG_MAX * 1.0001:
        x = logx(d)
        svg.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s" stroke-width="%s"/>' % (
            x, top, x, y, "#333" if abs(d - 1) < 1e-9 else "#ddd", "1.5" if abs(d - 1) < 1e-9 else "1"))
        svg.append(text(x, y + 14, ("%g" % d) + "x", anchor="middle", size=10))
        d *= 10
    y += 40

    svg.append(text(10, y, "Simulated efficiency (mlu370): IO (blue), compute (grey); "
                           "line: the seeds' 50% threshold", weight="bold"))
    y += 10
    top = y
    for label, io, comp in efficiencies(r):
        svg.append(text(LABEL_W, y + 12, label, anchor="end", size=10))
        svg.append('<rect x="%d" y="%.1f" width="%.1f" height="6" fill="%s"/>' % (
            BAR_X, y + 3, BAR_W * io, IO))
        svg.append('<rect x="%d" y="%.1f" width="%.1f" height="6" fill="%s"/>' % (
            BAR_X, y + 9, BAR_W * comp, COMPUTE))
        svg.append(text(BAR_X + BAR_W * max(io, comp) + 4, y + 12,
                        "%.0f%% / %.0f%%" % (100 * io, 100 * comp), size=10))
        y += ROW
    for p in (0, 0.5, 1.0):
        x = BAR_X + BAR_W * p
        svg.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s" stroke-width="1"/>' % (
            x, top, x, y, "#333" if p == 0.5 else "#ddd"))
        svg.append(text(x, y + 14, "%d%%" % (100 * p), anchor="middle", size=10))
    y += 30
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif">' % (WIDTH, y),
           '<rect width="100%" height="100%" fill="white"/>'] + svg + ["</svg>"]
    open(sys.argv[2], "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
