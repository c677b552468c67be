#!/bin/sh
# race-clean.sh BANGC_SIM SRC_DIR PYTHON: every shipped kernel runs clean
# under --check=race (docs/device.md, "Race check"): the operators of
# kernels/ through `bangc-sim op` in each of their regimes (the BorderAlign
# forward and backward ping-pong pipelines among them), the examples, and
# the bench kernels. PYTHON is one with numpy, for the inputs.
set -eu
sim=$(realpath "$1") src=$(realpath "$2") py=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export BANGC_CACHE_DIR="$work/cache"
npy() { "$py" "$src/test/lit/Inputs/npy.py" make "$@"; }
failed=0
# run WHAT ARGS...: one launch with --check=race; a race (exit 3) or any
# other failure is reported and fails the test at the end.
run() {
  what=$1
  shift
  if "$sim" "$@" --check=race >log.txt 2>&1; then
    echo "clean: $what"
  else
    echo "FAIL: $what (exit $?):"
    cat log.txt
    failed=1
  fi
}

# TinShift: channels (mlu370), split T and split HW (tiny), both directions.
npy x.npy "np.arange(1, 37, dtype=np.float32).reshape(1, 6, 6, 1)"
npy s.npy "np.array([[-1, 0, 2]], dtype=np.int32)"
npy a.npy "np.random.default_rng(1).standard_normal((2, 9, 4, 3000)).astype(np.float16)"
npy sa.npy "np.array([[3, -20], [-2, 9]], dtype=np.int32)"
npy w.npy "np.arange(2 * 3 * 2 * 9000, dtype=np.float32).reshape(2, 3, 2, 9000)"
npy sw.npy "np.array([[1], [-1]], dtype=np.int32)"
for dir in forward backward; do
  [ $dir = forward ] && in=input || in=grad_output
  [ $dir = forward ] && out=output || out=grad_input
  run "tin_shift_$dir channels" op tin_shift_$dir --in $in=x.npy \
    --in shifts=s.npy --out $out=o.npy
  run "tin_shift_$dir split T (half)" op tin_shift_$dir --device tiny \
    --in $in=a.npy --in shifts=sa.npy --out $out=o.npy
  run "tin_shift_$dir split HW" op tin_shift_$dir --device tiny \
    --in $in=w.npy --in shifts=sw.npy --out $out=o.npy
done

# BorderAlign: the seed's example and a network shape, on mlu370 and on
# tiny (small NRAM: more stages through the ping-pong buffers).
npy bx.npy "np.random.default_rng(4).standard_normal((1, 3, 4, 4)).astype(np.float32)"
npy bb.npy "np.array([[[0,0,2,1],[1,0,3,1],[1,0,2,1],[0,0,3,1],[0,0,1,2],[0,0,2,2],[1,0,2,1],[1,0,3,1],[0,1,1,2],[0,0,3,2],[1,0,3,2],[2,0,3,2]]], dtype=np.float32)"
npy bg.npy "np.ones((1, 12, 4, 1), dtype=np.float32)"
npy nx.npy "np.random.default_rng(2).standard_normal((2, 7, 10, 1024)).astype(np.float32)"
npy nb.npy "np.sort(np.random.default_rng(3).uniform(0, 7, (2, 70, 2, 2)), axis=2).transpose(0, 1, 3, 2).reshape(2, 70, 4).astype(np.float32)"
npy ng.npy "np.ones((2, 70, 4, 256), dtype=np.float32)"
run "border_align_forward seed" op border_align_forward --in input=bx.npy \
  --in boxes=bb.npy --attr pool_size=1 --out output=o.npy --out argmax_idx=ba.npy
run "border_align_backward seed" op border_align_backward \
  --in grad_output=bg.npy --in boxes=bb.npy --in argmax_idx=ba.npy \
  --attr pool_size=1 --attr height=3 --attr width=4 --out grad_input=o.npy
for device in mlu370 tiny; do
  run "border_align_forward net ($device)" op border_align_forward \
    --device $device --in input=nx.npy --in boxes=nb.npy --attr pool_size=10 \
    --out output=o.npy --out argmax_idx=na.npy
  run "border_align_backward net ($device)" op border_align_backward \
    --device $device --in grad_output=ng.npy --in boxes=nb.npy \
    --in argmax_idx=na.npy --attr pool_size=10 --attr height=7 \
    --attr width=10 --out grad_input=o.npy
done

# The examples and the bench kernels.
npy v.npy "np.arange(1000, dtype=np.float32)"
run "examples/vector_add.mlu" run "$src/examples/vector_add.mlu" --kernel vadd \
  --dim 4 --type union1 --arg in:v.npy --arg in:v.npy \
  --arg out:o.npy:f32:1000 --arg i32:1000
run "examples/cnrt/vector_add.mlu" run "$src/examples/cnrt/vector_add.mlu" \
  --kernel vectorAdd --dim 8 --type union2 --arg out:o.npy:f32:1000 \
  --arg in:v.npy --arg in:v.npy --arg i32:1000
npy bytes.npy "np.arange(1 << 20, dtype=np.uint8)"
run "bench/kernels/copy.mlu" run "$src/bench/kernels/copy.mlu" --kernel copy \
  --dim 16 --type union1 --arg in:bytes.npy --arg out:o.npy:u8:1048576 \
  --arg i64:1048576
npy h.npy "np.random.default_rng(5).standard_normal(100000).astype(np.float32)"
for mode in 0 1 2; do
  run "bench/kernels/hundred_lines.mlu affine_act mode $mode" \
    run "$src/bench/kernels/hundred_lines.mlu" --kernel 'affine_act<float>' \
    --dim 8 --type union1 --arg out:o.npy:f32:100000 --arg in:h.npy \
    --arg in:h.npy --arg in:h.npy --arg i32:100000 --arg i32:$mode
done
run "bench/kernels/hundred_lines.mlu gather_rows" \
  run "$src/bench/kernels/hundred_lines.mlu" --kernel gather_rows --dim 4 \
  --arg out:o.npy:f32:4096 --arg in:h.npy --arg i32:64 --arg i32:64 \
  --arg i32:256
exit $failed
