"""Writes a small Task IR graph with one CADD of several network inputs for
the LayerGroup lit tests: inputs i0, i1, ... [H][W][C] of precision P, their
sum (CADD, no bias) into the SO y.

  lg_add_graph.py OUT.json P H W C INPUTS
"""
import sys

from lg_taskir import Graph

path, prec = sys.argv[1], sys.argv[2]
H, W, C, n = (int(v) for v in sys.argv[3:7])
hwc = {"y": H, "x": W, "f": C}
blocks = [{"id": i, "name": f"i{i}", "type": "SI", "shape": hwc}
          for i in range(n)]
blocks += [{"id": n, "name": "sum", "type": "CADD", "shape": hwc},
           {"id": n + 1, "name": "y", "type": "SO", "shape": hwc}]
g = Graph(blocks)
for i in range(n):
    g.connect(i, n, hwc)
g.connect(n, n + 1, hwc)
g.write(path, prec)
