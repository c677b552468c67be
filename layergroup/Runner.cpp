//===- Runner.cpp - LayerGroup: compile, run, report ----------------------===//
#include "layergroup/Runner.h"

#include "graph/Executor.h"
#include "graph/Graph.h"
#include "support/Npy.h"

#include "bangsim/Device.h"
#include "bangsim/Module.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <chrono>
#include <cmath>

using namespace llvm;

namespace bangc::lg {

/// The launch type of a kernel whose unions hold \p Clusters clusters.
static bangsim::FuncType unionType(int Clusters) {
  switch (Clusters) {
  case 0:
    return bangsim::FuncType::Block;
  case 1:
    return bangsim::FuncType::Union1;
  case 2:
    return bangsim::FuncType::Union2;
  case 4:
    return bangsim::FuncType::Union4;
  default:
    assert(Clusters == 8 && "a union is 1, 2, 4 or 8 clusters");
    return bangsim::FuncType::Union8;
  }
}

static Error writeText(const std::string &Path, const std::string &Text) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC);
  if (EC)
    return createStringError(EC, "cannot write " + Path + ": " + EC.message());
  OS << Text;
  return Error::success();
}

Expected<RunResult> runPlan(const Net &N, const NetPlan &P,
                            const bangsim::DeviceSpec &Spec, int64_t Batch,
                            const HostTensors &Inputs,
                            const std::string &EmitDir, bool UseCache) {
  auto DevOr = bangsim::Device::open(Spec);
  if (!DevOr)
    return DevOr.takeError();
  std::unique_ptr<bangsim::Device> Dev = std::move(*DevOr);
  if (!EmitDir.empty()) {
    if (std::error_code EC = sys::fs::create_directories(EmitDir))
      return createStringError(EC, "cannot create " + EmitDir);
    if (Error E = writeText(EmitDir + "/lg_ops.mlu", lgOpsSource()))
      return std::move(E);
  }
  // GDRAM: every tensor a group reads or writes, and the parameters.
  std::map<int, void *> TensorMem;
  std::map<std::pair<int, int>, void *> ParamMem;
  auto upload = [&](const std::vector<float> &V) -> Expected<void *> {
    auto M = Dev->malloc(std::max<uint64_t>(4, V.size() * 4));
    if (!M)
      return M.takeError();
    if (!V.empty())
      if (Error E = Dev->copyToDevice(*M, V.data(), V.size() * 4))
        return std::move(E);
    return *M;
  };
  for (size_t T = 0; T < N.Tensors.size(); ++T) {
    const Tensor &Tn = N.Tensors[T];
    uint64_t Bytes = uint64_t(Batch * Tn.elements() * 4);
    auto M = Dev->malloc(Bytes);
    if (!M)
      return M.takeError();
    TensorMem[int(T)] = *M;
    if (Tn.Producer < 0) {
      auto It = Inputs.find(int(T));
      if (It == Inputs.end() || It->second.size() * 4 != Bytes)
        return createStringError(inconvertibleErrorCode(),
                                 "layer group: missing or mis-sized input '" +
                                     Tn.Name + "'");
      if (Error E = Dev->copyToDevice(*M, It->second.data(), Bytes))
        return std::move(E);
    }
  }
  // Convolution weights go to WRAM as the plan packs them (HWIO tiles of
  // a channel slice each, GroupPlan::packWeights).
  std::map<int, const GroupPlan *> PlanOf; // layer -> its group's plan
  for (const GroupPlan &GP : P.Groups)
    for (int L : GP.Info.Layers)
      PlanOf[L] = &GP;
  for (size_t L = 0; L < N.Layers.size(); ++L) {
    const Layer &Ly = N.Layers[L];
    static const GroupPlan Unsliced; // a layer of no group: whole weights
    auto It = PlanOf.find(int(L));
    const GroupPlan &Owner = It == PlanOf.end() ? Unsliced : *It->second;
    std::vector<float> Hwio = Owner.packWeights(N, int(L));
    const std::vector<float> *Parts[3] = {&Hwio, &Ly.Bias, &Ly.Alpha};
    for (int Part = 0; Part < 3; ++Part)
      if (!Parts[Part]->empty()) {
        auto M = upload(*Parts[Part]);
        if (!M)
          return M.takeError();
        ParamMem[{int(L), Part}] = *M;
      }
  }
  RunResult R;
  for (size_t GI = 0; GI < P.Groups.size(); ++GI) {
    const GroupPlan &GP = P.Groups[GI];
    GroupKernel K = emitGroupKernel(N, GP, int(GI));
    if (!EmitDir.empty())
      if (Error E = writeText(EmitDir + "/" + K.Name + ".mlu", K.Source))
        return std::move(E);
    GroupRun GR;
    auto T0 = std::chrono::steady_clock::now();
    std::string Diag;
    raw_string_ostream DS(Diag);
    bangsim::CompileOptions CO;
    CO.diagnostics = &DS;
    CO.useCache = UseCache;
    auto Mod = bangsim::Module::compileString(K.Name + ".mlu",
                                              selfContainedSource(K), Spec, CO);
    if (!Mod)
      return createStringError(inconvertibleErrorCode(),
                               "layer group: compiling " + K.Name + " failed: " +
                                   toString(Mod.takeError()) + "\n" + Diag);
    auto T1 = std::chrono::steady_clock::now();
    GR.CompileSeconds = std::chrono::duration<double>(T1 - T0).count();
    auto Kern = (*Mod)->findKernel(K.Name);
    if (!Kern)
      return Kern.takeError();
    std::vector<bangsim::KernelArg> Args;
    for (const KernelParamRef &PR : K.Params) {
      void *Ptr = PR.K == KernelParamRef::Tensor
                      ? TensorMem.at(PR.Index)
                      : ParamMem.at({PR.Index, PR.K == KernelParamRef::Weight ? 0
                                               : PR.K == KernelParamRef::Bias
                                                   ? 1
                                                   : 2});
      Args.push_back(bangsim::KernelArg::pointer(Ptr));
    }
    bangsim::Dim3 Dim;
    Dim.x = uint32_t(K.Tasks);
    auto St = Dev->launch(**Kern, (*Mod)->staticLayout(), Dim,
                          unionType(K.Union), Args);
    if (!St)
      return createStringError(inconvertibleErrorCode(),
                               "layer group: " + K.Name + ": " +
                                   toString(St.takeError()));
    GR.Cycles = St->cycles;
    GR.ReadBytes = St->gdramReadBytes;
    GR.WriteBytes = St->gdramWriteBytes;
    // Parameters: GDRAM2WRAM, and GDRAM2SRAM when the group stages its
    // weights there; a group that stages both stages every input image
    // exactly once (per chip), so the rest of GDRAM2SRAM is the weights.
    int64_t StagedInputs = 0;
    if (GP.weightsInSram() && GP.inputsInSram())
      for (int T : GP.Info.Inputs)
        StagedInputs += Batch * N.Tensors[T].elements() * 4;
    GR.WeightReadBytes =
        St->bytesByDirection[4] +
        (GP.weightsInSram() ? St->bytesByDirection[7] - StagedInputs : 0);
    GR.HostSeconds = St->hostSeconds;
    R.Cycles += GR.Cycles;
    R.ReadBytes += GR.ReadBytes;
    R.WriteBytes += GR.WriteBytes;
    R.WeightReadBytes += GR.WeightReadBytes;
    R.Groups.push_back(GR);
  }
  for (int T : N.outputs()) {
    std::vector<float> V(size_t(Batch * N.Tensors[T].elements()));
    if (Error E = Dev->copyFromDevice(V.data(), TensorMem.at(T), V.size() * 4))
      return std::move(E);
    R.Outputs[T] = std::move(V);
  }
  for (auto &[T, M] : TensorMem)
    consumeError(Dev->free(M));
  for (auto &[K, M] : ParamMem)
    consumeError(Dev->free(M));
  return R;
}

// --- SVG --------------------------------------------------------------------

std::string lmemSvg(const Net &N, const NetPlan &P, int64_t Capacity) {
  const int PW = 640, PH = 260, M = 60, Gap = 50;
  int H = int(P.Groups.size()) * (PH + Gap) + 40;
  std::string S = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" "
      "font-family=\"sans-serif\" font-size=\"10\">\n",
      PW + 2 * M + 160, H);
  S += fmt::format("<text x=\"{}\" y=\"20\" font-size=\"14\">NRAM allocation "
                   "per group: time steps across, address up (capacity {} "
                   "bytes)</text>\n",
                   M, Capacity);
  const char *Colors[3] = {"#8fb8de", "#f4b183", "#c5e0b4"};
  for (size_t GI = 0; GI < P.Groups.size(); ++GI) {
    const GroupPlan &G = P.Groups[GI];
    int Y0 = 40 + int(GI) * (PH + Gap);
    int Steps = int(G.Steps.size());
    double Top = double(std::max<int64_t>(G.PeakBytes, 1));
    double CW = double(PW) / (Steps + 1); // the last column stands for "inf"
    std::string Title;
    for (int L : G.Info.Layers)
      Title += (Title.empty() ? "" : ", ") + N.Layers[L].Name;
    if (Title.size() > 90)
      Title = Title.substr(0, 87) + "...";
    S += fmt::format("<text x=\"{}\" y=\"{}\">group {}: {} (nsecs {}, hsecs "
                     "{}, wsecs {}, fsecs {}; peak {} bytes)</text>\n",
                     M, Y0 + 12, GI, Title, G.NSecs, G.HSecs, G.WSecs, G.FSecs,
                     G.PeakBytes);
    int BY = Y0 + 20, BH = PH - 40;
    S += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
                     "fill=\"none\" stroke=\"#444\"/>\n",
                     M, BY, PW, BH);
    for (int T = 0; T <= Steps; ++T)
      S += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}"
                       "</text>\n",
                       M + (T + 0.5) * CW, BY + BH + 12,
                       T == Steps ? std::string("inf") : fmt::format("T{}", T));
    S += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">0</text>\n",
                     M - 4, BY + BH);
    S += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
                     M - 4, BY + 8, G.PeakBytes);
    for (const LmemBuffer &B : G.Buffers) {
      int End = B.End == TsInf ? Steps : B.End;
      double X = M + B.Start * CW, W = (End - B.Start + 1) * CW;
      double Hh = B.Bytes / Top * BH;
      double Y = BY + BH - (B.Offset + B.Bytes) / Top * BH;
      S += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" "
                       "height=\"{:.1f}\" fill=\"{}\" stroke=\"#333\" "
                       "stroke-width=\"0.5\"><title>{} [{}, {}] offset {} "
                       "bytes {}</title></rect>\n",
                       X, Y, W, std::max(Hh, 0.5), Colors[B.K], B.Name,
                       B.Start, B.End == TsInf ? "inf" : std::to_string(B.End),
                       B.Offset, B.Bytes);
      if (Hh >= 10)
        S += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n", X + 2,
                         Y + std::min(Hh / 2 + 3, 11.0), B.Name);
    }
  }
  int LX = M + PW + 20;
  const char *Kinds[3] = {"activation", "weight", "buffer"};
  for (int K = 0; K < 3; ++K)
    S += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" "
                     "fill=\"{}\"/><text x=\"{}\" y=\"{}\">{}</text>\n",
                     LX, 50 + 18 * K, Colors[K], LX + 16, 60 + 18 * K,
                     Kinds[K]);
  S += "</svg>\n";
  return S;
}

// --- The command ------------------------------------------------------------

namespace {

/// " (inputs in SRAM)" and the like, for the plan summary.
std::string sramNote(const GroupPlan &GP) {
  if (!GP.usesSram())
    return "";
  std::string What = GP.inputsInSram() && GP.weightsInSram() ? "inputs, weights"
                     : GP.inputsInSram()                     ? "inputs"
                                                             : "weights";
  if (!GP.sramBroadcast())
    return " (" + What + " in SRAM)";
  return fmt::format(" ({} in SRAM once per chip, {} phase(s))", What,
                     GP.SramPhases);
}

int fail(const std::string &M) {
  errs() << "bangc-sim graph: " << M << "\n";
  return 1;
}

/// [H, W, C] or [N, H, W, C] values: the device layout (NHWC) as floats.
std::vector<float> toDevice(const std::vector<double> &V) {
  return std::vector<float>(V.begin(), V.end());
}
std::vector<double> fromDevice(const std::vector<float> &V) {
  return std::vector<double>(V.begin(), V.end());
}

json::Object groupJson(const Net &N, const GroupPlan &G, const GroupRun *R) {
  json::Array Layers;
  for (int L : G.Info.Layers)
    Layers.push_back(N.Layers[L].Name);
  json::Array Steps;
  for (const TimeStep &T : G.Steps) {
    json::Array C, LT, LW, ST;
    for (int L : T.Compute)
      C.push_back(N.Layers[L].Name);
    for (int X : T.LoadTensors)
      LT.push_back(N.Tensors[X].Name);
    for (int L : T.LoadWeights)
      LW.push_back(N.Layers[L].Name);
    for (int X : T.StoreTensors)
      ST.push_back(N.Tensors[X].Name);
    Steps.push_back(json::Object{{"compute", std::move(C)},
                                 {"load", std::move(LT)},
                                 {"load_weights", std::move(LW)},
                                 {"store", std::move(ST)},
                                 {"compute_cycles", T.ComputeCycles},
                                 {"dma_cycles", T.DmaCycles}});
  }
  json::Object O{{"layers", std::move(Layers)},
                 {"nsecs", G.NSecs},
                 {"hsecs", G.HSecs},
                 {"wsecs", G.WSecs},
                 {"fsecs", G.FSecs},
                 {"cores", G.Cores},
                 {"weights_resident", G.weightsResident()},
                 {"pipelined", G.pipelined()},
                 {"time_steps", int64_t(G.Steps.size())},
                 {"steps", std::move(Steps)},
                 {"inputs_resident", G.inputsResident()},
                 {"inputs_in_sram", G.inputsInSram()},
                 {"weights_in_sram", G.weightsInSram()},
                 {"sram_broadcast", G.sramBroadcast()},
                 {"sram_phases", G.SramPhases},
                 {"peak_nram_bytes", G.PeakBytes},
                 {"peak_wram_bytes", G.WramPeakBytes},
                 {"weight_tile_loads", G.WeightTileLoads},
                 {"estimated_cycles", G.Cycles},
                 {"estimated_gdram_read_bytes", G.ReadBytes},
                 {"estimated_gdram_write_bytes", G.WriteBytes},
                 {"estimated_gdram_weight_bytes", G.WeightReadBytes}};
  if (R) {
    O["simulated_cycles"] = R->Cycles;
    O["gdram_read_bytes"] = R->ReadBytes;
    O["gdram_write_bytes"] = R->WriteBytes;
    O["gdram_weight_bytes"] = R->WeightReadBytes;
    O["gdram_activation_bytes"] =
        R->ReadBytes + R->WriteBytes - R->WeightReadBytes;
  }
  return O;
}

json::Object runJson(const Net &N, const NetPlan &P, const RunResult *R) {
  json::Array Groups;
  for (size_t I = 0; I < P.Groups.size(); ++I)
    Groups.push_back(groupJson(N, P.Groups[I], R ? &R->Groups[I] : nullptr));
  json::Object O{{"groups", std::move(Groups)},
                 {"num_groups", int64_t(P.Groups.size())},
                 {"estimated_cycles", P.Cycles},
                 {"estimated_gdram_read_bytes", P.ReadBytes},
                 {"estimated_gdram_write_bytes", P.WriteBytes},
                 {"estimated_gdram_weight_bytes", P.WeightReadBytes},
                 {"search_seconds", P.SearchSeconds},
                 {"group_evaluations", P.GroupEvaluations}};
  if (R) {
    O["gdram_read_bytes"] = R->ReadBytes;
    O["gdram_write_bytes"] = R->WriteBytes;
    // Parameters travel GDRAM2WRAM (or GDRAM2SRAM in a group that stages
    // its weights there), feature maps GDRAM<->NRAM (or GDRAM2SRAM in a
    // group that stages its inputs): the simulator's per-direction counters
    // of each group split the total exactly.
    O["gdram_weight_bytes"] = R->WeightReadBytes;
    O["gdram_activation_bytes"] =
        R->ReadBytes + R->WriteBytes - R->WeightReadBytes;
    O["simulated_cycles"] = R->Cycles;
  }
  return O;
}

} // namespace

int runLayerGroupCommand(const graph::Graph &G, const LayerGroupOptions &O) {
  auto SpecOr = bangsim::loadDeviceSpec(O.Device);
  if (!SpecOr)
    return fail(toString(SpecOr.takeError()));
  bangsim::DeviceSpec Spec = *SpecOr;
  auto NetOr = buildNet(G);
  if (!NetOr)
    return fail(toString(NetOr.takeError()));
  Net &N = *NetOr;
  N.Name = sys::path::stem(O.File).str();

  // Inputs: from --in, else deterministic values in [-1, 1).
  int64_t Batch = O.Batch;
  std::map<int, std::vector<double>> InVals; // [N, H, W, C]
  bool Batched = false;
  for (auto &[Name, File] : O.Ins) {
    int T = -1;
    for (int I : N.inputs())
      if (N.Tensors[I].InputName == Name)
        T = I;
    if (T < 0)
      return fail("--in " + Name + ": no input of that name");
    auto A = readNpy(File);
    if (!A)
      return fail(toString(A.takeError()));
    auto V = graph::npyToValues(*A, taskir::FLOAT32, "input '" + Name + "'");
    if (!V)
      return fail(toString(V.takeError()));
    const Tensor &Tn = N.Tensors[T];
    int64_t B = int64_t(V->size()) / std::max<int64_t>(1, Tn.elements());
    if (B * Tn.elements() != int64_t(V->size()) || A->shape.size() < 3)
      return fail(fmt::format("--in {}: expected [{}, {}, {}] or [N, {}, {}, "
                              "{}]",
                              Name, Tn.H, Tn.W, Tn.C, Tn.H, Tn.W, Tn.C));
    Batched |= A->shape.size() == 4;
    if (Batch && Batch != B)
      return fail("inputs disagree on the batch size");
    Batch = B;
    InVals[T] = std::move(*V);
  }
  if (!Batch)
    Batch = 1;
  Batched |= Batch > 1;
  for (int T : N.inputs())
    if (!InVals.count(T)) {
      std::vector<double> V(size_t(Batch * N.Tensors[T].elements()));
      uint64_t X = 0x9E3779B97F4A7C15ull + uint64_t(T);
      for (double &D : V) {
        X = X * 6364136223846793005ull + 1442695040888963407ull;
        D = double(X >> 11) / double(1ull << 52) - 1.0;
      }
      InVals[T] = std::move(V);
    }
  HostTensors In;
  for (auto &[T, V] : InVals)
    In[T] = toDevice(V);

  PlanOptions PO;
  auto Plan = planNet(N, Spec, Batch, PO);
  if (!Plan)
    return fail(toString(Plan.takeError()));
  outs() << fmt::format(
      "layer group: {} layers in {} groups (search {:.3f} "
      "s); estimated {:.0f} cycles, GDRAM {} bytes ({} of "
      "parameters)\n",
      N.Layers.size(), Plan->Groups.size(), Plan->SearchSeconds, Plan->Cycles,
      Plan->ReadBytes + Plan->WriteBytes, Plan->WeightReadBytes);
  for (size_t I = 0; I < Plan->Groups.size(); ++I) {
    const GroupPlan &GP = Plan->Groups[I];
    outs() << fmt::format("  group {}: {} .. {} ({} layers) nsecs {} hsecs {} "
                          "wsecs {} fsecs {}{} peak NRAM {} bytes; GDRAM {} "
                          "bytes\n",
                          I, N.Layers[GP.Info.First].Name,
                          N.Layers[GP.Info.Last].Name, GP.Info.Layers.size(),
                          GP.NSecs, GP.HSecs, GP.WSecs, GP.FSecs, sramNote(GP),
                          GP.PeakBytes, GP.ReadBytes + GP.WriteBytes);
  }
  if (!O.LmemSvg.empty())
    if (Error E = writeText(O.LmemSvg, lmemSvg(N, *Plan, Spec.nramBytes)))
      return fail(toString(std::move(E)));

  bool DoRun = O.Run || !O.Report.empty() || !O.EmitDir.empty();
  std::optional<RunResult> Grouped, Lbl;
  std::optional<NetPlan> LblPlan;
  if (DoRun) {
    auto R = runPlan(N, *Plan, Spec, Batch, In, O.EmitDir, O.UseCache);
    if (!R)
      return fail(toString(R.takeError()));
    Grouped = std::move(*R);
    outs() << fmt::format("grouped: {:.0f} cycles, GDRAM read {} write {} "
                          "bytes ({} of parameters)\n",
                          Grouped->Cycles, Grouped->ReadBytes,
                          Grouped->WriteBytes, Grouped->WeightReadBytes);
  }
  // Outputs.
  for (auto &[Name, File] : O.Outs) {
    int T = -1;
    for (int I : N.outputs())
      for (auto &On : N.Tensors[I].OutputNames)
        if (On == Name)
          T = I;
    if (T < 0)
      return fail("--out " + Name + ": no SO block of that name");
    if (!Grouped)
      return fail("--out needs --run");
    const Tensor &Tn = N.Tensors[T];
    std::vector<double> V = fromDevice(Grouped->Outputs.at(T));
    std::vector<int64_t> Shape{Tn.H, Tn.W, Tn.C};
    if (Batched)
      Shape.insert(Shape.begin(), Batch);
    if (Error E = writeNpy(File, graph::valuesToNpy(V, Shape, taskir::FLOAT32)))
      return fail(toString(std::move(E)));
    outs() << fmt::format("wrote output '{}' to {}\n", Name, File);
  }
  if (O.Report.empty())
    return 0;

  json::Object Rep{{"graph", O.File},
                   {"device", Spec.name},
                   {"batch", Batch},
                   {"layers", int64_t(N.Layers.size())}};
  Rep["grouped"] = runJson(N, *Plan, Grouped ? &*Grouped : nullptr);
  if (O.Compare) {
    PlanOptions LO;
    LO.LayerByLayer = true;
    auto LP = planNet(N, Spec, Batch, LO);
    if (!LP)
      return fail(toString(LP.takeError()));
    auto LR = runPlan(N, *LP, Spec, Batch, In, "", O.UseCache);
    if (!LR)
      return fail(toString(LR.takeError()));
    Lbl = std::move(*LR);
    LblPlan = std::move(*LP);
    Rep["layer_by_layer"] = runJson(N, *LblPlan, &*Lbl);
    outs() << fmt::format("layer by layer: {:.0f} cycles, GDRAM read {} write "
                          "{} bytes ({} of parameters)\n",
                          Lbl->Cycles, Lbl->ReadBytes, Lbl->WriteBytes,
                          Lbl->WeightReadBytes);
    double GB = double(Grouped->ReadBytes + Grouped->WriteBytes);
    double LB = double(Lbl->ReadBytes + Lbl->WriteBytes);
    Rep["gdram_bytes_reduction"] = LB > 0 ? 1.0 - GB / LB : 0.0;
    double GA = GB - double(Grouped->WeightReadBytes),
           LA = LB - double(Lbl->WeightReadBytes);
    Rep["gdram_activation_bytes_reduction"] = LA > 0 ? 1.0 - GA / LA : 0.0;
    Rep["gdram_weight_bytes_reduction"] =
        Lbl->WeightReadBytes > 0
            ? 1.0 - double(Grouped->WeightReadBytes) / double(Lbl->WeightReadBytes)
            : 0.0;
    Rep["cycles_speedup"] = Grouped->Cycles > 0 ? Lbl->Cycles / Grouped->Cycles : 0.0;
    // The reference executor, image by image.
    double MaxErr = 0, MaxRef = 0, MaxErrLbl = 0;
    for (int64_t Img = 0; Img < Batch; ++Img) {
      graph::TensorMap TM;
      for (auto &[T, V] : InVals) {
        const Tensor &Tn = N.Tensors[T];
        std::vector<double> One(V.begin() + Img * Tn.elements(),
                                V.begin() + (Img + 1) * Tn.elements());
        TM[Tn.InputName] =
            graph::valuesToNpy(One, {Tn.H, Tn.W, Tn.C}, taskir::FLOAT32);
      }
      auto Ref = graph::runGraph(G, TM);
      if (!Ref)
        return fail("reference executor: " + toString(Ref.takeError()));
      for (int T : N.outputs()) {
        const Tensor &Tn = N.Tensors[T];
        std::vector<double> Mine = fromDevice(Grouped->Outputs.at(T));
        std::vector<double> Other = fromDevice(Lbl->Outputs.at(T));
        for (const std::string &On : Tn.OutputNames) {
          auto RV = graph::npyToValues(Ref->at(On), taskir::FLOAT32, On);
          if (!RV)
            return fail(toString(RV.takeError()));
          for (size_t I = 0; I < RV->size(); ++I) {
            double Rf = (*RV)[I];
            size_t J = size_t(Img * Tn.elements()) + I;
            MaxErr = std::max(MaxErr, std::fabs(Mine[J] - Rf));
            MaxErrLbl = std::max(MaxErrLbl, std::fabs(Other[J] - Rf));
            MaxRef = std::max(MaxRef, std::fabs(Rf));
          }
        }
      }
    }
    Rep["max_abs_err"] = MaxErr;
    Rep["max_abs_ref"] = MaxRef;
    Rep["max_rel_err"] = MaxRef > 0 ? MaxErr / MaxRef : MaxErr;
    Rep["layer_by_layer_max_abs_err"] = MaxErrLbl;
    outs() << fmt::format("max_abs_err {:.3g} (max |ref| {:.3g}, relative "
                          "{:.3g})\n",
                          MaxErr, MaxRef, MaxRef > 0 ? MaxErr / MaxRef : MaxErr);
  }
  std::string Text;
  raw_string_ostream OS(Text);
  OS << formatv("{0:2}", json::Value(std::move(Rep))) << "\n";
  if (Error E = writeText(O.Report, OS.str()))
    return fail(toString(std::move(E)));
  outs() << "wrote report " << O.Report << "\n";
  return 0;
}

} // namespace bangc::lg
