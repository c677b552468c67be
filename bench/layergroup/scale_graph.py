#!/usr/bin/env python3
"""Scale the spatial size of a Task IR JSON graph (y, x, iy, ix of every
shape and interface size) by NEW/OLD, e.g. VGG-16 at 224 -> 32:

    scale_graph.py examples/graphs/vgg16_convs.json 224 32 out.json

Optionally keep only the blocks up to a named block (and its SO):
    scale_graph.py resnet18.json 224 32 stem.json --until stem.pool
or only those from a named SI on (file order), which becomes the input
`image` (VGG-16's conv5 block: --from pool4.out):
    scale_graph.py vgg16_convs.json 224 224 conv5.json --from pool4.out
"""
import json
import sys


def main():
    src, old, new, dst = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    until = sys.argv[sys.argv.index('--until') + 1] if '--until' in sys.argv else None
    g = json.load(open(src))

    def fix(d):
        for k in ('y', 'x', 'iy', 'ix'):
            if k in d and d[k] > 1:
                d[k] = max(1, d[k] * new // old)

    for b in g['blocks']:
        fix(b['shape'])
        for c in b.get('input_clusters', []) + b.get('output_clusters', []):
            fix(c['shape'])
            for i in c.get('interfaces', []):
                if 'size' in i:
                    fix(i['size'])
    if until:
        ids = [b['id'] for b in g['blocks']]
        by_name = {b.get('name'): b for b in g['blocks']}
        last = by_name[until]
        # Keep the blocks before `until` (file order), `until`, and an SO for it.
        keep = set(ids[:ids.index(last['id']) + 1])
        out_edge = last['output_clusters'][0]['interfaces'][0]['edge_id']
        dst_si = next(e['destination'] for e in g['edges'] if e['id'] == out_edge)
        keep.add(dst_si)
        si = next(b for b in g['blocks'] if b['id'] == dst_si)
        so_id = max(ids) + 1
        eid = max(e['id'] for e in g['edges']) + 1
        si['output_clusters'][0]['interfaces'] = [{'edge_id': eid}]
        so = {'id': so_id, 'name': 'y', 'type': 'SO', 'precision': si['precision'],
              'shape': dict(si['shape']),
              'input_clusters': [{'shape': dict(si['shape']), 'interfaces': [{'edge_id': eid}]}]}
        g['blocks'] = [b for b in g['blocks'] if b['id'] in keep] + [so]
        edges = []
        for e in g['edges']:
            if e['source'] in keep and e['destination'] in keep and e['id'] != out_edge or e['id'] == out_edge:
                edges.append(e)
        g['edges'] = edges + [{'id': eid, 'source': dst_si, 'destination': so_id}]
        # Drop interfaces pointing at removed edges.
        live = {e['id'] for e in g['edges']}
        for b in g['blocks']:
            for c in b.get('output_clusters', []):
                c['interfaces'] = [i for i in c['interfaces'] if i.get('edge_id') in live]
    if '--from' in sys.argv:
        name = sys.argv[sys.argv.index('--from') + 1]
        ids = [b['id'] for b in g['blocks']]
        first = next(b for b in g['blocks'] if b.get('name') == name)
        assert first['type'] == 'SI', f"--from {name}: not an SI"
        keep = set(ids[ids.index(first['id']):])
        first['name'] = 'image'
        first.pop('input_clusters', None)
        g['blocks'] = [b for b in g['blocks'] if b['id'] in keep]
        g['edges'] = [e for e in g['edges']
                      if e['source'] in keep and e['destination'] in keep]
    json.dump(g, open(dst, 'w'), indent=1)


if __name__ == '__main__':
    main()
