"""The edges and the file of the small Task IR graphs that the LayerGroup
lit tests write (lg_conv_pool_graph.py, lg_downsample_graph.py,
lg_cvvh_graph.py): one place for how an edge joins a block's output cluster
to another block's input cluster, and for how the graph is written.

  g = Graph(blocks); g.connect(src, dst, shape); g.write(path, precision)
"""
import json


class Graph:
    def __init__(self, blocks):
        self.blocks = blocks
        self.edges = []
        self.outs = {b["id"]: [] for b in blocks}
        self.ins = {b["id"]: [] for b in blocks}

    def connect(self, src, dst, shape):
        """An edge from block src's output to block dst, one cluster each
        side of the given shape."""
        self.edges.append({"id": len(self.edges), "source": src,
                           "destination": dst})
        cluster = {"shape": dict(shape),
                   "interfaces": [{"edge_id": len(self.edges) - 1}]}
        self.outs[src].append(cluster)
        self.ins[dst].append(cluster)

    def write(self, path, precision=None):
        """Writes the graph; with a precision, every block gets it."""
        for b in self.blocks:
            if precision:
                b["precision"] = precision
            if self.outs[b["id"]]:
                b["output_clusters"] = self.outs[b["id"]]
            if self.ins[b["id"]]:
                b["input_clusters"] = self.ins[b["id"]]
        with open(path, "w") as f:
            json.dump({"version": "1.0", "blocks": self.blocks,
                       "edges": self.edges}, f, indent=1)
