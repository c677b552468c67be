#!/usr/bin/env python3
"""Where each group's time goes on its slowest core: start, compute, tail.

group_excess.py says how far each group of a grouped run is above its
roofline floor; this says in which part of the kernel the cycles go, from
the Chrome traces that `BANGC_LG_TRACE=DIR bangc-sim graph NET
--layer-group --run` writes (DIR/lg_groupK.trace.json, docs/device.md).
For each group it takes the core that finishes last and splits its time:

  start   from the launch to its first compute operation (matrix or vector,
          not a __bang_write_zero of padding): SRAM staging, the first
          weight tile, the first item's loads, the barriers between them;
  compute from there to the end of its last compute operation, of which
          `tensor` cycles on the matrix unit, `vector` on the vector unit
          and `gaps` with neither (a step waiting for its DMA, window-tile
          copies, scalar code);
  tail    after the last compute operation: the last stores.

`start` is split further by the DMA that runs in it (GDRAM->SRAM reads,
SRAM->SRAM sends to other clusters, SRAM->WRAM/NRAM, GDRAM->WRAM/NRAM) and
the part with no DMA of this core at all (`none`: barriers, the other
cores). start + compute + tail is the group's cycles on that core.
    group_phases.py TRACE_DIR [--json]
"""
import glob
import json
import os
import re
import sys

COMPUTE = ('tensor', 'vector')
START_KINDS = ('GDRAM2SRAM', 'SRAM2SRAM', 'SRAM2WRAM', 'SRAM2NRAM',
               'GDRAM2WRAM', 'GDRAM2NRAM')


def union(spans):
    """Total length of the union of [lo, hi) spans."""
    total, end = 0.0, None
    for lo, hi in sorted(spans):
        if end is None or lo > end:
            total += hi - lo
            end = hi
        elif hi > end:
            total += hi - end
            end = hi
    return total


def clip(spans, lo, hi):
    return [(max(a, lo), min(b, hi)) for a, b in spans if min(b, hi) > max(a, lo)]


def core_ops(path):
    """{core: [(start, end, name, pipe)]} of one trace."""
    trace = json.load(open(path))
    events = trace['traceEvents'] if isinstance(trace, dict) else trace
    ops = {}
    for e in events:
        if e.get('ph') != 'X' or 'args' not in e:
            continue
        a = e['args']
        start = a.get('start_cycle', 0)
        ops.setdefault(a['core'], []).append(
            (start, start + a.get('cycles', 0), e['name'], a.get('pipe', '')))
    return ops


def phases(ops):
    """The split of one core's ops (see the module comment)."""
    end = max(hi for _, hi, _, _ in ops)
    comp = [(lo, hi) for lo, hi, name, pipe in ops
            if pipe in COMPUTE and name != '__bang_write_zero']
    first = min((lo for lo, _ in comp), default=end)
    last = max((hi for _, hi in comp), default=end)
    tensor = union([(lo, hi) for lo, hi, _, pipe in ops if pipe == 'tensor'])
    vector = union([(lo, hi) for lo, hi, name, pipe in ops
                    if pipe == 'vector' and lo >= first])
    busy = union(clip([(lo, hi) for lo, hi, _, pipe in ops
                       if pipe in COMPUTE], first, last))
    dma = [(lo, hi, name) for lo, hi, name, pipe in ops
           if pipe not in COMPUTE and pipe != 'scalar']
    start = {k: union(clip([(lo, hi) for lo, hi, n in dma if n == k], 0, first))
             for k in START_KINDS}
    start['none'] = first - union(clip([(lo, hi) for lo, hi, _ in dma], 0, first))
    return {
        'cycles': end, 'start': first, 'compute': last - first,
        'tail': end - last, 'tensor': tensor, 'vector': vector,
        'gaps': (last - first) - busy, 'start_dma': start,
    }


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    files = glob.glob(os.path.join(argv[1], 'lg_group*.trace.json'))
    if not files:
        sys.exit(f"group_phases.py: no lg_group*.trace.json in {argv[1]}")
    num = lambda f: int(re.search(r'lg_group(\d+)\.trace', f).group(1))
    rows = []
    for f in sorted(files, key=num):
        per_core = core_ops(f)
        core, ops = max(per_core.items(),
                        key=lambda kv: max(hi for _, hi, _, _ in kv[1]))
        p = phases(ops)
        assert abs(p['start'] + p['compute'] + p['tail'] - p['cycles']) < 1e-6
        p['group'], p['core'] = num(f), core
        rows.append(p)
    if '--json' in argv:
        json.dump(rows, sys.stdout, indent=1)
        print()
        return
    kinds = ' '.join(f'{k.lower():>10}' for k in START_KINDS)
    print(f"{'#':>2} {'core':>4} {'cycles':>9} {'start':>8} {'compute':>9}"
          f" {'tail':>7} {'tensor':>8} {'vector':>7} {'gaps':>7} | start: "
          f"{kinds} {'none':>7}")
    tot = {k: 0.0 for k in ('cycles', 'start', 'compute', 'tail', 'tensor',
                            'vector', 'gaps')}
    for p in rows:
        for k in tot:
            tot[k] += p[k]
        d = ' '.join(f"{p['start_dma'][k]:>10,.0f}" for k in START_KINDS)
        print(f"{p['group']:>2} {p['core']:>4} {p['cycles']:>9,.0f} "
              f"{p['start']:>8,.0f} {p['compute']:>9,.0f} {p['tail']:>7,.0f} "
              f"{p['tensor']:>8,.0f} {p['vector']:>7,.0f} {p['gaps']:>7,.0f}"
              f" |        {d} {p['start_dma']['none']:>7,.0f}")
    print(f"{'all':>7} {tot['cycles']:>9,.0f} {tot['start']:>8,.0f} "
          f"{tot['compute']:>9,.0f} {tot['tail']:>7,.0f} {tot['tensor']:>8,.0f}"
          f" {tot['vector']:>7,.0f} {tot['gaps']:>7,.0f}")


if __name__ == '__main__':
    main(sys.argv)
