#!/bin/sh
# Full-size LayerGroup runs (not part of the timed tests): VGG-16 conv1_1 ..
# conv5_3 at 224x224, batch 1 and 4, the ResNet-18 stem and the whole
# ResNet-18 (about 30 s; VGG-16 b1 about 95 s), grouped against
# layer by layer, each checked against the reference executor; LeNet in INT8
# (examples/graphs/lenet.json) and INT16 (lenet_int16.json), which must
# equal it exactly; the spiking network (snn_lif.json, CLIF) over 100 time
# steps, which must too; VGG-16 224 in FLOAT16 (to_precision.py, batch 1
# and 4) and small_fp16.json, within 1e-3 relative (docs/layergroup.md
# "Precisions"); LeNet in INT9 and TERNARY, exactly.
#   bench/layergroup/run_bench.sh BUILD_DIR OUT_DIR
set -e
BUILD=${1:-build-lg}
OUT=${2:-bench-lg-out}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SIM=$BUILD/bin/bangc-sim
mkdir -p "$OUT"
/usr/bin/python3 - "$OUT" <<'PY'
import numpy as np, sys
out = sys.argv[1]
rng = np.random.default_rng(0)
np.save(f"{out}/x1.npy", rng.uniform(-1, 1, (224, 224, 3)).astype(np.float32))
np.save(f"{out}/x4.npy", rng.uniform(-1, 1, (4, 224, 224, 3)).astype(np.float32))
np.save(f"{out}/x_int8.npy", rng.integers(-128, 128, (28, 28, 1)).astype(np.int8))
np.save(f"{out}/x_int16.npy", rng.integers(-32768, 32768, (28, 28, 1)).astype(np.int16))
np.save(f"{out}/x_snn.npy", (np.random.default_rng(0).random((100, 4, 4, 2)) < 0.3).astype(np.uint8))
rng = np.random.default_rng(0)
np.save(f"{out}/x1_f16.npy", rng.uniform(-1, 1, (224, 224, 3)).astype(np.float32).astype(np.float16))
np.save(f"{out}/x4_f16.npy", rng.uniform(-1, 1, (4, 224, 224, 3)).astype(np.float32).astype(np.float16))
np.save(f"{out}/x_small_f16.npy", np.random.default_rng(5).uniform(-1, 1, (16, 16, 3)).astype(np.float16))
np.save(f"{out}/x_int9.npy", np.random.default_rng(3).integers(-256, 256, (28, 28, 1)).astype(np.int16))
np.save(f"{out}/x_ternary.npy", np.random.default_rng(3).integers(-1, 2, (28, 28, 1)).astype(np.int8))
PY
/usr/bin/python3 "$HERE/scale_graph.py" "$ROOT/examples/graphs/resnet18.json" 224 224 "$OUT/resnet18_stem.json" --until stem.pool
"$SIM" graph "$ROOT/examples/graphs/vgg16_convs.json" --layer-group \
  --emit-mlu "$OUT/vgg_b1" --run --in image=$OUT/x1.npy --out features=$OUT/y1.npy \
  --report "$OUT/vgg16_b1.json" --lmem-svg "$OUT/vgg16_b1.svg"
"$SIM" graph "$OUT/resnet18_stem.json" --layer-group --run --in image=$OUT/x1.npy \
  --report "$OUT/resnet18_stem.json.report.json"
"$SIM" graph "$ROOT/examples/graphs/resnet18.json" --layer-group --run \
  --in image=$OUT/x1.npy --report "$OUT/resnet18.json" --lmem-svg "$OUT/resnet18.svg"
"$SIM" graph "$ROOT/examples/graphs/vgg16_convs.json" --layer-group --run \
  --in image=$OUT/x4.npy --report "$OUT/vgg16_b4.json" --lmem-svg "$OUT/vgg16_b4.svg"
"$SIM" graph "$ROOT/examples/graphs/lenet.json" --layer-group --run \
  --in x=$OUT/x_int8.npy --report "$OUT/lenet_int8.json"
"$SIM" graph "$ROOT/examples/graphs/lenet_int16.json" --layer-group --run \
  --in x=$OUT/x_int16.npy --report "$OUT/lenet_int16.json"
"$SIM" graph "$ROOT/examples/graphs/snn_lif.json" --layer-group --run --steps 100 \
  --in spikes=$OUT/x_snn.npy --report "$OUT/snn_lif.json"
/usr/bin/python3 "$HERE/to_precision.py" "$ROOT/examples/graphs/vgg16_convs.json" "$OUT/vgg16_fp16.json" FLOAT32=FLOAT16
/usr/bin/python3 "$HERE/to_precision.py" "$ROOT/examples/graphs/lenet.json" "$OUT/lenet_int9.json" INT8=INT9
/usr/bin/python3 "$HERE/to_precision.py" "$ROOT/examples/graphs/lenet.json" "$OUT/lenet_ternary.json" INT8=TERNARY
"$SIM" graph "$OUT/vgg16_fp16.json" --layer-group --run \
  --in image=$OUT/x1_f16.npy --report "$OUT/vgg16_fp16_b1.report.json"
"$SIM" graph "$OUT/vgg16_fp16.json" --layer-group --run \
  --in image=$OUT/x4_f16.npy --report "$OUT/vgg16_fp16_b4.report.json"
"$SIM" graph "$ROOT/examples/graphs/small_fp16.json" --layer-group --run \
  --in image=$OUT/x_small_f16.npy --report "$OUT/small_fp16.report.json"
"$SIM" graph "$OUT/lenet_int9.json" --layer-group --run \
  --in x=$OUT/x_int9.npy --report "$OUT/lenet_int9.report.json"
"$SIM" graph "$OUT/lenet_ternary.json" --layer-group --run \
  --in x=$OUT/x_ternary.npy --report "$OUT/lenet_ternary.report.json"
/usr/bin/python3 "$HERE/summarize.py" "$OUT"/*.json
