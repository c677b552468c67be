#!/usr/bin/env python3
"""Where a grouped run's cycles go above the roofline floor, group by group.

summarize.py prints a network's totals; this prints, for each group of a
`bangc-sim graph --layer-group --run --report FILE` report, its simulated
cycles, its floor (max of matrix, vector and GDRAM time), the excess, and
the last core's pipe times (docs/layergroup.md "Reports"): `tensor` over
the matrix floor shows recomputed halo rows and columns of H/W slices,
`compute_idle` the time the core waits (group start: SRAM staging, the
first weight tile; the last store; DMA-bound steps), and the planner's
estimate (`est/sim`: its estimated over the simulated cycles; the dynamic
program over groups chooses by the estimate). Sorted by excess.
    group_excess.py REPORT.json [--top N]
"""
import json
import sys


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    top = int(argv[argv.index('--top') + 1]) if '--top' in argv else None
    r = json.load(open(argv[1]))
    rows = []
    for i, g in enumerate(r['grouped']['groups']):
        fl, pipes = g['floor'], g['last_core_pipes']
        sim = g['simulated_cycles']
        mat = fl.get('matrix_cycles', 0)
        tensor = pipes.get('tensor', 0)
        rows.append((sim - g['floor_cycles'], i, g['layers'][0], len(g['layers']),
                     sim, g['floor_cycles'], fl['bound'],
                     tensor / mat if mat else 0.0, pipes.get('compute_idle', 0),
                     g['estimated_cycles'] / sim if sim else 0.0,
                     g['hsecs'], g['wsecs'], g['fsecs']))
    total = sum(x[0] for x in rows)
    print(f"{'#':>2} {'first layer':<22}{'n':>3}{'simulated':>10}{'floor':>9}"
          f"{'excess':>9}  {'bound':<7}{'tensor/mat':>10}{'idle':>8}"
          f"{'est/sim':>8}  h x w x f")
    for x in sorted(rows, reverse=True)[:top]:
        ex, i, name, n, sim, floor, bound, ratio, idle, est, h, w, f = x
        print(f"{i:>2} {name:<22}{n:>3}{sim:>10,.0f}{floor:>9,.0f}{ex:>9,.0f}  "
              f"{bound:<7}{ratio:>10.2f}{idle:>8,.0f}{est:>8.2f}  "
              f"{h} x {w} x {f}")
    g = r['grouped']
    lbl = r.get('layer_by_layer')  # absent with --no-compare
    print(f"excess {total:,.0f} of {g['simulated_cycles']:,.0f} simulated "
          f"(estimated {g['estimated_cycles']:,.0f}), floor "
          f"{g['floor_cycles']:,.0f}"
          + (f"; layer by layer {lbl['simulated_cycles']:,.0f}" if lbl else ""))


if __name__ == '__main__':
    main(sys.argv)
