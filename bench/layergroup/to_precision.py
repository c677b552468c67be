#!/usr/bin/env python3
"""Change the precision of every block of a Task IR JSON graph from one
precision to another, e.g. VGG-16 in fp16 without a 60 MB file in git:

    to_precision.py examples/graphs/vgg16_convs.json vgg16_fp16.json FLOAT32=FLOAT16

or LeNet in INT9 or TERNARY (INT8=TERNARY). Storage, compute, weight and
bias blocks alike; weights given by `init` are drawn as before and stored
in the new precision (rounded, integers saturated: TERNARY weights are
-1, 0 or 1); explicit `data` is kept and must be valid in it.
"""
import json
import sys


def main():
    if len(sys.argv) < 4 or not all('=' in a for a in sys.argv[3:]):
        sys.exit('usage: to_precision.py IN.json OUT.json FROM=TO [FROM=TO ...]')
    src, dst = sys.argv[1], sys.argv[2]
    change = dict(a.split('=', 1) for a in sys.argv[3:])
    g = json.load(open(src))
    for b in g['blocks']:
        b['precision'] = change.get(b.get('precision'), b.get('precision'))
        data = b.get('data')
        if data and 'precision' in data:
            data['precision'] = change.get(data['precision'], data['precision'])
    json.dump(g, open(dst, 'w'), indent=1)


if __name__ == '__main__':
    main()
