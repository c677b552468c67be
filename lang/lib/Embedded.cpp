//===- Embedded.cpp - Language files compiled into the binary -------------===//
#include "bang/Embedded.h"

extern const unsigned char bangc_devicelib_bc[], bangc_prelude_h[],
    bangc_intrinsics_def[], bangc_intrinsics_h[], bangc_kernelabi_h[],
    bangc_memcpy_directions_def[], bangc_runtime_functions_def[],
    bangc_mlu_h[], bangc_bang_h[], bangc_cnrt_h[], bangc_cnrt_ret_def[],
    bangc_cn_api_h[], bangc_cn_result_def[], bangc_host_launch_h[],
    bangc_bang_fusor_h[], bangc_cnnl_h[];
extern const unsigned long bangc_devicelib_bc_size, bangc_prelude_h_size,
    bangc_intrinsics_def_size, bangc_intrinsics_h_size, bangc_kernelabi_h_size,
    bangc_memcpy_directions_def_size, bangc_runtime_functions_def_size,
    bangc_mlu_h_size, bangc_bang_h_size, bangc_cnrt_h_size,
    bangc_cnrt_ret_def_size, bangc_cn_api_h_size, bangc_cn_result_def_size,
    bangc_host_launch_h_size, bangc_bang_fusor_h_size, bangc_cnnl_h_size;

using namespace bangc;

static llvm::StringRef bytes(const unsigned char *data, unsigned long size) {
  return llvm::StringRef(reinterpret_cast<const char *>(data), size);
}

llvm::ArrayRef<EmbeddedFile> bangc::embeddedHeaders() {
  static const EmbeddedFile files[] = {
      {"bang/prelude.h", bytes(bangc_prelude_h, bangc_prelude_h_size)},
      {"bang/intrinsics.def",
       bytes(bangc_intrinsics_def, bangc_intrinsics_def_size)},
      {"bang/intrinsics.h", bytes(bangc_intrinsics_h, bangc_intrinsics_h_size)},
      {"bangsim/KernelABI.h", bytes(bangc_kernelabi_h, bangc_kernelabi_h_size)},
      {"bangsim/MemcpyDirections.def",
       bytes(bangc_memcpy_directions_def, bangc_memcpy_directions_def_size)},
      {"bangsim/RuntimeFunctions.def",
       bytes(bangc_runtime_functions_def, bangc_runtime_functions_def_size)},
      // cncc's header names, for sources that include them (lang/include).
      {"mlu.h", bytes(bangc_mlu_h, bangc_mlu_h_size)},
      {"bang.h", bytes(bangc_bang_h, bangc_bang_h_size)},
      // The toolkit's fused element-wise chains (mlu-ops' adam_w).
      {"bang_fusor.h", bytes(bangc_bang_fusor_h, bangc_bang_fusor_h_size)},
      // CNRT and CNDrv, which mlu_op.h includes (the declarations only).
      {"cnrt.h", bytes(bangc_cnrt_h, bangc_cnrt_h_size)},
      {"cnrt_ret.def", bytes(bangc_cnrt_ret_def, bangc_cnrt_ret_def_size)},
      {"cn_api.h", bytes(bangc_cn_api_h, bangc_cn_api_h_size)},
      {"cn_result.def", bytes(bangc_cn_result_def, bangc_cn_result_def_size)},
      {"bang/host_launch.h",
       bytes(bangc_host_launch_h, bangc_host_launch_h_size)},
      // CNNL's names that mlu-ops' core/cnnl_helper.h uses (no library).
      {"cnnl.h", bytes(bangc_cnnl_h, bangc_cnnl_h_size)},
  };
  return files;
}

llvm::StringRef bangc::embeddedIncludeDir() { return "/__bangc__/include"; }

llvm::StringRef bangc::deviceLibraryBitcode() {
  return bytes(bangc_devicelib_bc, bangc_devicelib_bc_size);
}
