"""Checks a --report's feature-map bytes (feature-map-bytes.test): per group
and per run, simulated = estimated = reads + writes - parameters, never
below the minimum; a group that stages its inputs in SRAM is at the
minimum (each input read once, for all clusters); with --all, every group
is at the minimum."""
import json
import sys

report = json.load(open(sys.argv[1]))['grouped']
at_min_everywhere = '--all' in sys.argv[2:]
total = 0
for i, g in enumerate(report['groups']):
    fm = g['gdram_read_bytes'] + g['gdram_write_bytes'] - g['gdram_weight_bytes']
    assert g['feature_map_bytes'] == fm == g['estimated_feature_map_bytes'], (i, g)
    floor = g['floor']
    assert g['feature_map_min_bytes'] == (floor['feature_map_read_bytes'] +
                                          floor['gdram_write_bytes']), (i, g)
    excess = g['feature_map_excess_bytes']
    assert excess == fm - g['feature_map_min_bytes'] and excess >= 0, (i, g)
    assert (excess > 0) == ('feature_map_excess_reason' in g), (i, g)
    assert excess == 0 or g['feature_map_excess_reason'], (i, g)
    if at_min_everywhere or g['inputs_in_sram']:
        assert excess == 0, (i, g['layers'], excess, g.get('feature_map_excess_reason'))
    total += excess
assert report['feature_map_excess_bytes'] == total, report
assert report['feature_map_bytes'] == (report['gdram_read_bytes'] +
                                       report['gdram_write_bytes'] -
                                       report['gdram_weight_bytes'])
