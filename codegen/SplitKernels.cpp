//===- SplitKernels.cpp - Partition a module by kernel --------------------===//
#include "codegen/SplitKernels.h"

#include "bangsim/KernelABI.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <algorithm>

using namespace llvm;
using namespace bangc;

namespace {

using ValueSet = SmallPtrSet<const GlobalValue *, 32>;

bool isEntryWrapper(const Function &f) {
  return !f.isDeclaration() && f.getName().starts_with("__bangsim_entry.");
}

/// Values that may be defined in several parts: their copies are never
/// told apart (functions and constants without external linkage).
bool isDuplicable(const GlobalValue &gv) {
  if (auto *var = dyn_cast<GlobalVariable>(&gv))
    if (!var->isConstant())
      return false;
  return gv.hasLocalLinkage() || gv.hasLinkOnceLinkage() ||
         gv.hasWeakLinkage() || gv.hasAvailableExternallyLinkage();
}

/// Adds the global values `c` refers to. From data (`fromData`), functions
/// with external linkage are only addresses: they are not followed.
void addReferences(const Constant *c, bool fromData,
                   SmallPtrSetImpl<const Constant *> &seen,
                   SmallVectorImpl<const GlobalValue *> &out) {
  if (!seen.insert(c).second)
    return;
  if (auto *gv = dyn_cast<GlobalValue>(c)) {
    auto *f = dyn_cast<Function>(gv);
    if (!(fromData && f && !isDuplicable(*f)))
      out.push_back(gv);
    return;
  }
  for (const Use &op : c->operands())
    addReferences(cast<Constant>(op.get()), fromData, seen, out);
}

/// The global values the definition of `gv` refers to.
SmallVector<const GlobalValue *, 16> referencesOf(const GlobalValue &gv) {
  SmallVector<const GlobalValue *, 16> out;
  SmallPtrSet<const Constant *, 32> seen;
  if (auto *var = dyn_cast<GlobalVariable>(&gv)) {
    if (var->hasInitializer())
      addReferences(var->getInitializer(), /*fromData=*/true, seen, out);
    return out;
  }
  for (const BasicBlock &bb : cast<Function>(gv))
    for (const Instruction &inst : bb)
      for (const Use &op : inst.operands())
        if (auto *c = dyn_cast<Constant>(op.get()))
          addReferences(c, /*fromData=*/false, seen, out);
  return out;
}

/// Everything `roots` reach through definitions.
ValueSet reach(ArrayRef<const GlobalValue *> roots) {
  ValueSet out;
  SmallVector<const GlobalValue *, 32> work(roots.begin(), roots.end());
  while (!work.empty()) {
    const GlobalValue *gv = work.pop_back_val();
    if (!out.insert(gv).second || gv->isDeclaration())
      continue;
    for (const GlobalValue *ref : referencesOf(*gv))
      work.push_back(ref);
  }
  return out;
}

size_t sizeOf(const ValueSet &values) {
  size_t n = 0;
  for (const GlobalValue *gv : values)
    if (auto *f = dyn_cast<Function>(gv))
      n += f->getInstructionCount();
  return n;
}

/// The kernels' entry wrappers grouped into at most `parts` parts of about
/// equal size (largest first, each to the smallest part so far).
std::vector<std::vector<const GlobalValue *>> groupKernels(Module &m,
                                                           unsigned parts) {
  std::vector<std::pair<size_t, const Function *>> kernels;
  for (const Function &f : m)
    if (isEntryWrapper(f))
      kernels.push_back({sizeOf(reach({&f})), &f});
  std::stable_sort(kernels.begin(), kernels.end(),
                   [](auto &a, auto &b) { return a.first > b.first; });
  parts = std::min<unsigned>(parts, kernels.size());
  std::vector<std::vector<const GlobalValue *>> groups(parts);
  std::vector<size_t> load(parts, 0);
  for (auto &[size, f] : kernels) {
    size_t i = std::min_element(load.begin(), load.end()) - load.begin();
    groups[i].push_back(f);
    load[i] += size;
  }
  return groups;
}

/// Mutable variables local to the module become external, so that the one
/// part that defines them can be referred to by the others.
void externalizeMutableLocals(Module &m) {
  for (GlobalVariable &var : m.globals())
    if (var.hasLocalLinkage() && !var.isConstant()) {
      var.setLinkage(GlobalValue::ExternalLinkage);
      var.setVisibility(GlobalValue::DefaultVisibility);
    }
}

bool splittable(const Module &m) { return m.alias_empty() && m.ifunc_empty(); }

} // namespace

std::vector<std::unique_ptr<Module>> bangc::splitByKernel(Module &m,
                                                          unsigned parts) {
  std::vector<std::unique_ptr<Module>> out;
  if (parts < 2 || !splittable(m))
    return out;
  std::vector<std::vector<const GlobalValue *>> groups = groupKernels(m, parts);
  if (groups.size() < 2)
    return out;
  if (GlobalVariable *desc = m.getNamedGlobal(BANGSIM_MODULE_DESC_SYMBOL))
    groups[0].push_back(desc);
  externalizeMutableLocals(m);

  std::vector<ValueSet> reached;
  for (const auto &roots : groups)
    reached.push_back(reach(roots));
  // Definitions no kernel reaches still go somewhere: part 0.
  size_t before = groups[0].size();
  for (const GlobalValue &gv : m.global_values())
    if (!gv.isDeclaration() && !gv.hasAppendingLinkage() &&
        none_of(reached, [&](const ValueSet &r) { return r.count(&gv); }))
      groups[0].push_back(&gv);
  if (groups[0].size() != before)
    reached[0] = reach(groups[0]);
  // A value is owned by the first part that reaches it (part 0 if none).
  DenseMap<const GlobalValue *, unsigned> owner;
  for (unsigned p = reached.size(); p-- > 0;)
    for (const GlobalValue *gv : reached[p])
      owner[gv] = p;

  for (unsigned p = 0; p < groups.size(); ++p) {
    auto defines = [&](const GlobalValue *gv) {
      if (!reached[p].count(gv))
        return gv->hasAppendingLinkage() && p == 0;
      // Code and constants are copied to every part that reaches them;
      // state is defined by its owner only.
      auto *var = dyn_cast<GlobalVariable>(gv);
      return owner.lookup(gv) == p || !var || var->isConstant();
    };
    ValueToValueMapTy map;
    std::unique_ptr<Module> part = CloneModule(m, map, defines);
    // Reached external functions and constants owned elsewhere: copies for
    // the optimiser only.
    for (const GlobalValue *gv : reached[p]) {
      if (gv->isDeclaration() || owner.lookup(gv) == p || isDuplicable(*gv))
        continue;
      auto *copy = cast<GlobalValue>(map[gv]);
      if (copy->isDeclaration())
        continue;
      copy->setLinkage(GlobalValue::AvailableExternallyLinkage);
      if (auto *object = dyn_cast<GlobalObject>(copy))
        object->setComdat(nullptr);
    }
    // llvm.used and the like live in part 0 only.
    if (p > 0)
      for (GlobalVariable &var : make_early_inc_range(part->globals()))
        if (var.hasAppendingLinkage())
          var.eraseFromParent();
    out.push_back(std::move(part));
  }
  return out;
}
