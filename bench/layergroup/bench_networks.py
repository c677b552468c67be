#!/usr/bin/env python3
"""LayerGroup figures for bench/run: every network in examples/graphs (the
ImageNet ones with their input scaled from 224x224 to SIZE x SIZE), planned
and run grouped and layer by
layer on the simulated device (`bangc-sim graph --layer-group --run
--report`); GDRAM bytes and simulated cycles of both, the error against the
reference executor. Networks LayerGroup does not support are listed with the
reason bangc-sim gives.

    bench_networks.py BANGC_SIM SIZE OUT_DIR    (writes OUT_DIR/layergroup.json)
"""
import glob
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# Networks with a 224x224 input, scaled to SIZE.
SCALED = {"resnet18.json", "vgg16_convs.json"}
# The part of a network LayerGroup can run: ResNet-18's head (global average
# pool over 7x7, then a fully connected CVM) is not supported, and the pool's
# 7x7 window does not fit scaled inputs; it runs up to the last ReLU.
UNTIL = {"resnet18.json": "layer4.1.relu"}
# Spiking networks run over time steps (their batch is time; CLIF state
# carried from step to step).
STEPS = {"snn_lif.json": 16}


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def main():
    sim, size, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    os.makedirs(out, exist_ok=True)
    rows = []
    for path in sorted(glob.glob(os.path.join(ROOT, "examples", "graphs", "*.json"))):
        name = os.path.basename(path)
        graph = path
        if name in SCALED:
            graph = os.path.join(out, name)
            cmd = [sys.executable, os.path.join(HERE, "scale_graph.py"), path, "224", str(size), graph]
            if name in UNTIL:
                cmd += ["--until", UNTIL[name]]
            if run(cmd).returncode != 0:
                sys.exit("cannot scale " + path)
        report = os.path.join(out, name + ".report.json")
        cmd = [sim, "graph", graph, "--layer-group", "--run", "--report", report]
        if name in STEPS:
            cmd += ["--steps", str(STEPS[name])]
        r = run(cmd)
        row = {"network": name, "until": UNTIL.get(name)}
        if name in STEPS:
            row["steps"] = STEPS[name]
        if name in SCALED:
            row["input"] = [size, size]
        if r.returncode != 0:
            message = (r.stderr.strip().splitlines() or ["failed"])[-1]
            row["unsupported"] = message.split("layer group: ", 1)[-1]
            rows.append(row)
            continue
        rep = json.load(open(report))
        g, l = rep["grouped"], rep["layer_by_layer"]
        row.update({
            "batch": rep["batch"],
            "layers": l["num_groups"],
            "groups": g["num_groups"],
            "grouped_gdram_bytes": g["gdram_read_bytes"] + g["gdram_write_bytes"],
            "layer_by_layer_gdram_bytes": l["gdram_read_bytes"] + l["gdram_write_bytes"],
            "grouped_cycles": g["simulated_cycles"],
            "layer_by_layer_cycles": l["simulated_cycles"],
            "max_rel_err": rep["max_rel_err"],
        })
        rows.append(row)
    json.dump({"input_size": size, "networks": rows}, open(os.path.join(out, "layergroup.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
