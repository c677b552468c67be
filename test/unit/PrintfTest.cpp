//===- PrintfTest.cpp - __bang_printf through the C++ host API ------------===//
//
// LaunchOptions::printfOut takes a launch's __bang_printf lines and
// LaunchOptions::printfLimit bounds them: whole lines, each prefixed with
// its task, in a UNION4 launch whose tasks print every line in pieces
// across barriers on several host threads; the lines over the limit are
// counted in one closing note; a line without '\n' ends with its task.
//
//===----------------------------------------------------------------------===//
#include "bangsim/Device.h"
#include "bangsim/Module.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <set>
#include <string>

using namespace bangsim;

namespace {

const char *const source = R"(
__mlu_global__ void talk(int lines) {
  for (int i = 0; i < lines; ++i) {
    __bang_printf("line %d", i);
    __sync_all();
    __bang_printf(" of task %d", taskId);
    __sync_all();
    __bang_printf("\n");
  }
  __bang_printf("last of %d", taskId);
}
)";

struct Printing {
  Printing() {
    auto m = Module::compileString("talk.mlu", source, spec);
    if (!m) {
      ADD_FAILURE() << llvm::toString(m.takeError());
      return;
    }
    module = std::move(*m);
    auto d = Device::open(spec);
    if (!d) {
      ADD_FAILURE() << llvm::toString(d.takeError());
      return;
    }
    device = std::move(*d);
  }
  /// The launch's printed lines.
  std::string run(int tasks, int lines, int64_t limit) {
    std::string out;
    llvm::raw_string_ostream os(out);
    LaunchOptions options;
    options.hostThreads = 3;
    options.printfOut = &os;
    options.printfLimit = limit;
    auto k = module->findKernel("talk");
    if (!k) {
      ADD_FAILURE() << llvm::toString(k.takeError());
      return out;
    }
    auto stats =
        device->launch(**k, module->staticLayout(), {unsigned(tasks), 1, 1},
                       FuncType::Union4, {KernelArg::i32(lines)}, options);
    if (!stats)
      ADD_FAILURE() << llvm::toString(stats.takeError());
    return out;
  }
  DeviceSpec spec = defaultDeviceSpec();
  std::unique_ptr<Module> module;
  std::unique_ptr<Device> device;
};

TEST(Printf, WholeLinesPrefixedWithTheirTask) {
  Printing p;
  ASSERT_TRUE(p.module && p.device);
  std::string out = p.run(16, 3, 10000);
  llvm::SmallVector<llvm::StringRef, 64> lines;
  llvm::StringRef(out).split(lines, '\n', -1, /*KeepEmpty=*/false);
  ASSERT_EQ(lines.size(), 16u * 4);
  std::set<std::string> seen;
  for (llvm::StringRef line : lines)
    seen.insert(line.str());
  for (int t = 0; t < 16; ++t) {
    std::string prefix = "[cluster " + std::to_string(t / 4) + " core " +
                         std::to_string(t % 4) + "] ";
    for (int i = 0; i < 3; ++i)
      EXPECT_TRUE(seen.count(prefix + "line " + std::to_string(i) +
                             " of task " + std::to_string(t)))
          << prefix << "line " << i << " is missing or broken:\n"
          << out;
    EXPECT_TRUE(seen.count(prefix + "last of " + std::to_string(t)));
  }
}

TEST(Printf, TheLimitCountsTheRest) {
  Printing p;
  ASSERT_TRUE(p.module && p.device);
  std::string out = p.run(16, 2, 5);
  llvm::SmallVector<llvm::StringRef, 16> lines;
  llvm::StringRef(out).split(lines, '\n', -1, /*KeepEmpty=*/false);
  ASSERT_EQ(lines.size(), 6u) << out;
  for (int i = 0; i < 5; ++i)
    EXPECT_TRUE(lines[i].starts_with("[cluster ")) << lines[i].str();
  EXPECT_EQ(lines[5], "[bangsim] __bang_printf: 43 more lines not printed "
                      "(the limit is 5 per launch: --printf-limit)");
  // Each launch has its own count.
  std::string again = p.run(16, 0, 14);
  EXPECT_TRUE(llvm::StringRef(again).ends_with(
      "\n[bangsim] __bang_printf: 2 more lines not printed (the limit is 14 "
      "per launch: --printf-limit)\n"))
      << again;
}

} // namespace
