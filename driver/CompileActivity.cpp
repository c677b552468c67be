//===- CompileActivity.cpp - The compiles running in this process ---------===//
//
// A map from scope id to compile, under a mutex: scopes are entered once
// per compile, so a lock costs nothing next to the compile.
//
//===----------------------------------------------------------------------===//
#include "driver/CompileActivity.h"

#include <map>
#include <mutex>

using namespace bangsim;

namespace {

struct Registry {
  std::mutex lock;
  uint64_t nextId = 1;
  std::map<uint64_t, RunningCompile> running; ///< by id: the oldest first
};

Registry &registry() {
  static Registry r;
  return r;
}

} // namespace

CompileScope::CompileScope(llvm::StringRef name) {
  Registry &r = registry();
  std::lock_guard<std::mutex> guard(r.lock);
  id = r.nextId++;
  r.running.emplace(
      id, RunningCompile{id, name.str(), std::chrono::steady_clock::now()});
}

CompileScope::~CompileScope() {
  Registry &r = registry();
  std::lock_guard<std::mutex> guard(r.lock);
  r.running.erase(id);
}

std::optional<RunningCompile> bangsim::oldestRunningCompile() {
  Registry &r = registry();
  std::lock_guard<std::mutex> guard(r.lock);
  if (r.running.empty())
    return std::nullopt;
  return r.running.begin()->second;
}
