"""Tests of the bangsim Python module: compile, launch on numpy arrays,
scalars typed by the kernel signature, faults and compile errors as Python
exceptions, statistics and trace. Run by CTest (python.unittest) with
PYTHONPATH pointing at the built module."""

import json
import os
import tempfile
import unittest

import numpy as np

import bangsim

VADD = r"""
#define CHUNK 256
__nram__ float na[CHUNK];
__nram__ float nb[CHUNK];
__mlu_global__ void vadd(const float *a, const float *b, float *c, int n) {
  for (int s = taskId * CHUNK; s < n; s += taskDim * CHUNK) {
    int len = n - s < CHUNK ? n - s : CHUNK;
    __memcpy(na, a + s, len * sizeof(float), GDRAM2NRAM);
    __memcpy(nb, b + s, len * sizeof(float), GDRAM2NRAM);
    __bang_add(na, na, nb, len);
    __memcpy(c + s, na, len * sizeof(float), NRAM2GDRAM);
  }
}
"""

SCALARS = r"""
__mlu_global__ void affine(double *out, char c, short s, long long l,
                           float f, double d) {
  if (taskId != 0) return;
  out[0] = c; out[1] = s; out[2] = (double)l; out[3] = f; out[4] = d;
}
"""

STRUCT = r"""
struct Shift { double scale; int offset; float bias; };
__mlu_global__ void shift(Shift s, float *out, int n) {
  for (int i = 0; i < n; ++i) out[i] = i * s.scale + s.offset + s.bias;
}
"""

FAULT = r"""
__nram__ float buf[64];
__mlu_global__ void overrun(float *out) {
  __memcpy(buf, out, 1 << 20, GDRAM2NRAM);
}
"""


class CompileAndLaunch(unittest.TestCase):
    def test_vadd_union1(self):
        mod = bangsim.compile(VADD)
        self.assertEqual(mod.kernels, ["vadd"])
        n = 1000
        a = np.arange(n, dtype=np.float32)
        b = np.full(n, 0.5, dtype=np.float32)
        c = np.zeros(n, dtype=np.float32)
        result = mod.vadd[4, "union1"](a, b, c, n)
        np.testing.assert_array_equal(c, a + b)
        self.assertEqual(result.tasks, 4)
        self.assertGreater(result.cycles, 0)
        # Each element read twice (a, b) and written once, as float32.
        self.assertEqual(result.gdram_read_bytes, 2 * n * 4)
        self.assertEqual(result.gdram_write_bytes, n * 4)
        self.assertEqual(json.loads(result.json())["tasks"], 4)

    def test_readonly_buffers_are_not_written_back(self):
        mod = bangsim.compile(VADD)
        a = np.ones(8, dtype=np.float32)
        c = bytes(32)  # read-only: the device result is not copied back
        mod.vadd[1](a, a, c, 8)
        self.assertEqual(c, bytes(32))

    def test_dim_tuple_and_trace(self):
        mod = bangsim.compile(VADD)
        a = np.ones(600, dtype=np.float32)
        c = np.zeros(600, dtype=np.float32)
        result = mod.vadd[(2, 2, 1), "block"](a, a, c, 600, trace=True)
        np.testing.assert_array_equal(c, 2 * a)
        self.assertEqual(result.tasks, 4)
        names = {e["name"] for e in result.trace}
        self.assertTrue(any("add" in name for name in names), names)
        self.assertTrue(all(e["cycles"] >= 0 for e in result.trace))

    def test_scalar_types_follow_the_signature(self):
        mod = bangsim.compile(SCALARS)
        self.assertEqual(mod.affine.signature, "pbhlfd")
        out = np.zeros(5, dtype=np.float64)
        mod.affine[1](out, -3, 300, 2**40, 0.1, 0.1)
        # 0.1 as float (f32) differs from 0.1 as double.
        self.assertEqual(list(out[:3]), [-3.0, 300.0, float(2**40)])
        self.assertEqual(out[3], float(np.float32(0.1)))
        self.assertEqual(out[4], 0.1)

    def test_struct_by_value_from_its_bytes(self):
        mod = bangsim.compile(STRUCT)
        self.assertEqual(mod.kernel("shift").signature, "spi")
        shape = np.array([(3.0, 2, 0.5)],
                         dtype=np.dtype([("scale", "<f8"), ("offset", "<i4"),
                                         ("bias", "<f4")]))
        out = np.zeros(4, np.float32)
        mod.shift[1](shape[0], out, 4)
        np.testing.assert_array_equal(out, np.arange(4) * 3.0 + 2 + 0.5)
        with self.assertRaisesRegex(ValueError, "12 bytes given, the kernel's struct has 16"):
            mod.shift[1](bytes(12), out, 4)
        with self.assertRaisesRegex(TypeError, "takes a struct of 16 bytes"):
            mod.shift[1](1.5, out, 4)

    def test_wrong_argument_count(self):
        mod = bangsim.compile(VADD)
        with self.assertRaisesRegex(TypeError, "takes 4 arguments"):
            mod.vadd[1](np.zeros(4, np.float32))

    def test_compile_from_file_with_defines(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "k.mlu")
            with open(path, "w") as f:
                f.write("__mlu_global__ void k(int *o) { o[taskId] = VALUE; }")
            mod = bangsim.compile(file=path, defines=["VALUE=42"])
        out = np.zeros(3, dtype=np.int32)
        mod.k[3](out)
        self.assertEqual(list(out), [42, 42, 42])


class Errors(unittest.TestCase):
    def test_device_fault_raises_with_message(self):
        mod = bangsim.compile(FAULT)
        with self.assertRaises(bangsim.DeviceFault) as caught:
            mod.overrun[1](np.zeros(16, dtype=np.float32))
        self.assertIn("overrun", str(caught.exception))
        self.assertIn("out of bounds of NRAM", str(caught.exception))

    def test_race_check_raises_with_both_lines(self):
        src = (
            "__mlu_global__ void k(float *in, float *out) {\n"
            "  __nram__ float buf[64];\n"
            "  __memcpy_async(buf, in, 256, GDRAM2NRAM);\n"
            "  SYNC;\n"
            "  __bang_add(buf, buf, buf, 64);\n"
            "  __memcpy(out, buf, 256, NRAM2GDRAM);\n"
            "}\n")
        a = np.arange(64, dtype=np.float32)
        racy = bangsim.compile(src, defines=["SYNC=(void)0"], check="race")
        with self.assertRaises(bangsim.DeviceFault) as caught:
            racy.k[1](a, np.zeros_like(a))
        self.assertIn("race: __bang_add reads NRAM", str(caught.exception))
        self.assertIn(":5:3 in k, in __bang_add", str(caught.exception))
        self.assertIn(":3:3 in k, in __memcpy_async", str(caught.exception))
        # The same kernel without the check, and with the __sync, is fine.
        bangsim.compile(src, defines=["SYNC=(void)0"]).k[1](a, np.zeros_like(a))
        out = np.zeros_like(a)
        bangsim.compile(src, defines=["SYNC=__sync()"], check="race").k[1](a, out)
        np.testing.assert_array_equal(out, 2 * a)
        with self.assertRaises(ValueError):
            bangsim.compile(src, check="races")

    def test_compile_error_carries_diagnostics(self):
        with self.assertRaises(bangsim.CompileError) as caught:
            bangsim.compile("__mlu_global__ void k(int *o) { o[0] = nope; }")
        self.assertIn("use of undeclared identifier 'nope'",
                      str(caught.exception))

    def test_unknown_kernel(self):
        mod = bangsim.compile(VADD)
        with self.assertRaises(AttributeError):
            mod.vsub


if __name__ == "__main__":
    unittest.main()
