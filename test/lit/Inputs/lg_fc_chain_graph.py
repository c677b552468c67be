"""A chain of FLOAT32 fully connected layers (CVM) with big weights, for the
lit tests that need a net whose parameters take long to upload:
compile-limit-uploads.test.

  lg_fc_chain_graph.py OUT.json R0 F1 F2 ...   # R0 inputs, then each FC's width
"""
import sys

from lg_taskir import Graph


def main(path, widths):
    blocks = [{"id": 0, "name": "x", "type": "SIFC", "shape": {"r": widths[0]}}]
    g_edges = []
    prev, r = 0, widths[0]
    for i, f in enumerate(widths[1:]):
        base = len(blocks)
        blocks.append({"id": base, "name": f"fc{i}.w", "type": "SWFC",
                       "shape": {"f": f, "r": r},
                       "init": {"seed": i + 1, "kind": "UNIFORM", "scale": 1}})
        blocks.append({"id": base + 1, "name": f"fc{i}", "type": "CVM",
                       "shape": {"f": f, "r": r}})
        g_edges.append((prev, base + 1, {"r": r}))
        g_edges.append((base, base + 1, {"f": f, "r": r}))
        if i + 2 < len(widths):
            blocks.append({"id": base + 2, "name": f"fc{i}.out", "type": "SIFC",
                           "shape": {"r": f}})
            g_edges.append((base + 1, base + 2, {"f": f}))
            prev = base + 2
        else:
            blocks.append({"id": base + 2, "name": "y", "type": "SO",
                           "shape": {"f": f}})
            g_edges.append((base + 1, base + 2, {"f": f}))
        r = f
    g = Graph(blocks)
    for src, dst, shape in g_edges:
        g.connect(src, dst, shape)
    g.write(path, "FLOAT32")


if __name__ == "__main__":
    main(sys.argv[1], [int(w) for w in sys.argv[2:]])
