#!/usr/bin/env python3
"""What isolated launches cost on bench/run's TinShift and BorderAlign cases.

    bench/isolation_cost.py [--rounds N] [--quick] [BUILD_DIR]

Runs kernels/bench's `mluop_bench` in-process and with `--isolate`
(docs/isolation.md: every launch in the device's worker process),
alternately, N rounds (default 5), and prints per case the median over the
rounds of the bench's own host time (itself a median of repeated launches of
one operator, the launch's stats' host_seconds) and the ratio isolated /
in-process. docs/isolation.md "Cost" quotes the figures. Alternating the two
modes spreads the noise of a busy machine over both.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile


def main():
    args = sys.argv[1:]
    rounds, quick, build = 5, [], "build"
    while args:
        a = args.pop(0)
        if a == "--rounds":
            rounds = int(args.pop(0))
        elif a == "--quick":
            quick = ["--quick"]
        else:
            build = a
    bench = os.path.join(build, "bin", "mluop_bench")
    times = {}  # (case, mode) -> [seconds per round]
    order = []
    with tempfile.TemporaryDirectory() as work:
        env = dict(os.environ, BANGC_CACHE_DIR=os.path.join(work, "cache"))
        for r in range(rounds):
            for mode in ("in-process", "isolated"):
                out = os.path.join(work, "o.json")
                cmd = [bench, *quick, "--json", out]
                if mode == "isolated":
                    cmd.append("--isolate")
                subprocess.run(cmd, check=True, env=env,
                               stdout=subprocess.DEVNULL)
                data = json.load(open(out))
                for row in data["tin_shift"]:
                    if "host_s" not in row:
                        continue
                    case = "tin_shift %s %s %s" % (
                        row["label"], row["direction"], row["dtype"])
                    times.setdefault((case, mode), []).append(row["host_s"])
                    if case not in order:
                        order.append(case)
                for row in data["border_align"]:
                    shape = "x".join(str(d) for d in row["input"])
                    for key, threads in (("host_1_thread_s", "1 thread"),
                                         ("host_s", "%d threads" %
                                          row["host_threads"])):
                        case = "border_align %s %s K=%d, %s" % (
                            row["direction"], shape, row["boxes"][1], threads)
                        times.setdefault((case, mode), []).append(row[key])
                        if case not in order:
                            order.append(case)
            print("round %d of %d done" % (r + 1, rounds), file=sys.stderr)
    print("%-52s %12s %12s %7s" % ("case", "in-process", "isolated",
                                   "ratio"))
    ratios = []
    for case in order:
        a = statistics.median(times[(case, "in-process")])
        b = statistics.median(times[(case, "isolated")])
        ratios.append(b / a)
        print("%-52s %9.2f ms %9.2f ms %6.3f" % (case, a * 1e3, b * 1e3,
                                                  b / a))
    print("median ratio %.3f, worst %.3f over %d cases, %d rounds" %
          (statistics.median(ratios), max(ratios), len(ratios), rounds))


if __name__ == "__main__":
    main()
