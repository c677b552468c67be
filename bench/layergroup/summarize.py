#!/usr/bin/env python3
"""Prints grouped vs layer-by-layer figures of LayerGroup --report files:
GDRAM bytes (total, feature maps, parameters; the grouped feature maps
against their group-boundary minimum, and each group above it), simulated
cycles, search
time, the error against the reference executor, and simulated cycles
against the roofline floor (the sum of the groups' floors)."""
import json
import sys


def num(x):
    # The report writes inf and NaN as null (JSON has neither).
    return "not finite" if x is None else f"{x:.3g}"


def pct(g, l):
    return f"{100 * (1 - g / l):.1f}%" if l else "n/a"


for path in sys.argv[1:]:
    try:
        r = json.load(open(path))
    except Exception:
        continue
    if 'grouped' not in r or 'layer_by_layer' not in r:
        continue
    g, l = r['grouped'], r['layer_by_layer']
    gb = g['gdram_read_bytes'] + g['gdram_write_bytes']
    lb = l['gdram_read_bytes'] + l['gdram_write_bytes']
    gw, lw = g.get('gdram_weight_bytes', 0), l.get('gdram_weight_bytes', 0)
    print(f"{path}: batch {r['batch']}, {g['num_groups']} groups vs {l['num_groups']} layers")
    print(f"  GDRAM bytes  grouped {gb:,}  layer-by-layer {lb:,}  reduction {pct(gb, lb)}")
    print(f"    feature maps  grouped {gb - gw:,}  layer-by-layer {lb - lw:,}  reduction {pct(gb - gw, lb - lw)}")
    print(f"    parameters    grouped {gw:,}  layer-by-layer {lw:,}  reduction {pct(gw, lw)}")
    if 'feature_map_min_bytes' in g:
        print(f"    feature maps against the group-boundary minimum  grouped "
              f"{g['feature_map_bytes']:,} vs {g['feature_map_min_bytes']:,} "
              f"(excess {g['feature_map_excess_bytes']:,})")
        for i, grp in enumerate(g['groups']):
            if grp.get('feature_map_excess_bytes'):
                print(f"      group {i} ({grp['layers'][0]}): "
                      f"{grp['feature_map_bytes']:,} vs "
                      f"{grp['feature_map_min_bytes']:,} (excess "
                      f"{grp['feature_map_excess_bytes']:,})")
    print(f"  cycles       grouped {g['simulated_cycles']:,.0f}  layer-by-layer {l['simulated_cycles']:,.0f}  speedup {l['simulated_cycles'] / g['simulated_cycles']:.3f}x")
    if g.get('floor_cycles') and l.get('floor_cycles'):
        print(f"  roofline floor  grouped {g['floor_cycles']:,.0f} ({g['simulated_cycles'] / g['floor_cycles']:.3f}x)"
              f"  layer-by-layer {l['floor_cycles']:,.0f} ({l['simulated_cycles'] / l['floor_cycles']:.3f}x)")
    print(f"  search {g['search_seconds']:.3f} s; max_abs_err {num(r['max_abs_err'])} (relative {num(r['max_rel_err'])})")
