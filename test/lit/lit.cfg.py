# lit configuration for bangc-sim: each .mlu/.test file is a test whose RUN
# lines use bangc-sim, FileCheck, not and %python (numpy's Python).
import os
import lit.formats

config.name = "bangc-sim"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlu", ".test", ".ll"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.bangc_obj_root, "test", "lit-out")

config.environment["PATH"] = os.pathsep.join(
    [config.bangc_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "/usr/bin:/bin")])
config.substitutions.append(("%python", config.python))
# An ASan/UBSan build (BANGC_SANITIZE): its runtime library is instrumented
# by g++'s sanitizers, which a program linked by `bangc-sim compile -o`
# (clang, no sanitizer runtime) cannot load; those tests say UNSUPPORTED.
if getattr(config, "bangc_sanitize", "").upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("sanitize")
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%examples", os.path.join(config.bangc_src_root, "examples")))
# The build tree's libraries (libmluop.a...), for programs a test links.
config.substitutions.append(("%bangc_lib", os.path.join(config.bangc_obj_root, "lib")))
config.substitutions.append(("%bangc_src", config.bangc_src_root))
config.substitutions.insert(0, ("%exit", config.python + " " + os.path.join(config.test_source_root, "Inputs", "expect-exit.py")))

# Host CPU features some codegen tests depend on.
try:
    with open("/proc/cpuinfo") as f:
        flags = next((l.split(":", 1)[1].split() for l in f if l.startswith("flags")), [])
except OSError:
    flags = []
if "avx512fp16" in flags:
    config.available_features.add("host-avx512fp16")
# The host's C ABI, for tests of how Clang lowers a struct by value.
import platform
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("x86_64")

# Whether this host runs the device library precompiled at build time (a
# build on this machine does; a copied build on another CPU does not).
import subprocess
version = subprocess.run([os.path.join(config.bangc_tools_dir, "bangc-sim"), "--version"],
                         capture_output=True, text=True).stdout
if "precompiled for this CPU" in version:
    config.available_features.add("native-devicelib")
config.substitutions.append(("%devicelib_native_o",
                             os.path.join(config.bangc_obj_root, "codegen", "devicelib_native.o")))

# The compile cache: a fresh one per lit run in the build tree, never the
# user's (tests of the cache itself set BANGC_CACHE_DIR to their own %t).
import shutil
cache_dir = os.path.join(config.test_exec_root, "compile-cache")
shutil.rmtree(cache_dir, ignore_errors=True)
config.environment["BANGC_CACHE_DIR"] = cache_dir
config.environment.pop("BANGC_CACHE_DISABLE", None)

# The include paths and forced prelude of the device library's own compile
# (DEVICELIB_FLAGS in lang/CMakeLists.txt), for tests compiled against it.
config.substitutions.append(("%devicelib_flags", " ".join([
    "-std=c++17", "-Xclang", "-ffloat16-excess-precision=none",
    "-I" + os.path.join(config.bangc_src_root, "lang", "include"),
    "-I" + os.path.join(config.bangc_obj_root, "lang", "include"),
    "-I" + os.path.join(config.bangc_src_root, "abi", "include"),
    "-I" + os.path.join(config.bangc_src_root, "lang", "devicelib"),
    "-include", "bang/prelude.h"])))
