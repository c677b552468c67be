//===- bangsim.cpp - The bangsim Python module --------------------------===//
//
// Python bindings for the host API (bangsim/Module.h, Device.h, Stats.h),
// so a kernel author can compile a BANG C source and launch its kernels on
// numpy arrays from a notebook or a unittest:
//
//   mod = bangsim.compile(src)
//   stats = mod.vadd[4, "union1"](a, b, c, n)
//
// Every buffer-protocol argument is copied to GDRAM before the launch and,
// when writable, copied back after it; Python ints and floats become the
// scalar type the kernel signature names. A device fault raises
// bangsim.DeviceFault, a compile error bangsim.CompileError carrying the
// clang-style diagnostics (docs/workbench.md).
//
//===----------------------------------------------------------------------===//
#include "bangsim/Device.h"
#include "bangsim/Module.h"
#include "bangsim/Stats.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace py = pybind11;

namespace {

py::object compileErrorType;
py::object deviceFaultType;

[[noreturn]] void raise(const py::object &type, const std::string &message) {
  PyErr_SetString(type.ptr(), message.c_str());
  throw py::error_already_set();
}

template <typename T> T unwrap(llvm::Expected<T> value) {
  if (!value)
    throw std::runtime_error(llvm::toString(value.takeError()));
  return std::move(*value);
}

void unwrap(llvm::Error e) {
  if (e)
    throw std::runtime_error(llvm::toString(std::move(e)));
}

/// A compiled module and the device its kernels run on.
struct PyModule {
  std::unique_ptr<bangsim::Device> device;
  std::unique_ptr<bangsim::Module> module;
  bool checkRaces = false; ///< compiled with check="race": launch so too
};

/// What one launch reports: LaunchStats as Python attributes.
struct LaunchResult {
  bangsim::LaunchStats stats;

  py::dict bytesByDirection() const {
    py::dict out;
    for (int d = 0; d < bangsim::NumDirections; ++d)
      if (stats.bytesByDirection[d])
        out[bangsim::directionName(d)] = stats.bytesByDirection[d];
    return out;
  }
  py::list trace() const {
    py::list out;
    for (const bangsim::TraceEvent &e : stats.events) {
      py::dict event;
      event["core"] = e.core;
      event["unit"] = e.dma ? "dma" : "compute";
      event["name"] = e.name;
      event["start"] = e.start;
      event["cycles"] = e.cycles;
      event["bytes"] = e.bytes;
      out.append(event);
    }
    return out;
  }
  std::string repr() const {
    return "<LaunchResult " + stats.kernel + ": " +
           std::to_string(stats.tasks) + " tasks, " +
           std::to_string((long long)stats.cycles) + " cycles>";
  }
};

bangsim::Dim3 toDim(const py::handle &dim) {
  if (py::isinstance<py::int_>(dim))
    return {dim.cast<uint32_t>(), 1, 1};
  auto values = dim.cast<std::vector<uint32_t>>();
  if (values.empty() || values.size() > 3)
    throw py::value_error("dim is an int or a tuple of 1 to 3 ints");
  bangsim::Dim3 out;
  out.x = values[0];
  if (values.size() > 1)
    out.y = values[1];
  if (values.size() > 2)
    out.z = values[2];
  return out;
}

/// The scalar `value` as the C type signature letter `kind` names.
bangsim::KernelArg toScalar(char kind, const py::handle &value, size_t index) {
  if (!py::isinstance<py::int_>(value) && !py::isinstance<py::float_>(value) &&
      !py::isinstance<py::bool_>(value) && !PyNumber_Check(value.ptr()))
    throw py::type_error("argument " + std::to_string(index) +
                         ": the kernel takes a scalar here");
  switch (kind) {
  case 'b':
    return bangsim::KernelArg::i8(value.cast<int8_t>());
  case 'h':
    return bangsim::KernelArg::i16(value.cast<int16_t>());
  case 'i':
    return bangsim::KernelArg::i32(value.cast<int32_t>());
  case 'l':
    return bangsim::KernelArg::i64(value.cast<int64_t>());
  case 'z':
    return bangsim::KernelArg::boolean(PyObject_IsTrue(value.ptr()) == 1);
  case 'f':
    return bangsim::KernelArg::f32(value.cast<float>());
  case 'd':
    return bangsim::KernelArg::f64(value.cast<double>());
  case 'e': {
    // numpy rounds to half exactly as the device's conversions do.
    py::object half = py::module_::import("numpy").attr("float16")(value);
    return bangsim::KernelArg::f16bits(
        half.attr("view")("uint16").cast<uint16_t>());
  }
  }
  throw py::type_error("argument " + std::to_string(index) +
                       ": unsupported signature letter '" +
                       std::string(1, kind) + "'");
}

/// A struct by value (signature letter 's'): the bytes of any object with
/// the buffer protocol (bytes, a numpy structured scalar or record array of
/// one element, a ctypes.Structure), exactly the parameter's size.
bangsim::KernelArg toStruct(const bangsim::Kernel &kernel, size_t index,
                            const py::handle &value) {
  size_t want = index < kernel.params.size() ? kernel.params[index].size : 0;
  if (!PyObject_CheckBuffer(value.ptr()))
    throw py::type_error("argument " + std::to_string(index) +
                         ": the kernel takes a struct of " +
                         std::to_string(want) +
                         " bytes here; pass its bytes (bytes, a numpy "
                         "record, a ctypes.Structure)");
  py::buffer_info info = py::reinterpret_borrow<py::buffer>(value).request();
  size_t bytes = size_t(info.size) * size_t(info.itemsize);
  if (bytes != want)
    throw py::value_error("argument " + std::to_string(index) + ": " +
                          std::to_string(bytes) +
                          " bytes given, the kernel's struct has " +
                          std::to_string(want));
  // A ctypes or numpy object may be non-contiguous only with more than one
  // element; copy through tobytes() then.
  if (info.ndim > 1 || (info.ndim == 1 && info.strides[0] != info.itemsize)) {
    std::string copy = py::bytes(value.attr("tobytes")());
    return bangsim::KernelArg::aggregate(copy.data(), copy.size());
  }
  return bangsim::KernelArg::aggregate(info.ptr, bytes);
}

bool isCContiguous(const py::buffer_info &info) {
  py::ssize_t expected = info.itemsize;
  for (py::ssize_t d = info.ndim - 1; d >= 0; --d) {
    if (info.shape[d] != 1 && info.strides[d] != expected)
      return false;
    expected *= info.shape[d];
  }
  return true;
}

/// One device buffer for a buffer-protocol argument.
struct DeviceBuffer {
  py::buffer_info host;
  void *device = nullptr;
};

/// mod.kernel[dim, type]: a kernel bound to its launch shape.
struct Launcher {
  std::shared_ptr<PyModule> owner;
  const bangsim::Kernel *kernel;
  bangsim::Dim3 dim;
  bangsim::FuncType type;

  LaunchResult call(const py::args &args, bool trace, double timeout) const {
    const std::string &sig = kernel->signature;
    if (args.size() != sig.size())
      throw py::type_error(kernel->pretty + "() takes " +
                           std::to_string(sig.size()) + " arguments (" +
                           std::to_string(args.size()) + " given)");
    bangsim::Device &device = *owner->device;
    std::vector<DeviceBuffer> buffers;
    std::vector<bangsim::KernelArg> launchArgs;
    auto freeAll = [&] {
      for (DeviceBuffer &b : buffers)
        llvm::consumeError(device.free(b.device));
    };
    try {
      for (size_t i = 0; i < sig.size(); ++i) {
        if (sig[i] == 's') {
          launchArgs.push_back(toStruct(*kernel, i, args[i]));
          continue;
        }
        if (sig[i] != 'p') {
          launchArgs.push_back(toScalar(sig[i], args[i], i));
          continue;
        }
        if (!PyObject_CheckBuffer(args[i].ptr()))
          throw py::type_error("argument " + std::to_string(i) +
                               ": the kernel takes a pointer here; pass an "
                               "object with the buffer protocol");
        DeviceBuffer b{py::reinterpret_borrow<py::buffer>(args[i]).request()};
        if (!isCContiguous(b.host))
          throw py::value_error("argument " + std::to_string(i) +
                                ": the buffer is not C-contiguous");
        uint64_t bytes = uint64_t(b.host.size) * b.host.itemsize;
        b.device = unwrap(device.malloc(bytes ? bytes : 1));
        buffers.push_back(std::move(b));
        unwrap(device.copyToDevice(buffers.back().device,
                                   buffers.back().host.ptr, bytes));
        launchArgs.push_back(
            bangsim::KernelArg::pointer(buffers.back().device));
      }
      bangsim::LaunchOptions options;
      options.trace = trace;
      options.timeoutSeconds = timeout;
      options.checkRaces = owner->checkRaces;
      llvm::Expected<bangsim::LaunchStats> stats = [&] {
        py::gil_scoped_release release;
        return device.launch(*kernel, owner->module->staticLayout(), dim, type,
                             launchArgs, options);
      }();
      if (!stats) {
        std::string fault;
        llvm::Error rest = llvm::handleErrors(
            stats.takeError(),
            [&](const bangsim::LaunchFault &f) { fault = f.message; });
        if (rest)
          throw std::runtime_error(llvm::toString(std::move(rest)));
        freeAll();
        raise(deviceFaultType, fault);
      }
      for (DeviceBuffer &b : buffers)
        if (!b.host.readonly)
          unwrap(device.copyFromDevice(
              b.host.ptr, b.device, uint64_t(b.host.size) * b.host.itemsize));
      freeAll();
      return LaunchResult{std::move(*stats)};
    } catch (...) {
      freeAll();
      buffers.clear();
      throw;
    }
  }
};

/// mod.kernel: a kernel waiting for its [dim, type].
struct KernelHandle {
  std::shared_ptr<PyModule> owner;
  const bangsim::Kernel *kernel;

  Launcher shape(const py::object &key) const {
    py::tuple pair = py::isinstance<py::tuple>(key) ? key.cast<py::tuple>()
                                                    : py::make_tuple(key);
    if (pair.size() != 2 && pair.size() != 1)
      throw py::type_error("use kernel[dim] or kernel[dim, \"union1\"]");
    bangsim::FuncType type = bangsim::FuncType::Block;
    if (pair.size() == 2)
      type = unwrap(bangsim::parseFuncType(pair[1].cast<std::string>()));
    return {owner, kernel, toDim(pair[0]), type};
  }
};

std::shared_ptr<PyModule> compile(std::optional<std::string> source,
                                  std::optional<std::string> file,
                                  const std::string &deviceName, int opt,
                                  const std::vector<std::string> &defines,
                                  const std::vector<std::string> &includeDirs,
                                  const py::object &check, bool debug,
                                  bool cache) {
  if (source.has_value() == file.has_value())
    throw py::value_error("pass exactly one of source= and file=");
  // check=True is --check, check="race" --check=race.
  bool race = py::isinstance<py::str>(check);
  if (race && check.cast<std::string>() != "race")
    throw py::value_error("check= takes False, True or \"race\"");
  bangsim::DeviceSpec spec = unwrap(bangsim::loadDeviceSpec(deviceName));
  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  bangsim::CompileOptions options;
  options.optLevel = opt;
  options.defines = defines;
  options.includeDirs = includeDirs;
  options.checkAccesses = race || py::bool_(check);
  options.checkRaces = race;
  options.debugInfo = debug;
  options.useCache = cache;
  options.diagnostics = &diagStream;
  auto out = std::make_shared<PyModule>();
  out->checkRaces = race;
  out->device = unwrap(bangsim::Device::open(spec));
  llvm::Expected<std::unique_ptr<bangsim::Module>> module = [&] {
    py::gil_scoped_release release;
    return source ? bangsim::Module::compileString("<string>.mlu", *source,
                                                   spec, options)
                  : bangsim::Module::compileFile(*file, spec, options);
  }();
  if (!module) {
    std::string message = llvm::toString(module.takeError());
    diagStream.flush();
    raise(compileErrorType, diagnostics.empty() ? message : diagnostics);
  }
  out->module = std::move(*module);
  return out;
}

/// The same launch as Launcher::call through the C++ host API alone, `n`
/// times: the reference for the Python overhead figure (bench/).
double cxxLaunchLoop(const Launcher &l, const py::args &args, int n) {
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) {
    bangsim::Device &device = *l.owner->device;
    std::vector<std::pair<void *, py::buffer_info>> buffers;
    std::vector<bangsim::KernelArg> launchArgs;
    for (size_t a = 0; a < l.kernel->signature.size(); ++a) {
      if (l.kernel->signature[a] == 's') {
        launchArgs.push_back(toStruct(*l.kernel, a, args[a]));
        continue;
      }
      if (l.kernel->signature[a] != 'p') {
        launchArgs.push_back(toScalar(l.kernel->signature[a], args[a], a));
        continue;
      }
      py::buffer_info info = args[a].cast<py::buffer>().request();
      void *d = unwrap(device.malloc(info.size * info.itemsize));
      unwrap(device.copyToDevice(d, info.ptr, info.size * info.itemsize));
      launchArgs.push_back(bangsim::KernelArg::pointer(d));
      buffers.emplace_back(d, std::move(info));
    }
    unwrap(device.launch(*l.kernel, l.owner->module->staticLayout(), l.dim,
                         l.type, launchArgs));
    for (auto &[d, info] : buffers) {
      if (!info.readonly)
        unwrap(device.copyFromDevice(info.ptr, d, info.size * info.itemsize));
      unwrap(device.free(d));
    }
  }
  std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  return took.count() / n;
}

} // namespace

PYBIND11_MODULE(bangsim, m) {
  m.doc() = "Compile BANG C kernels and run them on the bangc-sim device.";
  compileErrorType = py::reinterpret_steal<py::object>(
      PyErr_NewExceptionWithDoc("bangsim.CompileError",
                                "A BANG C source did not compile; the message "
                                "is the clang-style diagnostics.",
                                PyExc_RuntimeError, nullptr));
  deviceFaultType = py::reinterpret_steal<py::object>(
      PyErr_NewExceptionWithDoc("bangsim.DeviceFault",
                                "A kernel faulted on the simulated device; the "
                                "message names the fault and its source line.",
                                PyExc_RuntimeError, nullptr));
  m.attr("CompileError") = compileErrorType;
  m.attr("DeviceFault") = deviceFaultType;

  py::class_<LaunchResult>(m, "LaunchResult")
      .def_property_readonly(
          "kernel", [](const LaunchResult &r) { return r.stats.kernel; })
      .def_property_readonly(
          "device", [](const LaunchResult &r) { return r.stats.device; })
      .def_property_readonly(
          "tasks", [](const LaunchResult &r) { return r.stats.tasks; })
      .def_property_readonly(
          "cycles", [](const LaunchResult &r) { return r.stats.cycles; })
      .def_property_readonly(
          "seconds", [](const LaunchResult &r) { return r.stats.seconds; })
      .def_property_readonly(
          "host_seconds",
          [](const LaunchResult &r) { return r.stats.hostSeconds; })
      .def_property_readonly(
          "gdram_read_bytes",
          [](const LaunchResult &r) { return r.stats.gdramReadBytes; })
      .def_property_readonly(
          "gdram_write_bytes",
          [](const LaunchResult &r) { return r.stats.gdramWriteBytes; })
      .def_property_readonly(
          "scalar_instructions",
          [](const LaunchResult &r) { return r.stats.scalarInstructions; })
      .def_property_readonly(
          "io_efficiency",
          [](const LaunchResult &r) { return r.stats.ioEfficiency; })
      .def_property_readonly(
          "compute_efficiency",
          [](const LaunchResult &r) { return r.stats.computeEfficiency; })
      .def_property_readonly("bytes_by_direction",
                             &LaunchResult::bytesByDirection)
      .def_property_readonly("trace", &LaunchResult::trace,
                             "trace events (launch with trace=True)")
      .def("json",
           [](const LaunchResult &r) { return bangsim::statsToJSON(r.stats); })
      .def("__repr__", &LaunchResult::repr);

  py::class_<Launcher>(m, "Launcher")
      .def("__call__", &Launcher::call, py::kw_only(), py::arg("trace") = false,
           py::arg("timeout") = 0.0)
      .def("_cxx_launch_loop", &cxxLaunchLoop, py::arg("n"));

  py::class_<KernelHandle>(m, "Kernel")
      .def("__getitem__", &KernelHandle::shape)
      .def_property_readonly(
          "name", [](const KernelHandle &k) { return k.kernel->pretty; })
      .def_property_readonly("signature", [](const KernelHandle &k) {
        return k.kernel->signature;
      });

  py::class_<PyModule, std::shared_ptr<PyModule>>(m, "Module")
      .def_property_readonly("kernels",
                             [](const PyModule &mod) {
                               std::vector<std::string> names;
                               for (const bangsim::Kernel &k :
                                    mod.module->kernels())
                                 names.push_back(k.pretty);
                               return names;
                             })
      .def("kernel",
           [](std::shared_ptr<PyModule> mod, const std::string &name) {
             return KernelHandle{mod, unwrap(mod->module->findKernel(name))};
           })
      .def("__getattr__",
           [](std::shared_ptr<PyModule> mod, const std::string &name) {
             llvm::Expected<const bangsim::Kernel *> k =
                 mod->module->findKernel(name);
             if (!k) {
               std::string why = llvm::toString(k.takeError());
               throw py::attribute_error(why);
             }
             return KernelHandle{mod, *k};
           });

  m.def("compile", &compile, py::arg("source") = py::none(),
        py::arg("file") = py::none(), py::kw_only(),
        py::arg("device") = "mlu370", py::arg("opt") = 2,
        py::arg("defines") = std::vector<std::string>(),
        py::arg("include_dirs") = std::vector<std::string>(),
        py::arg("check") = false, py::arg("debug") = false,
        py::arg("cache") = true,
        "Compile BANG C source text (source=) or a .mlu file (file=).");
}
