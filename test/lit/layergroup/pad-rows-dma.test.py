"""pad-rows-dma.test: the padding rows' fills in the traces, and the estimates.

With GroupPlan::PadRowsByDma a pipelined item's load of an edge tile
zeroes its padding rows with __nramset_async (Move-DMA), without it with
__bang_write_zero (the vector unit). The padding columns (zeroed once per
tile buffer) and a core's first load are zeroed on the vector unit in both.
    pad-rows-dma.test.py ON_TRACE OFF_TRACE ON_REPORT OFF_REPORT
"""
import json
import sys


def zeroes(path):
    """(elements of __bang_write_zero, elements of __nramset_async)."""
    t = json.load(open(path))
    events = t['traceEvents'] if isinstance(t, dict) else t
    z, f = 0, 0
    for e in events:
        if e.get('ph') != 'X':
            continue
        if e.get('name') == '__bang_write_zero':
            z += e['args'].get('elements', 0)
        elif e.get('name') == '__nramset_async':
            f += e['args'].get('bytes', 0) // 4
    return z, f


def main(argv):
    on_zero, on_fill = zeroes(argv[1])
    off_zero, off_fill = zeroes(argv[2])
    row = 30 * 256  # one padding row of conv4_1's window tile
    assert off_fill == 0, off_fill
    assert on_fill >= 2 * row and on_fill % row == 0, on_fill
    # What the vector unit no longer zeroes is what the fills zero.
    assert off_zero - on_zero == on_fill, (off_zero, on_zero, on_fill)
    for path in argv[3:5]:
        g = json.load(open(path))['grouped']['groups'][0]
        ratio = g['estimated_cycles'] / g['simulated_cycles']
        assert 0.99 <= ratio <= 1.01, (path, ratio)


if __name__ == '__main__':
    main(sys.argv)
