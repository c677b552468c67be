//===- BangChecks.cpp - BANG language checks on the Clang AST -------------===//
#include "frontend/BangChecks.h"

#include "bang/Intrinsics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace clang;
using namespace bangc;

namespace {

enum Space { Nram, Wram, Sram, NumSpaces };
const char *const spaceNames[NumSpaces] = {"NRAM", "WRAM", "SRAM"};

/// The least alignment of an on-chip object in the device's layout
/// (codegen/MemorySpaces.cpp).
constexpr int64_t LayoutAlign = 64;

bool hasAnnotation(const Decl *d, llvm::StringRef what) {
  for (const AnnotateAttr *attr : d->specific_attrs<AnnotateAttr>())
    if (attr->getAnnotation() == what)
      return true;
  return false;
}

bool isKernel(const FunctionDecl *fd) { return hasAnnotation(fd, "bang.kernel"); }

std::optional<Space> spaceOf(const VarDecl *vd) {
  if (hasAnnotation(vd, "bang.nram"))
    return Nram;
  if (hasAnnotation(vd, "bang.wram"))
    return Wram;
  if (hasAnnotation(vd, "bang.sram"))
    return Sram;
  return std::nullopt;
}

int64_t capacity(const bangsim::DeviceSpec &spec, Space s) {
  switch (s) {
  case Nram:
    return spec.nramBytes;
  case Wram:
    return spec.wramBytes;
  default:
    return spec.sramBytes;
  }
}

/// Collects every function whose body has been built: kernels, their
/// template instantiations, and everything else.
class KernelFinder : public RecursiveASTVisitor<KernelFinder> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitFunctionDecl(FunctionDecl *fd) {
    if (isKernel(fd))
      kernels.insert(fd->getCanonicalDecl());
    return true;
  }
  bool VisitFunctionTemplateDecl(FunctionTemplateDecl *ftd) {
    if (ftd->isThisDeclarationADefinition() && isKernel(ftd->getTemplatedDecl()))
      kernelTemplates.push_back(ftd);
    return true;
  }
  llvm::SetVector<FunctionDecl *> kernels;
  std::vector<FunctionTemplateDecl *> kernelTemplates;
};

/// What one function body refers to: functions and memory-space variables.
class BodyScanner : public RecursiveASTVisitor<BodyScanner> {
public:
  bool VisitDeclRefExpr(DeclRefExpr *e) {
    if (auto *fd = dyn_cast<FunctionDecl>(e->getDecl()))
      callees.push_back({fd, e->getExprLoc()});
    else if (auto *vd = dyn_cast<VarDecl>(e->getDecl()))
      if (spaceOf(vd))
        vars.insert(vd->getCanonicalDecl());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *e) {
    if (auto *fd = dyn_cast<FunctionDecl>(e->getMemberDecl()))
      callees.push_back({fd, e->getExprLoc()});
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *e) {
    callees.push_back({e->getConstructor(), e->getExprLoc()});
    return true;
  }
  bool VisitVarDecl(VarDecl *vd) {
    if (spaceOf(vd))
      vars.insert(vd->getCanonicalDecl());
    return true;
  }
  std::vector<std::pair<FunctionDecl *, SourceLocation>> callees;
  llvm::SetVector<VarDecl *> vars;
};

/// The enumerator of `dir`'s enum type with value `value`, if any.
const EnumConstantDecl *enumeratorOf(const ParmVarDecl *dir,
                                     const llvm::APSInt &value) {
  const auto *type = dir->getType()->getAs<EnumType>();
  if (!type)
    return nullptr;
  for (const EnumConstantDecl *e : type->getDecl()->enumerators())
    if (llvm::APSInt::isSameValue(e->getInitVal(), value))
      return e;
  return nullptr;
}

/// Calls to the inter-cluster form of __memcpy and __memcpy_async (five
/// arguments, the last a destination cluster) whose direction is a constant
/// other than SRAM2SRAM.
class ClusterCopyFinder : public RecursiveASTVisitor<ClusterCopyFinder> {
public:
  explicit ClusterCopyFinder(ASTContext &ctx) : ctx(ctx) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitCallExpr(CallExpr *call) {
    const FunctionDecl *fd = call->getDirectCallee();
    if (!fd || !isClusterCopy(fd))
      return true;
    const Expr *dir = call->getArg(3);
    Expr::EvalResult value;
    if (dir->isValueDependent() || !dir->EvaluateAsInt(value, ctx))
      return true;
    const EnumConstantDecl *e =
        enumeratorOf(fd->getParamDecl(3), value.Val.getInt());
    if (!e || e->getName() != "SRAM2SRAM")
      bad.push_back({call, e, value.Val.getInt()});
    return true;
  }

  struct Bad {
    const CallExpr *call;
    const EnumConstantDecl *direction; ///< null if no enumerator has the value
    llvm::APSInt value;
  };
  std::vector<Bad> bad;

private:
  static bool isClusterCopy(const FunctionDecl *fd) {
    return fd->getIdentifier() && fd->getNumParams() == 5 &&
           (fd->getName() == "__memcpy" || fd->getName() == "__memcpy_async");
  }
  ASTContext &ctx;
};

/// Variables of static storage whose initialisation runs code (a call, a
/// constructor that is not constexpr) or that have a destructor. Device
/// code has no start-up or exit: CUDA refuses them for __device__
/// variables, and here (a .mlu is device code) they would read as zeros.
/// System headers are not checked (their globals are the host library's).
class DynamicInitFinder : public RecursiveASTVisitor<DynamicInitFinder> {
public:
  explicit DynamicInitFinder(ASTContext &ctx) : ctx(ctx) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitVarDecl(VarDecl *vd) {
    if (!vd->hasGlobalStorage() || vd->isTemplated() ||
        vd->getType()->isDependentType() || !vd->isThisDeclarationADefinition() ||
        ctx.getSourceManager().isInSystemHeader(vd->getLocation()))
      return true;
    if (vd->hasInit() && !vd->hasConstantInitialization())
      bad.push_back({vd, false});
    else if (vd->needsDestruction(ctx) == QualType::DK_cxx_destructor)
      bad.push_back({vd, true});
    return true;
  }
  struct Bad {
    VarDecl *var;
    bool destructor; ///< else its initialiser
  };
  std::vector<Bad> bad;

private:
  ASTContext &ctx;
};

class BangChecks : public ASTConsumer {
public:
  BangChecks(CompilerInstance &ci, const bangsim::DeviceSpec &spec)
      : ci(ci), spec(spec) {}

  /// In CUDA mode (a host + device source) a file-scope on-chip variable is
  /// device memory, as CUDA's __shared__ is: the attribute goes on before
  /// any kernel refers to it, so that Clang lets device code use it. A
  /// block-scope one stays a local of device code, as in a device-only
  /// source (it may have an initializer, which CUDA's __shared__ may not).
  bool HandleTopLevelDecl(DeclGroupRef group) override {
    if (!ci.getLangOpts().CUDA)
      return true;
    for (Decl *d : group)
      markOnChip(d);
    return true;
  }

  void markOnChip(Decl *d) {
    if (auto *vd = dyn_cast<VarDecl>(d)) {
      if (spaceOf(vd) && !vd->hasAttr<CUDASharedAttr>())
        vd->addAttr(CUDASharedAttr::CreateImplicit(vd->getASTContext()));
    } else if (auto *dc = dyn_cast<DeclContext>(d)) {
      if (isa<NamespaceDecl, LinkageSpecDecl, ExportDecl>(d))
        for (Decl *inner : dc->decls())
          markOnChip(inner);
    }
  }

  void HandleTranslationUnit(ASTContext &ctx) override {
    if (ci.getDiagnostics().hasErrorOccurred())
      return; // Clang has said what is wrong; do not pile on.
    KernelFinder finder;
    finder.TraverseDecl(ctx.getTranslationUnitDecl());
    for (FunctionTemplateDecl *ftd : finder.kernelTemplates)
      checkInstantiated(ftd);
    for (FunctionDecl *kernel : finder.kernels)
      checkKernel(ctx, kernel);
    checkClusterCopies(ctx);
    // In CUDA mode Clang's Sema refuses dynamic initialisation of device
    // variables itself; file-scope host variables may have it.
    if (!ci.getLangOpts().CUDA)
      checkDynamicInit(ctx);
  }

private:
  DiagnosticsEngine &diags() { return ci.getDiagnostics(); }

  template <unsigned N>
  DiagnosticBuilder report(SourceLocation loc, DiagnosticsEngine::Level level,
                           const char (&format)[N]) {
    return diags().Report(loc, diags().getCustomDiagID(level, format));
  }

  void checkInstantiated(FunctionTemplateDecl *ftd) {
    if (!ftd->specializations().empty())
      return;
    report(ftd->getLocation(), DiagnosticsEngine::Warning,
           "kernel template %0 is never instantiated, so no kernel is "
           "emitted for it; instantiate it explicitly, e.g. 'template "
           "__mlu_global__ void %0<float>(...);'")
        << ftd->getDeclName();
  }

  /// The inter-cluster __memcpy copies SRAM to SRAM only: a constant other
  /// direction is an error (a run-time one is a device fault).
  void checkClusterCopies(ASTContext &ctx) {
    ClusterCopyFinder finder(ctx);
    finder.TraverseDecl(ctx.getTranslationUnitDecl());
    llvm::DenseSet<SourceLocation> reported;
    for (const ClusterCopyFinder::Bad &b : finder.bad) {
      const Expr *dir = b.call->getArg(3);
      if (!reported.insert(dir->getExprLoc()).second)
        continue; // the same call in another template instantiation
      std::string name =
          b.direction ? b.direction->getName().str()
                      : "direction " + std::to_string(b.value.getExtValue());
      report(dir->getExprLoc(), DiagnosticsEngine::Error,
             "%0 with a destination cluster copies SRAM to SRAM only: the "
             "direction must be SRAM2SRAM, not %1")
          << b.call->getDirectCallee() << name << dir->getSourceRange();
    }
  }

  void checkDynamicInit(ASTContext &ctx) {
    DynamicInitFinder finder(ctx);
    finder.TraverseDecl(ctx.getTranslationUnitDecl());
    for (const DynamicInitFinder::Bad &b : finder.bad) {
      if (b.destructor)
        report(b.var->getLocation(), DiagnosticsEngine::Error,
               "%0 has a destructor: device variables of static storage "
               "cannot, as device code has no exit to run it (CUDA's rule "
               "for __device__ variables)")
            << b.var;
      else
        report(b.var->getInit()->getBeginLoc(), DiagnosticsEngine::Error,
               "dynamic initialization is not supported for device "
               "variables: %0 must be initialized with a constant "
               "expression (device code has no start-up to run its "
               "initializer; CUDA's rule for __device__ variables)")
            << b.var << b.var->getInit()->getSourceRange();
    }
  }

  void checkKernel(ASTContext &ctx, FunctionDecl *kernel) {
    if (kernel->isDependentContext())
      return;
    FunctionDecl *def = kernel;
    if (const FunctionDecl *d = kernel->getDefinition())
      def = const_cast<FunctionDecl *>(d);
    if (!def->getReturnType()->isVoidType()) {
      report(def->getLocation(), DiagnosticsEngine::Error,
             "kernel %0 must return void, not %1")
          << def << def->getReturnType();
      return;
    }
    if (!checkParameters(ctx, def))
      return;
    if (!def->hasBody())
      return;
    checkReachable(ctx, def);
  }

  /// What a launch passes (the kernel ABI's signature letters): pointers,
  /// bool, enums, integers of 8 to 64 bits, half, float and double, and
  /// structs, classes and unions by value when they are trivially copyable
  /// (a launch copies their bytes; pointers in them are values like any
  /// other). Anything else (a reference, long double, a wider integer, a
  /// class with a copy constructor, destructor or virtual functions) is an
  /// error at the parameter, in the host + device compile before its launch.
  bool checkParameters(ASTContext &ctx, FunctionDecl *kernel) {
    bool ok = true;
    for (const ParmVarDecl *param : kernel->parameters()) {
      QualType t = param->getType().getCanonicalType();
      if (t->isRecordType() && !t->isIncompleteType()) {
        if (t.isTriviallyCopyableType(ctx))
          continue;
        report(param->getLocation(), DiagnosticsEngine::Error,
               "kernel parameter %0 of %1 has type %2, which is not "
               "trivially copyable (a copy constructor, a destructor or "
               "virtual functions); a launch copies a struct's bytes, so a "
               "kernel takes only trivially copyable ones by value")
            << unsigned(param->getFunctionScopeIndex() + 1) << kernel
            << param->getType() << param->getSourceRange();
        ok = false;
        continue;
      }
      bool passable = t->isPointerType() || t->isNullPtrType();
      if (const auto *e = t->getAs<EnumType>())
        t = e->getDecl()->getIntegerType().getCanonicalType();
      if (t->isBooleanType() ||
          (t->isIntegerType() && ctx.getTypeSize(t) <= 64))
        passable = true;
      if (t->isFloat16Type() || t->isHalfType() ||
          t->isSpecificBuiltinType(BuiltinType::Float) ||
          t->isSpecificBuiltinType(BuiltinType::Double))
        passable = true;
      if (passable)
        continue;
      report(param->getLocation(), DiagnosticsEngine::Error,
             "kernel parameter %0 of %1 has type %2, which cannot be passed "
             "to a kernel; use pointers, scalars and trivially copyable "
             "structs")
          << unsigned(param->getFunctionScopeIndex() + 1) << kernel
          << param->getType() << param->getSourceRange();
      ok = false;
    }
    return ok;
  }

  /// Walks every function `kernel` reaches, checking calls, and sums the
  /// static memory-space variables they use.
  void checkReachable(ASTContext &ctx, FunctionDecl *kernel) {
    llvm::SetVector<const FunctionDecl *> seen;
    std::vector<const FunctionDecl *> work{kernel};
    llvm::SetVector<VarDecl *> vars;
    seen.insert(kernel);
    while (!work.empty()) {
      const FunctionDecl *fd = work.back();
      work.pop_back();
      BodyScanner scanner;
      scanner.TraverseStmt(fd->getBody());
      vars.insert(scanner.vars.begin(), scanner.vars.end());
      for (auto [callee, loc] : scanner.callees) {
        const FunctionDecl *def = callee->getDefinition();
        if (def && def->hasBody()) {
          if (seen.insert(def))
            work.push_back(def);
          continue;
        }
        checkCallable(callee, loc);
      }
    }
    checkStaticBytes(ctx, kernel, vars);
  }

  void checkCallable(FunctionDecl *callee, SourceLocation loc) {
    if (!reportedCallees.insert(callee->getCanonicalDecl()).second)
      return;
    if (callee->getBuiltinID() || callee->isImplicit() ||
        callee->isDefaulted() || callee->isDeleted() || callee->isPureVirtual())
      return;
    if (callee->getIdentifier() && lookupIntrinsic(callee->getName()))
      return;
    const SourceManager &sm = ci.getSourceManager();
    if (sm.isInSystemHeader(callee->getLocation()))
      return;
    report(loc, DiagnosticsEngine::Error,
           "call to %0, which has no definition; device code can call only "
           "functions defined in the program, BANG intrinsics and the C "
           "library")
        << callee;
    report(callee->getLocation(), DiagnosticsEngine::Note,
           "%0 declared here")
        << callee;
  }

  /// The bytes `vd` can take in the device's layout at most.
  /// codegen/MemorySpaces.cpp starts every on-chip object at a boundary of
  /// max(its alignment, LayoutAlign) after the one before: an object takes
  /// its size rounded up to LayoutAlign, plus up to (alignment - LayoutAlign)
  /// of padding before it if it is aligned more. With all alignments at most
  /// LayoutAlign and a capacity that is a multiple of it (the spec gives KiB),
  /// the sum fits exactly when the layout does.
  static int64_t layoutBytes(ASTContext &ctx, const VarDecl *vd,
                             int64_t bytes) {
    int64_t align = ctx.getDeclAlign(vd).getQuantity();
    int64_t before = align > LayoutAlign ? align - LayoutAlign : 0;
    if (bytes > INT64_MAX - LayoutAlign)
      return INT64_MAX;
    return saturatingAdd(before, int64_t(llvm::alignTo(bytes, LayoutAlign)));
  }

  static int64_t saturatingAdd(int64_t a, int64_t b) {
    int64_t sum;
    return llvm::AddOverflow(a, b, sum) ? INT64_MAX : sum;
  }

  void checkStaticBytes(ASTContext &ctx, FunctionDecl *kernel,
                        const llvm::SetVector<VarDecl *> &vars) {
    for (int s = 0; s < NumSpaces; ++s) {
      std::vector<std::pair<int64_t, VarDecl *>> decls;
      int64_t total = 0, placed = 0;
      for (VarDecl *vd : vars) {
        if (spaceOf(vd) != Space(s) || vd->getType()->isDependentType() ||
            vd->getType()->isIncompleteType())
          continue;
        int64_t bytes = ctx.getTypeSizeInChars(vd->getType()).getQuantity();
        // Saturating sums: sixteen 2^59-byte arrays must not wrap to 0 and
        // pass (any sum at INT64_MAX is over every capacity anyway).
        total = saturatingAdd(total, bytes);
        placed = saturatingAdd(placed, layoutBytes(ctx, vd, bytes));
        decls.push_back({bytes, vd});
      }
      int64_t cap = capacity(spec, Space(s));
      if (placed <= cap)
        continue;
      if (total > cap)
        report(kernel->getLocation(), DiagnosticsEngine::Error,
               "kernel %0 uses %1 bytes of static %2, more than the %3 bytes "
               "the device '%4' has")
            << kernel << std::to_string(total) << spaceNames[s]
            << std::to_string(cap) << spec.name;
      else
        report(kernel->getLocation(), DiagnosticsEngine::Error,
               "kernel %0 uses %1 bytes of static %2, which take up to %3 "
               "bytes with each object placed at a %4-byte boundary, more "
               "than the %5 bytes the device '%6' has")
            << kernel << std::to_string(total) << spaceNames[s]
            << std::to_string(placed) << std::to_string(LayoutAlign)
            << std::to_string(cap) << spec.name;
      std::stable_sort(decls.begin(), decls.end(),
                       [](auto &a, auto &b) { return a.first > b.first; });
      for (size_t i = 0; i < decls.size() && i < 3; ++i)
        report(decls[i].second->getLocation(), DiagnosticsEngine::Note,
               "%0 uses %1 bytes of %2")
            << decls[i].second << std::to_string(decls[i].first)
            << spaceNames[s];
    }
  }

  CompilerInstance &ci;
  bangsim::DeviceSpec spec;
  llvm::DenseSet<const Decl *> reportedCallees;
};

} // namespace

std::unique_ptr<ASTConsumer>
bangc::createBangChecks(CompilerInstance &ci, const bangsim::DeviceSpec &spec) {
  return std::make_unique<BangChecks>(ci, spec);
}
