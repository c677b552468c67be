//===- Codegen.cpp - LayerGroup: one .mlu kernel per group ----------------===//
//
// The kernel of a group walks its work items (N slice x H slice x channel
// slice), spread across cores by taskId. For each item it follows the
// time-step table: per step, issue the step's loads and stores (async), run
// the step's compute function, and __sync(). With more items than cores the
// item loop is software pipelined: during the first compute step of item i
// the outputs of item i-1 are stored and the inputs of item i+1 loaded, into
// the other half of double-buffered NRAM.
//
//===----------------------------------------------------------------------===//
#include "layergroup/Codegen.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace bangc::lg {

namespace {
#include "lg_ops_embed.inc"
}

const char *lgOpsSource() { return LgOpsText; }

std::string selfContainedSource(const GroupKernel &K) {
  std::string S = K.Source;
  const std::string Inc = "#include \"lg_ops.mlu\"";
  size_t P = S.find(Inc);
  if (P != std::string::npos)
    S.replace(P, Inc.size(), std::string("// ---- lg_ops.mlu ----\n") +
                                 LgOpsText + "// ---- end lg_ops.mlu ----\n");
  return S;
}

static std::string ident(const std::string &S) {
  std::string R;
  for (char C : S)
    R += (isalnum((unsigned char)C) ? C : '_');
  return R;
}

static std::string floatLit(double V) {
  if (std::isinf(V))
    return V > 0 ? "__builtin_inff()" : "(-__builtin_inff())";
  return fmt::format("(float){:.17g}", V);
}

/// The slice function's ranges along H (lo/hi, from hs) or W (clo/chi, from
/// ws): the group output's own range, then backwards through the layers
/// (a tensor read by several layers takes the hull).
static void emitSliceAxis(std::string &S, const Net &N, const GroupPlan &P,
                          bool W) {
  const GroupInfo &G = P.Info;
  auto line = [&](const std::string &L) { S += L + "\n"; };
  auto slot = [&](int T) { return G.slot(T); };
  auto extent = [&](int T) { return W ? N.Tensors[T].W : N.Tensors[T].H; };
  const char *Lo = W ? "clo" : "lo", *Hi = W ? "chi" : "hi";
  const char *Idx = W ? "ws" : "hs";
  int Secs = W ? P.WSecs : P.HSecs;
  const HSlicing &A = W ? P.W : P.H;
  if (Secs == 1) {
    line(fmt::format("  (void){};", Idx));
    for (size_t I = 0; I < G.Tensors.size(); ++I)
      line(fmt::format("  {}[{}] = 0; {}[{}] = {}; // {}", Lo, I, Hi, I,
                       extent(G.Tensors[I]), N.Tensors[G.Tensors[I]].Name));
    return;
  }
  int Final = G.Outputs[0];
  int FS = slot(Final);
  line(fmt::format("  {0}[{1}] = {2} * {3}; {4}[{1}] = {0}[{1}] + {3} < {5} ? "
                   "{0}[{1}] + {3} : {5}; // {6}",
                   Lo, FS, Idx, A.Step, Hi, extent(Final),
                   N.Tensors[Final].Name));
  std::set<int> Done{FS};
  for (int L = G.Last; L >= G.First; --L) {
    const Layer &Ly = N.Layers[L];
    int O = slot(Ly.Output);
    for (int In : Ly.Inputs) {
      int I = slot(In);
      bool Win = Ly.windowed();
      int64_t St = Win ? (W ? Ly.SX : Ly.SY) : 1,
              Pd = Win ? (W ? Ly.PL : Ly.PU) : 0,
              Ke = Win ? (W ? Ly.keffX() : Ly.keffY()) : 1;
      int64_t IE = extent(In);
      line(fmt::format("  {{ int l = {}[{}] * {} - {}, h = ({}[{}] - 1) * {} - "
                       "{} + {}; l = l < 0 ? 0 : l; h = h > {} ? {} : h; // "
                       "{} <- {}",
                       Lo, O, St, Pd, Hi, O, St, Pd, Ke, IE, IE,
                       N.Tensors[In].Name, Ly.Name));
      if (Done.count(I))
        line(fmt::format("    {0}[{1}] = l < {0}[{1}] ? l : {0}[{1}]; "
                         "{2}[{1}] = h > {2}[{1}] ? h : {2}[{1}]; }}",
                         Lo, I, Hi));
      else
        line(fmt::format("    {}[{}] = l; {}[{}] = h; }}", Lo, I, Hi, I));
      Done.insert(I);
    }
  }
}

GroupKernel emitGroupKernel(const Net &N, const GroupPlan &P, int Index) {
  const GroupInfo &G = P.Info;
  GroupKernel K;
  K.Name = fmt::format("lg_group{}", Index);
  K.Tasks = P.Cores;
  K.Union = P.launchUnion();
  std::string S;
  auto line = [&](const std::string &L) { S += L + "\n"; };
  auto slot = [&](int T) { return G.slot(T); };
  int64_t F = P.Channels, FT = P.SliceChannels;
  bool Global = P.global();
  // Channels of a tensor's slice at run time.
  auto chansExpr = [&](int T) {
    return (Global && G.computes(N, T)) ? std::string("ft")
                                        : std::to_string(N.Tensors[T].C);
  };

  // Header.
  std::vector<std::string> Names;
  for (int L : G.Layers)
    Names.push_back(N.Layers[L].Name);
  line(fmt::format("// {}: LayerGroup kernel for group {} of {}.", K.Name,
                   Index, N.Name.empty() ? "the network" : N.Name));
  std::string LayerList;
  for (size_t I = 0; I < Names.size(); ++I)
    LayerList += (I ? ", " : "") + Names[I];
  line("// layers: " + LayerList);
  line(fmt::format("// slices: N {} ({} image(s) each), H {} ({} output rows "
                   "each), W {} ({} output columns each), output channels {}; "
                   "{} item(s) on {} core(s), contiguous item ranges{}{}{}{}",
                   P.NSecs, P.NB, P.HSecs, P.H.Step, P.WSecs, P.W.Step, P.FSecs,
                   P.items(), P.Cores,
                   P.weightsResident() ? "; weights resident" : "",
                   P.inputsResident() ? "; inputs resident" : "",
                   !P.inputsInSram() ? ""
                   : P.sramBroadcast()
                       ? fmt::format("; inputs staged in SRAM once per "
                                     "chip (UNION{}), {} phase(s) of {} "
                                     "image(s)",
                                     P.launchUnion(), P.SramPhases,
                                     P.SramImages)
                       : "; inputs staged in SRAM (UNION1)",
                   P.pipelined() ? "; software pipelined" : ""));
  line("// time steps of one item:");
  std::string TS = formatTimeSteps(N, P);
  for (size_t A = 0, B; A < TS.size(); A = B + 1) {
    B = TS.find('\n', A);
    line("//   " + TS.substr(A, B - A));
  }
  line(fmt::format("// NRAM: {} bytes at peak; WRAM: {} bytes; estimated "
                   "{:.0f} cycles, GDRAM {} bytes read ({} of parameters), {} "
                   "written",
                   P.PeakBytes, P.WramPeakBytes, P.Cycles, P.ReadBytes,
                   P.WeightReadBytes, P.WriteBytes));
  line("// Generated by bangc-sim graph --layer-group; compute functions in "
       "lg_ops.mlu.");
  line("#include \"lg_ops.mlu\"");
  line("");
  int64_t MaxVec = P.maxVectorBytes(N);
  line(fmt::format("#define LG_NRAM_BYTES {}", std::max<int64_t>(64, P.PeakBytes)));
  line(fmt::format("#define LG_WRAM_BYTES {}",
                   std::max<int64_t>({64, P.WramPeakBytes, MaxVec})));
  line("__nram__ char lg_nram[LG_NRAM_BYTES];");
  line("__wram__ char lg_wram[LG_WRAM_BYTES];");
  // Inputs staged in SRAM: SramImages images of each, [N][H][W][C]; then
  // resident weights staged in SRAM: each layer's [KY][KX][C][F].
  std::map<int, int64_t> SramOff;  // tensor -> float offset
  std::map<int, int64_t> SramWOff; // layer -> float offset
  int64_t SramFloats = 0;
  if (P.inputsInSram())
    for (int T : G.Inputs) {
      SramOff[T] = SramFloats;
      SramFloats += P.SramImages * N.Tensors[T].elements();
    }
  if (P.weightsInSram())
    for (int L : G.Layers)
      if (N.Layers[L].Kind == OpKind::Conv) {
        SramWOff[L] = SramFloats;
        SramFloats += int64_t(N.Layers[L].Weight.size());
      }
  if (P.usesSram())
    line(fmt::format("__mlu_shared__ float lg_sram[{}]; // the group {}, once "
                     "per {}",
                     SramFloats,
                     P.inputsInSram() && P.weightsInSram() ? "inputs and weights"
                     : P.inputsInSram()                  ? "inputs"
                                                       : "weights",
                     P.sramBroadcast() ? "chip (each cluster reads a share and "
                                       "sends it to the others)"
                                     : "cluster"));
  line("");

  // Slice function: rows and columns of every tensor for an item.
  size_t NT = G.Tensors.size();
  line("// Item = ((channel slice * N slices + image slice) * H slices + H "
       "slice) * W slices + W slice. Rows [lo, hi) and columns [clo, chi) of "
       "each tensor (backward-H and backward-W from the group output).");
  line(fmt::format("__mlu_func__ void {}_slice(int item, int *n0, int *nb, "
                   "int *f0, int *ft, int *lo, int *hi, int *clo, int *chi) {{",
                   K.Name));
  // The item decomposition of the plan: the outermost axis needs no
  // modulo, the innermost no division.
  auto outer = [](const ItemAxis &A) {
    return fmt::format("item / {}", A.Stride);
  };
  auto inner = [](const ItemAxis &A) {
    return fmt::format("(item / {}) % {}", A.Stride, A.Count);
  };
  std::string HsWs = fmt::format("hs = {}, ws = item % {}",
                                 inner(P.rowAxis()), P.columnAxis().Count);
  if (P.imagesOuter())
    line(fmt::format("  int ni = {}, fi = {}, {}; // image slices outermost",
                     outer(P.imageAxis()), inner(P.channelAxis()), HsWs));
  else
    line(fmt::format("  int fi = {}, ni = {}, {};", outer(P.channelAxis()),
                     inner(P.imageAxis()), HsWs));
  line(fmt::format("  *n0 = ni * {};", P.NB));
  line(fmt::format("  *nb = {} - *n0 < {} ? {} - *n0 : {};", P.Batch, P.NB,
                   P.Batch, P.NB));
  line(fmt::format("  *f0 = fi * {};", FT));
  line(fmt::format("  *ft = {} - *f0 < {} ? {} - *f0 : {};", F, FT, F, FT));
  emitSliceAxis(S, N, P, false);
  emitSliceAxis(S, N, P, true);
  line("}");
  line("");

  // Parameters.
  std::vector<std::string> Params;
  for (int T : G.Inputs) {
    Params.push_back(fmt::format("const float *g_t{}", T));
    K.Params.push_back({KernelParamRef::Tensor, T});
  }
  for (int T : G.Outputs) {
    Params.push_back(fmt::format("float *g_t{}", T));
    K.Params.push_back({KernelParamRef::Tensor, T});
  }
  for (int L : G.Layers) {
    const Layer &Ly = N.Layers[L];
    if (Ly.Kind == OpKind::Conv) {
      Params.push_back(fmt::format("const float *g_w{}", L));
      K.Params.push_back({KernelParamRef::Weight, L});
    }
    if (!Ly.Bias.empty()) {
      Params.push_back(fmt::format("const float *g_b{}", L));
      K.Params.push_back({KernelParamRef::Bias, L});
    }
    if (!Ly.Alpha.empty()) {
      Params.push_back(fmt::format("const float *g_a{}", L));
      K.Params.push_back({KernelParamRef::Alpha, L});
    }
  }
  std::string PL;
  for (size_t I = 0; I < Params.size(); ++I)
    PL += (I ? ", " : "") + Params[I];
  line(fmt::format("__mlu_global__ void {}({}) {{", K.Name, PL));
  line(fmt::format("  const int ITEMS = {};", P.items()));

  // Buffers.
  line("  // NRAM buffers: offset, bytes, lifetime [start, end] in time steps");
  std::map<std::pair<int, int>, const LmemBuffer *> Act;     // (tensor, copy)
  std::map<std::pair<int, int>, const LmemBuffer *> Vec;     // (layer, part)
  std::map<std::pair<int, int>, const LmemBuffer *> Wt;      // (layer, copy)
  std::map<std::pair<int, int>, const LmemBuffer *> Scr;     // (layer, part)
  auto listBuf = [&](const LmemBuffer &B) {
    std::string End = B.End == TsInf ? "inf" : std::to_string(B.End);
    line(fmt::format("  //   {:>8} {:>8} [{}, {}] {}", B.Offset, B.Bytes,
                     B.Start, End, B.Name));
  };
  for (const LmemBuffer &B : P.Buffers) {
    listBuf(B);
    if (B.K == LmemBuffer::Activation)
      Act[{B.Tensor, B.Copy}] = &B;
    else if (B.K == LmemBuffer::Weight)
      Vec[{B.Layer, B.Part}] = &B;
    else
      Scr[{B.Layer, B.Part}] = &B;
  }
  line("  // WRAM buffers (convolution weights, [KY][KX][C][F])");
  for (const LmemBuffer &B : P.WramBuffers) {
    listBuf(B);
    Wt[{B.Layer, B.Copy}] = &B;
  }
  for (int T : G.Tensors) {
    int Root = P.Alias.count(T) ? P.Alias.at(T) : T; // in place
    const LmemBuffer *A = Act.at({Root, 0});
    const LmemBuffer *B = Act.count({Root, 1}) ? Act.at({Root, 1}) : A;
    // (Element by element: an initialised local array becomes a global
    // initialiser, which may not take an on-chip address.)
    line(fmt::format("  float *t{0}[2]; t{0}[0] = (float *)(lg_nram + {1}); "
                     "t{0}[1] = (float *)(lg_nram + {2}); // {3}",
                     T, A->Offset, B->Offset, N.Tensors[T].Name));
  }
  for (auto &[Key, B] : Wt) {
    auto [L, Copy] = Key;
    if (Copy)
      continue;
    const LmemBuffer *B1 = Wt.count({L, 1}) ? Wt.at({L, 1}) : B;
    line(fmt::format("  float *w{0}[2]; w{0}[0] = (float *)(lg_wram + {1}); "
                     "w{0}[1] = (float *)(lg_wram + {2});",
                     L, B->Offset, B1->Offset));
  }
  for (auto &[Key, B] : Vec)
    line(fmt::format("  float *const {}{} = (float *)(lg_nram + {});",
                     Key.second == 1 ? "b" : "a", Key.first, B->Offset));
  for (auto &[Key, B] : Scr)
    line(fmt::format("  float *const {}{} = (float *)(lg_nram + {});",
                     Key.second == 0 ? "tile" : "vtile", Key.first, B->Offset));

  auto kkc = [&](int L) { return GroupPlan::weightsPerChannel(N, L); };
  // The weights of a channel slice are one contiguous HWIO block at
  // f0 * KY * KX * C (GroupPlan::packWeights).
  auto weightLoad = [&](const std::string &Ind, int L, const std::string &Buf,
                        const std::string &F0, const std::string &Ft,
                        bool Async) {
    line(fmt::format("{}lg_load_wram(w{}[{}], g_w{} + {} * {}, {} * {}, {});",
                     Ind, L, Buf, L, F0, kkc(L), Ft, kkc(L),
                     Async ? "true" : "false"));
  };
  auto tensorLoad = [&](const std::string &Ind, int T, const std::string &Buf,
                        const std::string &Pfx, bool Async) {
    const Tensor &Tn = N.Tensors[T];
    int Sl = slot(T);
    std::string Src = P.inputsInSram()
                          ? fmt::format("lg_sram + {}", SramOff.at(T))
                          : fmt::format("g_t{}", T);
    if (P.PaddedInputs.count(T)) {
      // Into the reader's window tile: rows from lo * SY - PU, as many as
      // its output rows need, and all W columns after PL padding ones.
      const Layer &Ly = N.Layers[P.PaddedInputs.at(T)];
      int So = slot(Ly.Output);
      int64_t Cols = (N.Tensors[Ly.Output].W - 1) * Ly.SX + Ly.keffX();
      line(fmt::format(
          "{0}lg_load_padded(t{1}[{2}], {3}, {4}n0{5}, {6}, {7}, {8}, "
          "{4}lo[{9}], {4}hi[{9}], {4}lo[{10}] * {11} - {12}, ({4}hi[{10}] - "
          "{4}lo[{10}] - 1) * {11} + {13}, {14}, {15}, {16}, {17}); // load "
          "{18} "
          "into {19}'s padded tile",
          Ind, T, Buf, Src, Pfx, P.inputsInSram() ? " - s_n0" : "", Tn.C, Tn.H,
          Tn.W, Sl, So, Ly.SY, Ly.PU, Ly.keffY(), Cols, Ly.PL,
          Async ? "true" : "false", P.inputsInSram() ? "true" : "false", Tn.Name,
          Ly.Name));
      return;
    }
    line(fmt::format("{0}lg_load(t{1}[{2}], {12}, {3}n0{14}, {3}nb, {4}, {5}, "
                     "{6}, {3}lo[{7}], {3}hi[{7}], {3}clo[{7}], {3}chi[{7}], "
                     "{8}, {9}, {10}, {13}); // load {11}",
                     Ind, T, Buf, Pfx, Tn.C, Tn.H, Tn.W, Sl, P.H.RowsCap[Sl],
                     P.W.RowsCap[Sl], Async ? "true" : "false", Tn.Name, Src,
                     P.inputsInSram() ? "true" : "false",
                     P.inputsInSram() ? " - s_n0" : ""));
  };
  auto tensorStore = [&](const std::string &Ind, int T, const std::string &Buf,
                         const std::string &Pfx, bool Async) {
    const Tensor &Tn = N.Tensors[T];
    int Sl = slot(T);
    // Only the item's own rows and columns: for an H (W) sliced output,
    // its slice.
    auto own = [&](const char *Lo, const char *Hi, const char *Idx, int Secs,
                   int64_t Step, int64_t Ext) {
      if (Secs == 1)
        return fmt::format("{0}{1}[{3}], {0}{2}[{3}]", Pfx, Lo, Hi, Sl);
      return fmt::format("{0}{1} * {2}, ({0}{1} * {2} + {2} < {3} ? {0}{1} * "
                         "{2} + {2} : {3})",
                         Pfx, Idx, Step, Ext);
    };
    line(fmt::format("{0}lg_store(g_t{1}, t{1}[{2}], {3}n0, {3}nb, {4}, {5}, "
                     "{6}, {7}, {8}, {9}, {10}, {3}lo[{11}], {3}clo[{11}], "
                     "{3}chi[{11}], {12}, {13}, {14}); // store {15}",
                     Ind, T, Buf, Pfx, Global ? Pfx + "f0" : "0",
                     Global ? Pfx + "ft" : std::to_string(Tn.C), Tn.C, Tn.H,
                     Tn.W, own("lo", "hi", "hs", P.HSecs, P.H.Step, Tn.H),
                     own("clo", "chi", "ws", P.WSecs, P.W.Step, Tn.W), Sl,
                     P.H.RowsCap[Sl], P.W.RowsCap[Sl], Async ? "true" : "false",
                     Tn.Name));
  };
  // The first convolution of a pipelined item of one image makes its
  // window tile before ts1 queues the stores and loads, which its
  // synchronous copy would otherwise wait for.
  int TileFirst = P.pipelined() && P.Steps[1].TileFirstCycles > 0
                      ? P.Steps[1].Compute.front()
                      : -1;
  auto emitCompute = [&](const std::string &Ind, int L) {
    const Layer &Ly = N.Layers[L];
    int O = Ly.Output;
    const Tensor &To = N.Tensors[O];
    int So = slot(O);
    auto img = [&](int T) {
      return fmt::format("t{}[cur] + i * {}", T, P.sliceImageFloats(N, T));
    };
    // An input slice: pointer, first row, columns [clo, chi).
    auto inSlice = [&](int T) {
      return fmt::format("{0}, lo[{1}], clo[{1}], chi[{1}]", img(T), slot(T));
    };
    // The output region: the whole output slice.
    std::string Region =
        fmt::format("lo[{0}], hi[{0}], clo[{0}], chi[{0}]", So);
    std::string OutImg = img(O);
    int I0 = Ly.Inputs[0];
    const Tensor &Ti = N.Tensors[I0];
    std::string Fo = (Global && G.computes(N, O)) ? "f0" : "0";
    std::string BiasP = Ly.Bias.empty()
                            ? "nullptr"
                            : fmt::format("b{} + {}", L, Fo);
    std::string AlphaP = Ly.Alpha.empty()
                             ? "nullptr"
                             : fmt::format("a{} + {}", L, Fo);
    std::string Tile = Scr.count({L, 0}) ? fmt::format("tile{}", L) : "nullptr";
    std::string VTile =
        Scr.count({L, 1}) ? fmt::format("vtile{}", L) : "nullptr";
    std::string Co = chansExpr(O);
    line(fmt::format("{}for (int i = 0; i < nb; ++i) // {} ({})", Ind, Ly.Name,
                     opKindName(Ly.Kind)));
    std::string I2 = Ind + "  ";
    switch (Ly.Kind) {
    case OpKind::Conv:
      if (P.PaddedInputs.count(I0) || TileFirst == L) {
        line(fmt::format("{}lg_conv_tile({}, {}, {}, {}, hi[{}] - lo[{}], "
                         "chi[{}] - clo[{}], w{}[{}], {}, {}, {}, {}, {}, {}, "
                         "{}, {}, {}, 0);",
                         I2, OutImg,
                         TileFirst == L ? fmt::format("win{}", L)
                                        : fmt::format("t{}[cur]", I0),
                         Ti.C, Co, So, So, So, So, L, Global ? "wcur" : "0",
                         BiasP, Ly.KY, Ly.KX, Ly.SY, Ly.SX, Ly.DY, Ly.DX, VTile,
                         P.TilePx));
        break;
      }
      line(fmt::format("{}lg_conv({}, {}, {}, {}, {}, {}, {}, w{}[{}], {}, "
                       "{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, 0);",
                       I2, OutImg, inSlice(I0), Ti.C, Ti.H, Ti.W, Co, Region, L,
                       Global ? "wcur" : "0", BiasP, Ly.KY, Ly.KX, Ly.SY, Ly.SX,
                       Ly.PU, Ly.PL, Ly.DY, Ly.DX, Tile, VTile, P.TilePx));
      break;
    case OpKind::MaxPool:
    case OpKind::MinPool:
    case OpKind::SumPool: {
      int Mode = Ly.Kind == OpKind::MaxPool ? 0 : Ly.Kind == OpKind::MinPool ? 1 : 2;
      line(fmt::format("{}lg_pool({}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, "
                       "{}, {}, {}, {}, {}, {}, {}, {});",
                       I2, OutImg, inSlice(I0), Co, Ti.H, Ti.W, Region, Ly.KY,
                       Ly.KX, Ly.SY, Ly.SX, Ly.PU, Ly.PL, Mode,
                       floatLit(Ly.Cmp), BiasP, floatLit(Ly.ConstB), Tile,
                       VTile, P.TilePx));
      break;
    }
    case OpKind::Relu:
      line(fmt::format("{}lg_relu({}, {}, {}, {});", I2, OutImg, inSlice(I0),
                       Co, Region));
      break;
    case OpKind::Clamp:
      line(fmt::format("{}lg_clamp({}, {}, {}, {}, {}, {});", I2, OutImg,
                       inSlice(I0), Co, Region, Ly.ClampMax ? 0 : 1,
                       floatLit(Ly.Cmp)));
      break;
    case OpKind::Scale:
      line(fmt::format("{}lg_scale({}, {}, {}, {}, {}, {}, {}, {}, {}, {});",
                       I2, OutImg, inSlice(I0), Co, Region, AlphaP,
                       floatLit(Ly.ConstA), BiasP, floatLit(Ly.ConstB), VTile,
                       P.TilePx));
      break;
    case OpKind::Add: {
      if (Ly.Inputs.size() == 1) {
        line(fmt::format("{}lg_scale({}, {}, {}, {}, nullptr, 1.0f, {}, {}, "
                         "{}, {});",
                         I2, OutImg, inSlice(I0), Co, Region, BiasP,
                         floatLit(Ly.ConstB), VTile, P.TilePx));
        break;
      }
      line(Ind + "{");
      int I1 = Ly.Inputs[1];
      bool Last = Ly.Inputs.size() == 2;
      line(fmt::format("{}lg_add({}, {}, {}, {}, {}, {}, {}, {}, {});", I2,
                       OutImg, inSlice(I0), inSlice(I1), Co, Region,
                       Last ? BiasP : "nullptr",
                       Last ? floatLit(Ly.ConstB) : "0.0f", VTile, P.TilePx));
      for (size_t X = 2; X < Ly.Inputs.size(); ++X) {
        int Ix = Ly.Inputs[X];
        bool L2 = X + 1 == Ly.Inputs.size();
        line(fmt::format("{}lg_add({}, {}, {}, {}, {}, {}, {}, {}, {});", I2,
                         OutImg, inSlice(O), inSlice(Ix), Co, Region,
                         L2 ? BiasP : "nullptr",
                         L2 ? floatLit(Ly.ConstB) : "0.0f", VTile, P.TilePx));
      }
      line(Ind + "}");
      break;
    }
    }
  };

  // Prologue.
  for (auto [T, L] : P.PaddedInputs) {
    line(fmt::format("  // {}'s padded tile: the padding columns stay zero",
                     N.Layers[L].Name));
    const LmemBuffer *A = Act.at({T, 0});
    line(fmt::format("  __bang_write_zero(t{}[0], {});", T, A->Bytes / 4));
    if (Act.count({T, 1}))
      line(fmt::format("  __bang_write_zero(t{}[1], {});", T, A->Bytes / 4));
  }
  line("  // prologue: per-channel vectors, staged through WRAM; once per core");
  for (auto &[Key, B] : Vec)
    line(fmt::format("  lg_load_vec({0}{1}, (float *)lg_wram, g_{0}{1}, {2});",
                     Key.second == 1 ? "b" : "a", Key.first,
                     B->Bytes / 4));
  if (P.weightsInSram() && P.sramBroadcast()) {
    line("  // resident weights, staged in SRAM once per chip (each core "
         "copies a share and sends it to the other clusters), then "
         "SRAM->WRAM by every core");
    for (auto &[Key, B] : Wt)
      if (Key.second == 0)
        line(fmt::format("  lg_stage_sram_all(lg_sram + {}, g_w{}, {});",
                         SramWOff.at(Key.first), Key.first,
                         N.Layers[Key.first].Weight.size()));
    line("  __sync_all();");
  } else if (P.weightsInSram()) {
    line("  // resident weights, staged in SRAM once per cluster (each core "
         "copies a share), then SRAM->WRAM by every core");
    for (auto &[Key, B] : Wt)
      if (Key.second == 0)
        line(fmt::format("  lg_stage_sram(lg_sram + {}, g_w{}, {}, coreId, "
                         "coreDim);",
                         SramWOff.at(Key.first), Key.first,
                         N.Layers[Key.first].Weight.size()));
    line("  __sync_cluster();");
  }
  if (P.weightsInSram()) {
    for (auto &[Key, B] : Wt)
      if (Key.second == 0)
        line(fmt::format("  lg_load_wram_sram(w{}[0], lg_sram + {}, {});",
                         Key.first, SramWOff.at(Key.first),
                         N.Layers[Key.first].Weight.size()));
  } else if (P.weightsResident()) {
    line("  // resident weights, loaded once per core");
    for (auto &[Key, B] : Wt)
      if (Key.second == 0)
        weightLoad("  ", Key.first, "0", "0",
                   std::to_string(N.Tensors[N.Layers[Key.first].Output].C),
                   false);
  }
  line(fmt::format("  int n0, nb, f0, ft, lo[{0}], hi[{0}], clo[{0}], "
                   "chi[{0}];",
                   NT));
  // Inputs staged once per chip run in phases: each phase stages its
  // images in every cluster's SRAM and spreads its items over all cores.
  bool Phased = P.phased();
  if (!Phased)
    line("  const int begin = taskId * ITEMS / taskDim, end = (taskId + 1) * "
         "ITEMS / taskDim;");
  if (P.inputsInSram() && !Phased) {
    line("  // the images [s_n0, s_n1) of the group inputs that this cluster's "
         "items need, staged in SRAM: each core of the cluster copies a share");
    line(fmt::format("  {}_slice(clusterId * coreDim * ITEMS / taskDim, &n0, "
                     "&nb, &f0, &ft, lo, hi, clo, chi);",
                     K.Name));
    line("  const int s_n0 = n0;");
    line(fmt::format("  {}_slice((clusterId + 1) * coreDim * ITEMS / taskDim - "
                     "1, &n0, &nb, &f0, &ft, lo, hi, clo, chi);",
                     K.Name));
    line("  const int s_n1 = n0 + nb;");
    for (int T : G.Inputs)
      line(fmt::format("  lg_stage_sram(lg_sram + {}, g_t{} + (long)s_n0 * {}, "
                       "(long)(s_n1 - s_n0) * {}, coreId, coreDim);",
                       SramOff.at(T), T, N.Tensors[T].elements(),
                       N.Tensors[T].elements()));
    line("  __sync_cluster();");
  }
  auto residentInputs = [&](const std::string &Ind) {
    line(Ind + "// resident inputs (the same rows for every item), once per "
               "core");
    line(fmt::format("{}{}_slice(begin, &n0, &nb, &f0, &ft, lo, hi, clo, "
                     "chi);",
                     Ind, K.Name));
    for (int X : G.Inputs)
      tensorLoad(Ind, X, "0", "", false);
  };
  if (P.inputsResident() && !Phased)
    residentInputs("  ");
  if (Global)
    line("  int wf = -1, wcur = 0; // the channel slice in w[wcur]");
  if (P.pipelined())
    line(fmt::format("  int p_n0 = 0, p_nb = 0, p_f0 = 0, p_ft = 0, p_hs = 0, "
                     "p_ws = 0, p_lo[{0}], p_hi[{0}], p_clo[{0}], p_chi[{0}], "
                     "x_n0, x_nb, x_f0, x_ft, x_lo[{0}], x_hi[{0}], "
                     "x_clo[{0}], x_chi[{0}];",
                     NT));
  if (Phased) {
    int64_t PI = P.items() / P.SramPhases;
    line(fmt::format("  for (int ph = 0; ph < {}; ++ph) {{", P.SramPhases));
    line(fmt::format("    // phase ph: images [s_n0, s_n0 + {}) of the group "
                     "inputs in every cluster's SRAM (each core copies a share "
                     "and sends it to the other clusters), then items "
                     "[ph * {}, (ph + 1) * {}) over all cores",
                     P.SramImages, PI, PI));
    line("    if (ph > 0)");
    line("      __sync_all(); // every core is done with the previous images");
    line(fmt::format("    const int s_n0 = ph * {};", P.SramImages));
    for (int T : G.Inputs)
      line(fmt::format("    lg_stage_sram_all(lg_sram + {}, g_t{} + (long)s_n0 "
                       "* {}, {}L);",
                       SramOff.at(T), T, N.Tensors[T].elements(),
                       P.SramImages * N.Tensors[T].elements()));
    line("    __sync_all();");
    line(fmt::format("    const int begin = ph * {0} + taskId * {0} / taskDim, "
                     "end = ph * {0} + (taskId + 1) * {0} / taskDim;",
                     PI));
    if (P.inputsResident())
      residentInputs("    ");
  }
  size_t BodyAt = S.size(); // indented once more inside the phase loop
  line("  int k = 0;");
  line("  for (int item = begin; item < end; ++item, ++k) {");
  line("    const int cur = k & 1;");
  line(fmt::format("    {}_slice(item, &n0, &nb, &f0, &ft, lo, hi, clo, chi);",
                   K.Name));
  line(fmt::format("    const int hs = (item / {}) % {}, ws = item % {};",
                   P.WSecs, P.HSecs, P.WSecs));
  line("    (void)hs; (void)ws;");
  int KL = int(G.Layers.size());
  if (!P.pipelined()) {
    for (int Ts = 0; Ts < int(P.Steps.size()); ++Ts) {
      const TimeStep &T = P.Steps[Ts];
      line(fmt::format("    // ts{}", Ts));
      if (!P.inputsResident())
        for (int X : T.LoadTensors)
          tensorLoad("    ", X, "cur", "", true);
      if (!P.weightsResident())
        for (int L : T.LoadWeights) {
          if (Global) {
            line("    if (f0 != wf) {");
            weightLoad("      ", L, "wcur", "f0", "ft", true);
            line("      wf = f0;");
            line("    }");
          } else {
            weightLoad("    ", L, "0", "0",
                       std::to_string(N.Tensors[N.Layers[L].Output].C), true);
          }
        }
      for (int X : T.StoreTensors)
        tensorStore("    ", X, "cur", "", true);
      for (int L : T.Compute)
        emitCompute("    ", L);
      line("    __sync();");
    }
  } else {
    line("    if (k == 0) { // ts0 of the first item: nothing to overlap with");
    if (!P.inputsResident())
      for (int X : G.Inputs)
        tensorLoad("      ", X, "cur", "", false);
    if (Global) {
      line("      if (f0 != wf) { // kept from an earlier phase otherwise");
      weightLoad("        ", G.First, "wcur", "f0", "ft", false);
      line("        wf = f0;");
      line("      }");
    }
    line("    }");
    if (Global)
      line("    if (f0 != wf) { wcur ^= 1; wf = f0; } // prefetched by the "
           "previous item");
    for (int Ts = 1; Ts <= KL; ++Ts) {
      line(fmt::format("    // ts{}", Ts));
      if (Ts == 1 && TileFirst >= 0) {
        const Layer &Ly = N.Layers[TileFirst];
        int I0 = Ly.Inputs[0], Si = slot(I0), So = slot(Ly.Output);
        const Tensor &Ti = N.Tensors[I0];
        line(fmt::format(
            "    const float *win{0} = lg_conv_window(t{1}[cur], lo[{2}], "
            "clo[{2}], chi[{2}], {3}, {4}, {5}, lo[{6}], hi[{6}], clo[{6}], "
            "chi[{6}], {7}, {8}, {9}, {10}, {11}, {12}, {13}, {14}, tile{0}); "
            "// {15}'s window tile first",
            TileFirst, I0, Si, Ti.C, Ti.H, Ti.W, So, Ly.KY, Ly.KX, Ly.SY, Ly.SX,
            Ly.PU, Ly.PL, Ly.DY, Ly.DX, Ly.Name));
      }
      if (Ts == 1) {
        line("    if (k > 0) { // store i-1");
        for (int X : G.Outputs)
          tensorStore("      ", X, "cur ^ 1", "p_", true);
        line("    }");
        line("    if (item + 1 < end) { // load i+1");
        line(fmt::format("      {}_slice(item + 1, &x_n0, &x_nb, &x_f0, "
                         "&x_ft, x_lo, x_hi, x_clo, x_chi);",
                         K.Name));
        if (!P.inputsResident())
          for (int X : G.Inputs)
            tensorLoad("      ", X, "cur ^ 1", "x_", true);
        if (Global) {
          line("      if (x_f0 != f0) // a new channel slice: its weight tile");
          weightLoad("        ", G.First, "wcur ^ 1", "x_f0", "x_ft", true);
        }
        line("    }");
      }
      for (int L : P.Steps[Ts].Compute)
        emitCompute("    ", L);
      line("    __sync();");
    }
    line("    p_n0 = n0; p_nb = nb; p_f0 = f0; p_ft = ft; p_hs = hs; p_ws = "
         "ws;");
    line(
        fmt::format("    for (int s = 0; s < {}; ++s) {{ p_lo[s] = lo[s]; "
                    "p_hi[s] = hi[s]; p_clo[s] = clo[s]; p_chi[s] = chi[s]; }}",
                    NT));
  }
  line("  }");
  if (P.pipelined()) {
    line("  if (k > 0) { // the last item's outputs");
    line("    const int cur = k & 1;");
    for (int X : G.Outputs)
      tensorStore("    ", X, "cur ^ 1", "p_", false);
    line("  }");
  }
  if (Phased) {
    std::string Body = S.substr(BodyAt), Indented;
    for (size_t A = 0, E; A < Body.size(); A = E + 1) {
      E = Body.find('\n', A);
      Indented += "  " + Body.substr(A, E - A) + "\n";
    }
    S.resize(BodyAt);
    S += Indented;
    line("  }");
  }
  if (P.pipelined())
    line("  (void)x_n0; (void)x_nb; (void)x_f0; (void)x_ft;");
  if (Global)
    line("  (void)wf; (void)wcur;");
  line("}");
  K.Source = S;
  return K;
}

} // namespace bangc::lg
