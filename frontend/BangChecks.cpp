//===- BangChecks.cpp - BANG language checks on the Clang AST -------------===//
#include "frontend/BangChecks.h"
#include "frontend/DeviceCalls.h"

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

/// What one function body (or a variable's initialiser) refers to:
/// functions, with the constructors, destructors, virtual functions and
/// allocation functions that code reaches without naming them; variables of
/// static storage; memory-space variables. Unevaluated operands (sizeof,
/// decltype, noexcept, typeid of a type) refer to nothing.
class BodyScanner : public RecursiveASTVisitor<BodyScanner> {
public:
  bool shouldVisitImplicitCode() const { return true; }
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr *) {
    return true;
  }
  bool TraverseCXXNoexceptExpr(CXXNoexceptExpr *) { return true; }
  bool TraverseDecltypeTypeLoc(DecltypeTypeLoc) { return true; }
  bool TraverseTypeOfExprTypeLoc(TypeOfExprTypeLoc) { return true; }
  bool TraverseCXXTypeidExpr(CXXTypeidExpr *e) {
    return !e->isPotentiallyEvaluated() ||
           RecursiveASTVisitor::TraverseCXXTypeidExpr(e);
  }

  bool VisitDeclRefExpr(DeclRefExpr *e) {
    refer(e->getDecl(), e->getExprLoc());
    return true;
  }
  bool VisitMemberExpr(MemberExpr *e) {
    refer(e->getMemberDecl(), e->getExprLoc());
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *e) {
    callees.push_back({e->getConstructor(), e->getExprLoc()});
    constructed(e->getConstructor()->getParent(), e->getExprLoc());
    return true;
  }
  bool VisitCXXNewExpr(CXXNewExpr *e) {
    if (FunctionDecl *fd = e->getOperatorNew())
      callees.push_back({fd, e->getExprLoc()});
    return true;
  }
  bool VisitCXXDeleteExpr(CXXDeleteExpr *e) {
    if (FunctionDecl *fd = e->getOperatorDelete())
      callees.push_back({fd, e->getExprLoc()});
    if (const CXXRecordDecl *rd = e->getDestroyedType()->getAsCXXRecordDecl())
      destroyed(rd, e->getExprLoc());
    return true;
  }
  bool VisitCXXBindTemporaryExpr(CXXBindTemporaryExpr *e) {
    if (const CXXDestructorDecl *dtor = e->getTemporary()->getDestructor())
      callees.push_back(
          {const_cast<CXXDestructorDecl *>(dtor), e->getExprLoc()});
    return true;
  }
  bool VisitVarDecl(VarDecl *vd) {
    if (spaceOf(vd))
      vars.insert(vd->getCanonicalDecl());
    if (const CXXRecordDecl *rd =
            vd->getType()->getBaseElementTypeUnsafe()->getAsCXXRecordDecl())
      destroyed(rd, vd->getLocation());
    return true;
  }
  std::vector<std::pair<FunctionDecl *, SourceLocation>> callees;
  /// Variables of static storage (not locals), where they are used.
  std::vector<std::pair<VarDecl *, SourceLocation>> globals;
  llvm::SetVector<VarDecl *> vars;

private:
  void refer(ValueDecl *d, SourceLocation loc) {
    if (auto *fd = dyn_cast<FunctionDecl>(d)) {
      callees.push_back({fd, loc});
    } else if (auto *vd = dyn_cast<VarDecl>(d)) {
      if (spaceOf(vd))
        vars.insert(vd->getCanonicalDecl());
      if (vd->hasGlobalStorage())
        globals.push_back({vd, loc});
    }
  }
  /// Constructing an object fills in its vtable: every virtual function of
  /// its class and bases may be called through it.
  void constructed(const CXXRecordDecl *rd, SourceLocation loc) {
    if (!rd || !rd->hasDefinition())
      return;
    rd = rd->getDefinition();
    auto virtuals = [&](const CXXRecordDecl *c) {
      for (CXXMethodDecl *m : c->methods())
        if (m->isVirtual())
          callees.push_back({m, loc});
      return true;
    };
    virtuals(rd);
    rd->forallBases(virtuals);
    destroyed(rd, loc);
  }
  void destroyed(const CXXRecordDecl *rd, SourceLocation loc) {
    if (!rd || !rd->hasDefinition())
      return;
    if (CXXDestructorDecl *dtor = rd->getDefinition()->getDestructor())
      if (!dtor->isTrivial())
        callees.push_back({dtor, loc});
  }
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
    checkOtherDeviceCode(ctx);
    checkFileScopeAsm(ctx);
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

  /// Walks every function `kernel` reaches, checking what they refer to,
  /// and sums the static memory-space variables they use.
  void checkReachable(ASTContext &ctx, FunctionDecl *kernel) {
    llvm::SetVector<VarDecl *> vars;
    walkDeviceCode(ctx, {kernel}, {}, vars);
    checkStaticBytes(ctx, kernel, vars);
  }

  /// Checks the device functions of a host + device source that no kernel
  /// reaches (__mlu_func__/__mlu_device__, not __mlu_host__ too). In a
  /// device-only source only what kernels reach is checked: mlu-ops' headers
  /// hold host helpers (tensor.h's memcmp) that cncc would compile for the
  /// host; if codegen emits one, the JIT refuses the module at load.
  void checkOtherDeviceCode(ASTContext &ctx) {
    if (!ci.getLangOpts().CUDA)
      return;
    DeviceCallRule rule(ctx);
    struct Finder : RecursiveASTVisitor<Finder> {
      bool shouldVisitTemplateInstantiations() const { return true; }
      bool shouldVisitLambdaBodies() const { return false; }
      bool VisitFunctionDecl(FunctionDecl *fd) {
        if (fd->doesThisDeclarationHaveABody() && !fd->isDependentContext())
          functions.push_back(fd);
        return true;
      }
      std::vector<const FunctionDecl *> functions;
    } finder;
    finder.TraverseDecl(ctx.getTranslationUnitDecl());
    std::vector<const FunctionDecl *> roots;
    for (const FunctionDecl *fd : finder.functions)
      if (rule.inUserFile(fd->getLocation()) && fd->hasAttr<CUDADeviceAttr>() &&
          !fd->hasAttr<CUDAHostAttr>())
        roots.push_back(fd);
    llvm::SetVector<VarDecl *> vars;
    walkDeviceCode(ctx, roots, {}, vars);
  }

  /// Walks the bodies of `roots`, the initialisers of `globals` and every
  /// function and initialiser they reach. What has no definition in the
  /// translation unit must be device code (DeviceCallRule); on-chip
  /// variables used are added to `vars`.
  void walkDeviceCode(ASTContext &ctx,
                      llvm::ArrayRef<const FunctionDecl *> roots,
                      llvm::ArrayRef<const VarDecl *> globals,
                      llvm::SetVector<VarDecl *> &vars) {
    DeviceCallRule rule(ctx);
    llvm::DenseSet<const Decl *> seen;
    std::vector<Stmt *> work;
    auto addFunction = [&](const FunctionDecl *def) {
      if (seen.insert(def).second && def->getBody())
        work.push_back(def->getBody());
    };
    auto addVariable = [&](const VarDecl *vd) {
      const VarDecl *withInit = nullptr;
      if (const Expr *init = vd->getAnyInitializer(withInit))
        if (seen.insert(withInit).second)
          work.push_back(const_cast<Expr *>(init));
    };
    for (const FunctionDecl *fd : roots)
      addFunction(fd);
    for (const VarDecl *vd : globals)
      addVariable(vd);
    while (!work.empty()) {
      Stmt *body = work.back();
      work.pop_back();
      BodyScanner scanner;
      scanner.TraverseStmt(body);
      vars.insert(scanner.vars.begin(), scanner.vars.end());
      for (auto [callee, loc] : scanner.callees) {
        const FunctionDecl *def = callee->getDefinition();
        if (def && def->hasBody()) {
          addFunction(def);
          continue;
        }
        checkCallable(rule, callee, loc);
      }
      for (auto [vd, loc] : scanner.globals) {
        const VarDecl *withInit = nullptr;
        if (vd->getAnyInitializer(withInit))
          addVariable(vd);
        else if (!vd->getDefinition(ctx))
          checkVariable(rule, vd, loc);
      }
    }
  }

  void checkCallable(const DeviceCallRule &rule, FunctionDecl *callee,
                     SourceLocation loc) {
    std::string why;
    if (rule.mayCall(callee, why) ||
        !reportedCallees.insert(callee->getCanonicalDecl()).second)
      return;
    report(loc, DiagnosticsEngine::Error,
           "device code cannot call or take the address of %0: %1; device "
           "code may call only functions the program defines, the BANG "
           "intrinsics and the C math and memory functions")
        << callee << why;
    report(callee->getLocation(), DiagnosticsEngine::Note, "%0 declared here")
        << callee;
  }

  void checkVariable(const DeviceCallRule &rule, VarDecl *vd,
                     SourceLocation loc) {
    if (rule.mayRefer(vd) ||
        !reportedCallees.insert(vd->getCanonicalDecl()).second)
      return;
    report(loc, DiagnosticsEngine::Error,
           "device code cannot use %0: it is a variable of the host, which "
           "the program does not define; device code may use only its own "
           "variables and the builtin ones (taskId, ...)")
        << vd;
    report(vd->getLocation(), DiagnosticsEngine::Note, "%0 declared here")
        << vd;
  }

  /// Assembly at file scope is host code the device cannot check: any
  /// outside the BANG headers is an error.
  void checkFileScopeAsm(ASTContext &ctx) {
    DeviceCallRule rule(ctx);
    struct Finder : RecursiveASTVisitor<Finder> {
      bool VisitFileScopeAsmDecl(FileScopeAsmDecl *d) {
        found.push_back(d);
        return true;
      }
      std::vector<FileScopeAsmDecl *> found;
    } finder;
    finder.TraverseDecl(ctx.getTranslationUnitDecl());
    for (FileScopeAsmDecl *d : finder.found)
      if (!rule.inDeviceHeader(d))
        report(d->getAsmLoc(), DiagnosticsEngine::Error,
               "file-scope assembly is not device code: the simulated "
               "device runs only compiled C++ and the inline assembly of "
               "docs/language.md");
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
