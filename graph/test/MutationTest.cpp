//===- MutationTest.cpp - A Task IR with every field wrong in turn --------===//
//
// Starting from a valid graph, every scalar field reachable in it (through
// repeated elements too) is set, one at a time, to each wrong value of its
// type: negative, zero, huge and minimum integers; unknown and unspecified
// enum numbers; NaN, infinities and huge doubles; empty and non-UTF-8
// strings. Every message field is also cleared, and every repeated field
// emptied and grown. Each mutant goes through what `bangc-sim graph` does
// with a file: binary round trip, validation, the graph model, statistics,
// and (when accepted) the reference executor on zero inputs. None may crash
// or hang; an accepted mutant must run or fail with an error, and a refused
// one must say why. The figures printed are the sweep's size.
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"

#include "graph/BlockInfo.h"
#include "graph/Executor.h"
#include "graph/Graph.h"
#include "graph/GraphIO.h"
#include "graph/Precision.h"
#include "graph/Stats.h"
#include "graph/Validate.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>

using namespace bangc::graph;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

namespace {

const std::string TestDir = BANGC_GRAPH_TEST_DIR;

/// One way to break a graph: where, and what was done.
struct Mutation {
  std::string where;
  std::function<void(bangc::taskir::TaskGraph &)> apply;
};

/// Resolves a path of (field, index) steps from the root message.
using Path = std::vector<std::pair<const FieldDescriptor *, int>>;

Message *follow(Message &root, const Path &path) {
  Message *m = &root;
  for (auto [field, index] : path) {
    const Reflection *r = m->GetReflection();
    m = field->is_repeated() ? r->MutableRepeatedMessage(m, field, index)
                             : r->MutableMessage(m, field);
  }
  return m;
}

std::string describe(const Path &path, const FieldDescriptor *field) {
  std::string s;
  for (auto [f, i] : path)
    s += f->name() + (f->is_repeated() ? "[" + std::to_string(i) + "]" : "") +
         ".";
  return s + field->name();
}

void addScalarMutations(const Path &path, const FieldDescriptor *field,
                        int index, std::vector<Mutation> &out) {
  std::string where = describe(path, field) +
                      (index >= 0 ? "[" + std::to_string(index) + "]" : "");
  auto set = [&](std::string what, auto value,
                 void (*setter)(const Reflection *, Message *,
                                const FieldDescriptor *, int, decltype(value))) {
    out.push_back({where + " = " + what, [=](bangc::taskir::TaskGraph &g) {
                     Message *m = follow(g, path);
                     setter(m->GetReflection(), m, field, index, value);
                   }});
  };
  using Int32 = int32_t;
  using UInt32 = uint32_t;
  switch (field->cpp_type()) {
  case FieldDescriptor::CPPTYPE_INT32:
  case FieldDescriptor::CPPTYPE_INT64: {
    auto setter = +[](const Reflection *r, Message *m, const FieldDescriptor *f,
                      int i, int64_t v) {
      if (f->cpp_type() == FieldDescriptor::CPPTYPE_INT32) {
        i < 0 ? r->SetInt32(m, f, Int32(v)) : r->SetRepeatedInt32(m, f, i, Int32(v));
      } else {
        i < 0 ? r->SetInt64(m, f, v) : r->SetRepeatedInt64(m, f, i, v);
      }
    };
    for (int64_t v : {int64_t(-1), int64_t(0), int64_t(65537),
                      int64_t(std::numeric_limits<int32_t>::max()),
                      int64_t(std::numeric_limits<int32_t>::min())})
      set(std::to_string(v), v, setter);
    break;
  }
  case FieldDescriptor::CPPTYPE_UINT32:
  case FieldDescriptor::CPPTYPE_UINT64: {
    auto setter = +[](const Reflection *r, Message *m, const FieldDescriptor *f,
                      int i, uint64_t v) {
      if (f->cpp_type() == FieldDescriptor::CPPTYPE_UINT32) {
        i < 0 ? r->SetUInt32(m, f, UInt32(v)) : r->SetRepeatedUInt32(m, f, i, UInt32(v));
      } else {
        i < 0 ? r->SetUInt64(m, f, v) : r->SetRepeatedUInt64(m, f, i, v);
      }
    };
    for (uint64_t v : {uint64_t(0), uint64_t(std::numeric_limits<uint32_t>::max())})
      set(std::to_string(v), v, setter);
    break;
  }
  case FieldDescriptor::CPPTYPE_FLOAT:
  case FieldDescriptor::CPPTYPE_DOUBLE: {
    auto setter = +[](const Reflection *r, Message *m, const FieldDescriptor *f,
                      int i, double v) {
      if (f->cpp_type() == FieldDescriptor::CPPTYPE_FLOAT) {
        i < 0 ? r->SetFloat(m, f, float(v)) : r->SetRepeatedFloat(m, f, i, float(v));
      } else {
        i < 0 ? r->SetDouble(m, f, v) : r->SetRepeatedDouble(m, f, i, v);
      }
    };
    const double inf = std::numeric_limits<double>::infinity();
    set("nan", std::nan(""), setter);
    set("inf", inf, setter);
    set("-inf", -inf, setter);
    set("-1e300", -1e300, setter);
    break;
  }
  case FieldDescriptor::CPPTYPE_ENUM: {
    auto setter = +[](const Reflection *r, Message *m, const FieldDescriptor *f,
                      int i, int64_t v) {
      i < 0 ? r->SetEnumValue(m, f, int(v)) : r->SetRepeatedEnumValue(m, f, i, int(v));
    };
    for (int64_t v : {int64_t(0), int64_t(99), int64_t(-7)})
      set("enum " + std::to_string(v), v, setter);
    // Every other known value too: a valid value in the wrong place.
    for (int k = 0; k < field->enum_type()->value_count(); ++k)
      set(field->enum_type()->value(k)->name(),
          int64_t(field->enum_type()->value(k)->number()), setter);
    break;
  }
  case FieldDescriptor::CPPTYPE_STRING: {
    auto setter = +[](const Reflection *r, Message *m, const FieldDescriptor *f,
                      int i, std::string v) {
      i < 0 ? r->SetString(m, f, v) : r->SetRepeatedString(m, f, i, v);
    };
    set("\"\"", std::string(), setter);
    set("\"\\xff\\xfe\"", std::string("\xff\xfe"), setter);
    set("\"9.9\"", std::string("9.9"), setter);
    break;
  }
  case FieldDescriptor::CPPTYPE_BOOL: {
    auto setter = +[](const Reflection *r, Message *m, const FieldDescriptor *f,
                      int i, bool v) {
      i < 0 ? r->SetBool(m, f, v) : r->SetRepeatedBool(m, f, i, v);
    };
    set("true", true, setter);
    set("false", false, setter);
    break;
  }
  case FieldDescriptor::CPPTYPE_MESSAGE:
    break;
  }
}

/// Every mutation of `m` (at `path`) and of the messages below it.
void collect(const Message &m, const Path &path, std::vector<Mutation> &out) {
  const google::protobuf::Descriptor *d = m.GetDescriptor();
  const Reflection *r = m.GetReflection();
  for (int k = 0; k < d->field_count(); ++k) {
    const FieldDescriptor *field = d->field(k);
    std::string where = describe(path, field);
    if (field->is_repeated()) {
      int n = r->FieldSize(m, field);
      if (n > 0)
        out.push_back({where + " emptied", [=](bangc::taskir::TaskGraph &g) {
                         Message *p = follow(g, path);
                         p->GetReflection()->ClearField(p, field);
                       }});
      if (n > 0 && field->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE)
        out.push_back({where + " grown", [=](bangc::taskir::TaskGraph &g) {
                         Message *p = follow(g, path);
                         const Reflection *pr = p->GetReflection();
                         switch (field->cpp_type()) {
                         case FieldDescriptor::CPPTYPE_INT32:
                           pr->AddInt32(p, field, 3);
                           break;
                         case FieldDescriptor::CPPTYPE_UINT32:
                           pr->AddUInt32(p, field, 3);
                           break;
                         case FieldDescriptor::CPPTYPE_FLOAT:
                           pr->AddFloat(p, field, 3);
                           break;
                         default:
                           break;
                         }
                       }});
      if (n > 1 && field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE)
        out.push_back({where + " duplicated", [=](bangc::taskir::TaskGraph &g) {
                         Message *p = follow(g, path);
                         const Reflection *pr = p->GetReflection();
                         pr->AddMessage(p, field)->CopyFrom(
                             pr->GetRepeatedMessage(*p, field, 0));
                       }});
      for (int i = 0; i < n; ++i) {
        if (field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
          Path sub = path;
          sub.push_back({field, i});
          collect(r->GetRepeatedMessage(m, field, i), sub, out);
        } else if (i < 4) { // the first few elements of data arrays
          addScalarMutations(path, field, i, out);
        }
      }
      continue;
    }
    if (field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      if (!r->HasField(m, field))
        continue;
      out.push_back({where + " cleared", [=](bangc::taskir::TaskGraph &g) {
                       Message *p = follow(g, path);
                       p->GetReflection()->ClearField(p, field);
                     }});
      Path sub = path;
      sub.push_back({field, -1});
      collect(r->GetMessage(m, field), sub, out);
      continue;
    }
    if (field->containing_oneof() && !r->HasField(m, field))
      continue; // the other member of a oneof: setting it is a new graph
    addScalarMutations(path, field, -1, out);
  }
}

/// What `bangc-sim graph FILE --run` does with a file. Returns "" when the
/// mutant was accepted and ran, else the first error.
std::string runMutant(const bangc::taskir::TaskGraph &mutant) {
  llvm::Expected<bangc::taskir::TaskGraph> parsed =
      parseGraph(graphToBinary(mutant), "mutant");
  if (!parsed)
    return "parse: " + llvm::toString(parsed.takeError());
  std::vector<std::string> errors = collectGraphErrors(*parsed);
  llvm::Expected<Graph> g = Graph::create(*parsed);
  if (!g) {
    std::string message = llvm::toString(g.takeError());
    EXPECT_FALSE(errors.empty()) << "create refused what validation accepted";
    return message.empty() ? "(empty error message)" : message;
  }
  EXPECT_TRUE(errors.empty()) << "validation refused what create accepted";
  (void)formatStats(computeStats(*g));
  (void)graphToJson(g->proto());
  TensorMap inputs;
  for (int64_t id : g->inputBlocks()) {
    const bangc::taskir::TaskBlock &b = g->block(id);
    inputs[Graph::ioName(b)] =
        bangc::NpyArray(precisionDType(b.precision()), storageShape(b));
  }
  llvm::Expected<TensorMap> out = runGraph(*g, inputs);
  if (!out)
    return "run: " + llvm::toString(out.takeError());
  return "";
}

TEST(Mutation, EveryFieldWrongInTurn) {
  llvm::Expected<bangc::taskir::TaskGraph> good =
      readGraphFile(TestDir + "/good/small_conv.json");
  ASSERT_TRUE(bool(good)) << llvm::toString(good.takeError());
  ASSERT_EQ(runMutant(*good), "") << "the unmutated graph must run";
  std::vector<Mutation> mutations;
  collect(*good, {}, mutations);
  ASSERT_GT(mutations.size(), 300u) << "the sweep lost its fields";
  int refused = 0, ranButFailed = 0, accepted = 0;
  for (const Mutation &mutation : mutations) {
    bangc::taskir::TaskGraph mutant = *good;
    mutation.apply(mutant);
    std::string result = runMutant(mutant);
    if (result.empty() && std::getenv("BANGC_MUTATION_VERBOSE"))
      std::printf("accepted: %s\n", mutation.where.c_str());
    if (result.empty())
      ++accepted;
    else if (llvm::StringRef(result).starts_with("run: "))
      ++ranButFailed;
    else
      ++refused;
    EXPECT_EQ(result.find("(empty error message)"), std::string::npos)
        << mutation.where;
  }
  std::printf("%zu mutants: %d refused, %d failed at run time with an error, "
              "%d accepted and ran\n",
              mutations.size(), refused, ranButFailed, accepted);
  EXPECT_GT(refused, int(mutations.size()) / 2)
      << "most wrong fields must be refused";
}

} // namespace
