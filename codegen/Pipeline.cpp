//===- Pipeline.cpp - From Clang's IR to optimised host code --------------===//
#include "codegen/Pipeline.h"
#include "codegen/CheckAccesses.h"
#include "codegen/CodegenDiagnostics.h"
#include "codegen/EntryWrapper.h"
#include "codegen/FindKernels.h"
#include "codegen/HostTarget.h"
#include "codegen/LinkDeviceLib.h"
#include "codegen/LowerBuiltins.h"
#include "codegen/LowerInlineAsm.h"
#include "codegen/MemorySpaces.h"
#include "codegen/ScalarCost.h"
#include "codegen/SourceLocations.h"
#include "codegen/TimeoutPolls.h"
#include "codegen/TrapsAsFaults.h"
#include "codegen/WidenHalfCompares.h"

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/TargetSelect.h"

using namespace llvm;
using namespace bangc;

namespace {

OptimizationLevel levelOf(int optLevel) {
  switch (optLevel) {
  case 0:
    return OptimizationLevel::O0;
  case 1:
    return OptimizationLevel::O1;
  case 3:
    return OptimizationLevel::O3;
  default:
    return OptimizationLevel::O2;
  }
}

/// Our passes, by the names runPassPipeline accepts (codegen/Passes.def).
bool parseBangPass(StringRef name, ModulePassManager &mpm, TargetMachine &tm) {
#define BANG_MODULE_PASS(NAME, CREATE)                                         \
  if (name == NAME) {                                                          \
    mpm.addPass(CREATE);                                                       \
    return true;                                                               \
  }
#define BANG_FUNCTION_PASS(NAME, CREATE)                                       \
  if (name == NAME) {                                                          \
    mpm.addPass(createModuleToFunctionPassAdaptor(CREATE));                    \
    return true;                                                               \
  }
#include "codegen/Passes.def"
  return false;
}

/// The BANG passes, in order. Each line says why the pass is there.
void addBangPasses(ModulePassManager &mpm, TargetMachine &tm,
                   const CodegenOptions &options) {
  // mlu-ops' asm("sync;") is a barrier, its vector instructions calls of
  // device-library bodies (linked next); any other assembly is an error.
  mpm.addPass(LowerInlineAsmPass());
  // The intrinsics' bodies, so that they inline and vectorise in the kernel;
  // or only the runtime wrappers, and the kernel calls the native library.
  mpm.addPass(LinkDeviceLibPass(/*runtimeOnly=*/!inlinesIntrinsics(options)));
  // Every function compiled for this CPU's vector units, not generic x86-64.
  mpm.addPass(HostTargetPass(tm.getTargetCPU().str(),
                             tm.getTargetFeatureString().str()));
  // Kernels, template instances included, known by their annotation.
  mpm.addPass(FindKernelsPass());
  // --check: scalar loads and stores are checked against allocations too;
  // before the builtins and on-chip variables become context accesses.
  if (options.checkAccesses)
    mpm.addPass(CheckAccessesPass());
  // taskId & co. are fields of the task context.
  mpm.addPass(LowerBuiltinsPass());
  // __nram__ & co. get storage in each core's (or cluster's) memory.
  mpm.addPass(MemorySpacesPass());
  // --check=race: loads and stores of those variables are checked too, now
  // that they are addresses in the task's memories (for the race check).
  if (options.checkOnChipAccesses)
    mpm.addPass(CheckAccessesPass(CheckAccessesPass::OnChipVariables));
  // The cost model's estimate of plain C++ work in kernels.
  mpm.addPass(ScalarCostPass());
  // Division by zero, INT_MIN / -1 and __builtin_trap() are device faults
  // naming the line, not signals that end the process; frames are probed.
  mpm.addPass(TrapsAsFaultsPass());
  // A fault names the source line of the intrinsic that caused it.
  mpm.addPass(SourceLocationsPass());
  // One entry point per kernel for simrt, and the module descriptor.
  mpm.addPass(EntryWrapperPass());
}

/// The pass builder and its analyses, with LLVM's standard instrumentation
/// (so that -mllvm -time-passes, -print-after-all, ... work as in clang).
struct PassSetup {
  PassSetup(TargetMachine &tm, int optLevel, LLVMContext &context)
      : instrumentation(context, /*DebugLogging=*/false),
        pb(&tm, tuning(optLevel), std::nullopt, &callbacks) {
    instrumentation.registerCallbacks(callbacks, &mam);
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
  }
  static PipelineTuningOptions tuning(int optLevel) {
    PipelineTuningOptions pto;
    pto.LoopVectorization = optLevel >= 2;
    pto.SLPVectorization = optLevel >= 2;
    pto.LoopUnrolling = optLevel >= 1;
    pto.LoopInterleaving = optLevel >= 2;
    return pto;
  }
  LoopAnalysisManager lam;
  FunctionAnalysisManager fam;
  CGSCCAnalysisManager cgam;
  ModuleAnalysisManager mam;
  PassInstrumentationCallbacks callbacks;
  StandardInstrumentations instrumentation;
  PassBuilder pb;
};

Error run(Module &m, const CodegenOptions &options,
          function_ref<Error(ModulePassManager &, PassSetup &, TargetMachine &)>
              build) {
  auto tm = createHostTargetMachine(options.optLevel);
  if (!tm)
    return tm.takeError();
  m.setTargetTriple((*tm)->getTargetTriple().str());
  m.setDataLayout((*tm)->createDataLayout());
  ScopedCodegenDiagnostics diags(m.getContext(), options.diagnostics);
  PassSetup setup(**tm, options.optLevel, m.getContext());
  ModulePassManager mpm;
  if (Error e = build(mpm, setup, **tm))
    return e;
  mpm.run(m, setup.mam);
  setup.instrumentation.getTimePasses().print(); // -mllvm -time-passes
  if (diags.errors())
    return diags.takeError();
  if (verifyModule(m, &errs()))
    return createStringError(inconvertibleErrorCode(),
                             "internal compiler error: invalid IR after "
                             "codegen (please report this)");
  return Error::success();
}

} // namespace

void bangc::initializeHostTarget() {
  static bool initialised = [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
    InitializeNativeTargetAsmParser();
    return true;
  }();
  (void)initialised;
}

Expected<std::unique_ptr<TargetMachine>>
bangc::createHostTargetMachine(int optLevel) {
  initializeHostTarget();
  auto jtmb = orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb)
    return jtmb.takeError();
  jtmb->setCodeGenOptLevel(optLevel == 0   ? CodeGenOptLevel::None
                           : optLevel == 1 ? CodeGenOptLevel::Less
                           : optLevel == 2 ? CodeGenOptLevel::Default
                                           : CodeGenOptLevel::Aggressive);
  // What LLJIT asks for when it links with JITLink: objects written here
  // (`compile -c`, the compile cache) are the ones the JIT runs.
  jtmb->setRelocationModel(Reloc::PIC_);
  jtmb->setCodeModel(CodeModel::Small);
  return jtmb->createTargetMachine();
}

bool bangc::inlinesIntrinsics(const CodegenOptions &options) {
  if (!options.nativeDeviceLib)
    return true;
  return options.inlineIntrinsics.value_or(options.optLevel >= 3);
}

Error bangc::optimizeDeviceLibrary(Module &m, int optLevel) {
  CodegenOptions options;
  options.optLevel = optLevel;
  return run(
      m, options,
      [&](ModulePassManager &mpm, PassSetup &setup, TargetMachine &tm) {
        mpm.addPass(HostTargetPass(tm.getTargetCPU().str(),
                                   tm.getTargetFeatureString().str()));
        mpm.addPass(setup.pb.buildPerModuleDefaultPipeline(levelOf(optLevel)));
        mpm.addPass(
            createModuleToFunctionPassAdaptor(WidenHalfComparesPass(tm)));
        return Error::success();
      });
}

/// LLVM's -O<n> pipeline for the host, then the widened half compares.
static void addOptimizationPipeline(ModulePassManager &mpm, PassSetup &setup,
                                    TargetMachine &tm, int optLevel) {
  OptimizationLevel level = levelOf(optLevel);
  mpm.addPass(level == OptimizationLevel::O0
                  ? setup.pb.buildO0DefaultPipeline(level)
                  : setup.pb.buildPerModuleDefaultPipeline(level));
  // Last: InstCombine would fold the widened compares back.
  mpm.addPass(createModuleToFunctionPassAdaptor(WidenHalfComparesPass(tm)));
  // Loops look at the launch's stop flag (--timeout), after vectorisation.
  mpm.addPass(TimeoutPollsPass());
}

Error bangc::optimizeModule(Module &m, const CodegenOptions &options) {
  return run(m, options,
             [&](ModulePassManager &mpm, PassSetup &setup, TargetMachine &tm) {
               addBangPasses(mpm, tm, options);
               addOptimizationPipeline(mpm, setup, tm, options.optLevel);
               return Error::success();
             });
}

Error bangc::runBangPasses(Module &m, const CodegenOptions &options) {
  return run(m, options,
             [&](ModulePassManager &mpm, PassSetup &, TargetMachine &tm) {
               addBangPasses(mpm, tm, options);
               return Error::success();
             });
}

Error bangc::runOptimizationPipeline(Module &m, const CodegenOptions &options) {
  return run(m, options,
             [&](ModulePassManager &mpm, PassSetup &setup, TargetMachine &tm) {
               addOptimizationPipeline(mpm, setup, tm, options.optLevel);
               return Error::success();
             });
}

Error bangc::runPassPipeline(Module &m, StringRef pipeline,
                             const CodegenOptions &options) {
  return run(m, options,
             [&](ModulePassManager &mpm, PassSetup &setup,
                 TargetMachine &tm) -> Error {
               SmallVector<StringRef, 8> names;
               pipeline.split(names, ',', -1, false);
               for (StringRef name : names) {
                 name = name.trim();
                 if (parseBangPass(name, mpm, tm))
                   continue;
                 if (Error e = setup.pb.parsePassPipeline(mpm, name))
                   return createStringError(inconvertibleErrorCode(),
                                            "unknown pass '" + name +
                                                "': " + toString(std::move(e)));
               }
               return Error::success();
             });
}
