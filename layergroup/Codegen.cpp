//===- Codegen.cpp - LayerGroup: one .mlu kernel per group ----------------===//
//
// The kernel of a group walks its work items (N slice x H slice x W slice x
// channel slice), spread across cores by taskId. For each item it follows
// the time-step table: per step, issue the step's loads and stores (async),
// run the step's compute function, and __sync(). With more items than cores
// the item loop is software pipelined: during the first compute step of
// item i the outputs of item i-1 are stored and the inputs of item i+1
// loaded, into the other half of double-buffered NRAM.
//
// KernelWriter writes the kernel section by section (header, declarations,
// slice function, buffers, prologue, SRAM staging, the item loop and its
// plain or pipelined body) through an Emitter, whose scopes give the
// nesting. Every decision comes from the GroupPlan.
//
//===----------------------------------------------------------------------===//
#include "layergroup/Codegen.h"

#include "layergroup/Emitter.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace bangc::lg {

namespace {
#include "lg_ops_embed.inc"
}

const char *lgOpsSource() { return LgOpsText; }

std::string selfContainedSource(const GroupKernel &k) {
  std::string s = k.Source;
  const std::string include = "#include \"lg_ops.mlu\"";
  size_t at = s.find(include);
  if (at != std::string::npos)
    s.replace(at, include.size(),
              std::string("// ---- lg_ops.mlu ----\n") + LgOpsText +
                  "// ---- end lg_ops.mlu ----\n");
  return s;
}

namespace {

std::string str(int64_t v) { return std::to_string(v); }
const char *boolLit(bool b) { return b ? "true" : "false"; }

/// A double literal that reads back as \p v exactly (infinities included).
std::string doubleLit(double v) {
  if (std::isinf(v))
    return v > 0 ? "__builtin_inf()" : "-__builtin_inf()";
  return fmt::format("{:.17g}", v);
}

std::string floatLit(double v) {
  if (std::isinf(v))
    return v > 0 ? "__builtin_inff()" : "(-__builtin_inff())";
  return fmt::format("(float){:.17g}", v);
}

/// The mode argument of lg_pool and lg_int_pool (lg_ops.mlu).
int poolMode(OpKind kind) {
  return kind == OpKind::MaxPool ? 0 : kind == OpKind::MinPool ? 1 : 2;
}

using BufferMap = std::map<std::pair<int, int>, const LmemBuffer *>;

class KernelWriter {
public:
  KernelWriter(const Net &n, const GroupPlan &p, int index)
      : n(n), p(p), g(p.Info), index(index) {
    k.Name = fmt::format("lg_group{}", index);
    k.Tasks = p.Cores;
    k.Union = p.launchUnion();
  }

  GroupKernel write();

private:
  const Net &n;
  const GroupPlan &p;
  const GroupInfo &g;
  int index;
  GroupKernel k;
  Emitter e;
  BufferMap act;                   ///< (tensor, copy)
  BufferMap vec;                   ///< (layer, part)
  BufferMap wt;                    ///< (layer, copy)
  BufferMap scr;                   ///< (layer, part)
  std::map<int, int64_t> sramOff;  ///< tensor -> float offset in lg_sram
  std::map<int, int64_t> sramWOff; ///< layer -> float offset in lg_sram
  int64_t sramFloats = 0;
  /// The per-channel vectors load beside phase 0's input staging
  /// (phaseStart), so the items load none.
  bool vecStaged = false;

  int tensors() const { return int(g.Tensors.size()); }
  /// The device element type of tensor \p t.
  std::string ctype(int t) const { return deviceCType(n.Tensors[t].Type); }
  /// A pointer of element type \p ty at float offset \p off of lg_sram
  /// (declared float; every staged array starts at a multiple of 4 bytes).
  static std::string sramPtr(DType ty, int64_t off) {
    std::string at = "lg_sram + " + std::to_string(off);
    if (ty == DType::F32)
      return at;
    return fmt::format("({} *)({})", deviceCType(ty), at);
  }
  /// The first convolution of a pipelined item of one image makes its
  /// window tile before ts1 queues the stores and loads, which its
  /// synchronous copy would otherwise wait for; -1 if none.
  int tileFirst() const {
    return p.pipelined() && p.Steps[1].TileFirstCycles > 0
               ? p.Steps[1].Compute.front()
               : -1;
  }
  std::string sliceCall(const std::string &item,
                        const std::string &pfx = "") const {
    return fmt::format("{}_slice({}, &{p}n0, &{p}nb, &{p}f0, &{p}ft, {p}lo, "
                       "{p}hi, {p}clo, {p}chi);",
                       k.Name, item, fmt::arg("p", pfx));
  }

  void header();
  void declarations();
  void sliceAxis(bool w);
  void sliceFunction();
  void signature();
  void bufferPointers();
  void prologue();
  void clusterStaging();
  void residentInputs();
  void phaseStart();
  void firstTileLoad(const std::string &why);
  void clusterSendsStart();
  void stageRest(bool sends);
  void stagedRestBarrier();
  /// A staging in SRAM once per chip: SRAM place, GDRAM source, count.
  struct Staged {
    std::string Sram, Src, Count;
    /// Read only the rest of the share after this piece of it (in
    /// GroupPlan::ReadAheadDen), when not empty.
    std::string ReadFrom = {};
  };
  std::vector<Staged> phaseStaged(bool withPhase);
  void readAhead();
  void stageAll(const std::vector<Staged> &staged,
                const std::function<void()> &overlap,
                const std::function<void()> &last = {});
  void itemLoop();
  void keptRowsStart();
  void keptRowsMove(int ts);
  std::string keepRowsCall(int t, const std::string &from,
                           const std::string &rows, const std::string &at,
                           bool async) const;
  void plainItem();
  void tailPieces(int from);
  /// Emits r_p, r_a, r_b: the first rows of group output pieces pc - 1,
  /// pc and pc + 1 of \p pieces (tailPieces, lastItemPieces).
  void pieceRows(int pieces);
  /// Layer \p l over rows [pa, pb) of its slice in piece pc: from \p pa
  /// to \p pb, or (empty) the plain tail's rows of its slice in pieces of
  /// \p pieces.
  void layerPiece(int l, int pieces, const std::string &pa = "",
                  const std::string &pb = "");
  void lastItemPieces(int from);
  void lastRowsFirst(int l);
  /// With rowPiece in lastItemPieces: the last kernel row of a tile loaded
  /// by rows (lastRowsFirst) when last_row, else the whole tile.
  bool lastRow = false;
  void laterWramCopies();
  /// GroupPlan::LateWeights: the late weights' SRAM range (base pointer,
  /// floats) and each late layer's offset and floats in it.
  struct LateRange {
    std::string Base;
    int64_t Total = 0;
    std::vector<std::pair<int, int64_t>> Offsets; ///< (layer, offset)
  };
  LateRange lateRange() const;
  void lateWeightReads();
  void lateShareReads(const LateRange &r);
  void lateWeightSends();
  void lateWeightCopies(bool barrier);
  void lateSplitCompute(int l);
  /// computeArgs gives rows [pa, pb) of the output slice, which the caller
  /// declares (tailPieces).
  bool rowPiece = false;
  void pipelinedItem();
  void earlyPiece();
  std::string pieceLoad(const std::string &w, int l, const std::string &from,
                        const std::string &to) const;
  /// Of paddedLoad: 0 whole, 1 the padding rows, 2 the copy
  /// (lg_load_padded_part).
  int padPart = 0;
  void vectorLoads();
  void pipelinedLoads();
  void pipelinedStores();
  void tilePiece();
  void drain();

  void weightLoad(int l, const std::string &buf, const std::string &f0,
                  const std::string &ft, bool async);
  void tensorLoad(int t, const std::string &buf, const std::string &pfx,
                  bool async);
  /// tensorLoad of group input \p t into its reader's padded window tile
  /// (GroupPlan::PaddedInputs): the item's columns with their padding
  /// zeroed when W is sliced, else every column after the PL padding ones.
  void paddedLoad(int t, const std::string &dst, const std::string &src,
                  const std::string &n0, const std::string &pfx, bool async,
                  bool sram);
  void tensorStore(int t, const std::string &buf, const std::string &pfx,
                   bool async, const std::string &rowsFrom = "",
                   const std::string &rowsTo = "");
  /// Slice \p t of the current image: its pointer in the current buffer.
  std::string image(int t) const {
    return fmt::format("t{}[cur] + i * {}", t, p.sliceImageFloats(n, t));
  }
  /// An input slice: pointer, first row, columns [clo, chi).
  std::string inSlice(int t) const {
    std::string s = str(g.slot(t));
    return image(t) + ", lo[" + s + "], clo[" + s + "], chi[" + s + "]";
  }
  /// The arguments of layer Index's compute call that every kind shares.
  struct ComputeArgs {
    ComputeArgs(const Layer &layer, int index, const Tensor &in)
        : layer(layer), index(index), in0(layer.Inputs[0]), in(in) {}
    const Layer &layer;
    int index;
    int in0;                        ///< the first input tensor
    const Tensor &in;               ///< its shape
    std::string out;                ///< the output slice of the current image
    std::string region, rows, cols; ///< the whole output slice
    std::string co;                 ///< output channels in this item
    std::string bias, alpha, tile, weights;
  };
  ComputeArgs computeArgs(int l) const;
  void compute(int l);
  int poolFirstConv(int l, bool relu) const;
  void reluFloorsOnce(int l);
  std::string reluFloor(int relu) const;
  void computeInteger(const ComputeArgs &a);
  void computeIntegerExact(const ComputeArgs &a);
  void computeAdd(const ComputeArgs &a);
  void computeConv(const ComputeArgs &a);
  void computeConvByRows(const ComputeArgs &a);
  void nextItemRow0(const ComputeArgs &a, const std::string &tmp);
  void lastRowPiece(const ComputeArgs &a);
  void zeroPadColumns();
  void computeFloat(const ComputeArgs &a);
  void computeLif(const ComputeArgs &a);
};

void KernelWriter::header() {
  std::string layers;
  for (int l : g.Layers)
    layers += (layers.empty() ? "" : ", ") + n.Layers[l].Name;
  e.line(fmt::format("// {}: LayerGroup kernel for group {} of {}.", k.Name,
                     index, n.Name.empty() ? "the network" : n.Name));
  e.line("// layers: " + layers);
  std::string notes;
  if (p.weightsResident())
    notes += "; weights resident";
  if (p.LateWeights)
    notes += " (those after ts1 staged beside item 0: LateWeights)";
  if (p.inputsResident())
    notes += "; inputs resident";
  if (p.inputsInSram())
    notes += p.sramBroadcast()
                 ? fmt::format("; inputs staged in SRAM once per chip "
                               "(UNION{}), {} phase(s) of {} image(s)",
                               p.launchUnion(), p.SramPhases, p.SramImages)
                 : "; inputs staged in SRAM (UNION1)";
  if (p.pipelined())
    notes += "; software pipelined";
  if (p.KeepRows)
    notes += "; rows kept from the tile above (items down the columns)";
  e.line("// slices: N " + str(p.NSecs) + " (" + str(p.ImagesPerSlice) +
         " image(s) each), H " + str(p.HSecs) + " (" + str(p.H.Step) +
         " output rows each), W " + str(p.WSecs) + " (" + str(p.W.Step) +
         " output columns each), output channels " + str(p.FSecs) + "; " +
         str(p.items()) + " item(s) on " + str(p.Cores) +
         " core(s), contiguous item ranges" + notes);
  e.line("// time steps of one item:");
  std::string steps = formatTimeSteps(n, p);
  for (size_t at = 0, end; at < steps.size(); at = end + 1) {
    end = steps.find('\n', at);
    e.line("//   " + steps.substr(at, end - at));
  }
  e.line(fmt::format("// NRAM: {} bytes at peak; WRAM: {} bytes; estimated "
                     "{:.0f} cycles, GDRAM {} bytes read ({} of parameters), "
                     "{} written",
                     p.PeakBytes, p.WramPeakBytes, p.Cycles, p.ReadBytes,
                     p.WeightReadBytes, p.WriteBytes));
  e.line("// Generated by bangc-sim graph --layer-group; compute functions in "
         "lg_ops.mlu.");
  e.line("#include \"lg_ops.mlu\"");
  e.line("");
}

// Inputs staged in SRAM: SramImages images of each, [N][H][W][C]; then
// resident weights staged in SRAM: each layer's [KY][KX][C][F].
void KernelWriter::declarations() {
  e.line("#define LG_NRAM_BYTES " + str(std::max<int64_t>(64, p.PeakBytes)));
  e.line("#define LG_WRAM_BYTES " +
         str(std::max<int64_t>(64, p.WramPeakBytes)));
  e.line("__nram__ char lg_nram[LG_NRAM_BYTES];");
  e.line("__wram__ char lg_wram[LG_WRAM_BYTES];");
  if (p.inputsInSram())
    for (int t : g.Inputs) {
      sramOff[t] = sramFloats;
      sramFloats += (p.SramImages * n.Tensors[t].bytes() + 3) / 4;
    }
  if (p.weightsInSram())
    for (int l : g.Layers)
      if (n.Layers[l].Kind == OpKind::Conv) {
        sramWOff[l] = sramFloats;
        sramFloats += (int64_t(n.Layers[l].Weight.size()) *
                           n.weightElemBytes(n.Layers[l]) +
                       3) /
                      4;
      }
  if (p.usesSram()) {
    const char *what = p.inputsInSram() && p.weightsInSram()
                           ? "inputs and weights"
                       : p.inputsInSram() ? "inputs"
                                          : "weights";
    const char *per = p.sramBroadcast() ? "chip (each cluster reads a share "
                                          "and sends it to the others)"
                                        : "cluster";
    e.line(fmt::format("__mlu_shared__ float lg_sram[{}]; // the group {}, "
                       "once per {}",
                       sramFloats, what, per));
  }
  e.line("");
}

/// The slice function's ranges along H (lo/hi, from hs) or W (clo/chi, from
/// ws): the group output's own range, then backwards through the layers (a
/// tensor read by several layers takes the hull).
void KernelWriter::sliceAxis(bool w) {
  auto extent = [&](int t) { return w ? n.Tensors[t].W : n.Tensors[t].H; };
  std::string lo = w ? "clo" : "lo", hi = w ? "chi" : "hi";
  const char *idx = w ? "ws" : "hs";
  int secs = w ? p.WSecs : p.HSecs;
  const HSlicing &axis = w ? p.W : p.H;
  auto at = [](const std::string &a, int slot) {
    return a + "[" + str(slot) + "]";
  };
  if (secs == 1) {
    e.line(fmt::format("(void){};", idx));
    for (int i = 0; i < tensors(); ++i)
      e.line(at(lo, i) + " = 0; " + at(hi, i) + " = " +
             str(extent(g.Tensors[i])) + "; // " +
             n.Tensors[g.Tensors[i]].Name);
    return;
  }
  // Each group output's own rows (HSlicing::own), then backwards.
  std::set<int> done;
  for (int out : g.Outputs) {
    std::string olo = at(lo, g.slot(out)), ohi = at(hi, g.slot(out));
    std::string step = str(axis.stepOf(extent(out))), ext = str(extent(out));
    e.line(olo + " = " + idx + " * " + step + "; " + olo + " = " + olo + " < " +
           ext + " ? " + olo + " : " + ext + "; " + ohi + " = " + olo + " + " +
           step + " < " + ext + " ? " + olo + " + " + step + " : " + ext +
           "; // " + n.Tensors[out].Name);
    done.insert(g.slot(out));
  }
  for (int l = g.Last; l >= g.First; --l) {
    const Layer &layer = n.Layers[l];
    int o = g.slot(layer.Output);
    for (int in : layer.Inputs) {
      int i = g.slot(in);
      bool win = layer.windowed();
      std::string stride = str(win ? (w ? layer.SX : layer.SY) : 1),
                  pad = str(win ? (w ? layer.PL : layer.PU) : 0),
                  kernel = str(win ? (w ? layer.keffX() : layer.keffY()) : 1),
                  inExt = str(extent(in));
      e.line("{ int l = " + at(lo, o) + " * " + stride + " - " + pad +
             ", h = (" + at(hi, o) + " - 1) * " + stride + " - " + pad + " + " +
             kernel + "; l = l < 0 ? 0 : l; h = h > " + inExt + " ? " + inExt +
             " : h; // " + n.Tensors[in].Name + " <- " + layer.Name);
      auto inner = e.indent();
      std::string ilo = at(lo, i), ihi = at(hi, i);
      if (done.count(i))
        e.line(ilo + " = l < " + ilo + " ? l : " + ilo + "; " + ihi +
               " = h > " + ihi + " ? h : " + ihi + "; }");
      else
        e.line(ilo + " = l; " + ihi + " = h; }");
      done.insert(i);
    }
  }
}

// The item decomposition of the plan: the outermost axis needs no modulo,
// the innermost no division.
void KernelWriter::sliceFunction() {
  e.line("// Item = ((channel slice * N slices + image slice) * H slices + H "
         "slice) * W slices + W slice. Rows [lo, hi) and columns [clo, chi) "
         "of each tensor (backward-H and backward-W from the group output).");
  auto fn = e.block("__mlu_func__ void " + k.Name +
                    "_slice(int item, int *n0, int *nb, int *f0, int *ft, int "
                    "*lo, int *hi, int *clo, int *chi)");
  auto outer = [](const ItemAxis &a) { return "item / " + str(a.Stride); };
  auto inner = [](const ItemAxis &a) {
    return "(item / " + str(a.Stride) + ") % " + str(a.Count);
  };
  std::string hsWs = p.KeepRows
                         ? "ws = " + inner(p.columnAxis()) + ", hs = item % " +
                               str(p.rowAxis().Count)
                         : "hs = " + inner(p.rowAxis()) + ", ws = item % " +
                               str(p.columnAxis().Count);
  if (p.KeepRows)
    e.line("// KeepRows: the W slice before the H slice, so that a core's "
           "consecutive items go down a column of tiles.");
  if (p.imagesOuter())
    e.line("int ni = " + outer(p.imageAxis()) +
           ", fi = " + inner(p.channelAxis()) + ", " + hsWs +
           "; // image slices outermost");
  else
    e.line("int fi = " + outer(p.channelAxis()) +
           ", ni = " + inner(p.imageAxis()) + ", " + hsWs + ";");
  std::string nb = str(p.ImagesPerSlice), batch = str(p.Batch);
  std::string ft = str(p.SliceChannels), f = str(p.Channels);
  e.line("*n0 = ni * " + nb + ";");
  e.line("*nb = " + batch + " - *n0 < " + nb + " ? " + batch +
         " - *n0 : " + nb + ";");
  e.line("*f0 = fi * " + ft + ";");
  e.line("*ft = " + f + " - *f0 < " + ft + " ? " + f + " - *f0 : " + ft + ";");
  sliceAxis(false);
  sliceAxis(true);
}

void KernelWriter::signature() {
  std::string params;
  auto param = [&](std::string decl, KernelParamRef ref) {
    params += (params.empty() ? "" : ", ") + decl;
    k.Params.push_back(ref);
  };
  for (int t : g.Inputs) {
    if (!n.Tensors[t].isView()) {
      param(fmt::format("const {} *g_t{}", ctype(t), t),
            {KernelParamRef::Tensor, t});
      continue;
    }
    for (int s : n.viewSources(t)) // a view: the tensors it reads
      param(fmt::format("const {} *g_t{}_{}", ctype(t), t, s),
            {KernelParamRef::Tensor, s});
    if (n.Tensors[t].gathered()) // and its index table
      param(fmt::format("const int *g_v{}", t),
            {KernelParamRef::ViewTable, t});
  }
  for (int t : g.Outputs)
    param(fmt::format("{} *g_t{}", ctype(t), t), {KernelParamRef::Tensor, t});
  for (int l : g.Layers) {
    const Layer &layer = n.Layers[l];
    if (layer.Kind == OpKind::Conv)
      param(fmt::format("const {} *g_w{}", ctype(layer.Inputs[0]), l),
            {KernelParamRef::Weight, l});
    if (!layer.Bias.empty())
      param(fmt::format("const {} *g_b{}", ctype(layer.Output), l),
            {KernelParamRef::Bias, l});
    if (!layer.Alpha.empty())
      param(fmt::format("const {} *g_a{}", ctype(layer.Output), l),
            {KernelParamRef::Alpha, l});
  }
  e.line("__mlu_global__ void " + k.Name + "(" + params + ") {");
}

// The buffers as comments and as pointers into lg_nram and lg_wram: a
// tensor's two copies (the same one unless double-buffered; an in-place
// tensor its alias's), a layer's weight tiles, vectors and scratch tiles.
void KernelWriter::bufferPointers() {
  e.line("const int ITEMS = " + str(p.items()) + ";");
  e.line("// NRAM buffers: offset, bytes, lifetime [start, end] in time steps");
  auto listBuf = [&](const LmemBuffer &b) {
    std::string end = b.End == TsInf ? "inf" : str(b.End);
    e.line(fmt::format("//   {:>8} {:>8} [{}, {}] {}", b.Offset, b.Bytes,
                       b.Start, end, b.Name));
  };
  for (const LmemBuffer &b : p.Buffers) {
    listBuf(b);
    if (b.K == LmemBuffer::Activation)
      act[{b.Tensor, b.Copy}] = &b;
    else if (b.K == LmemBuffer::Weight)
      vec[{b.Layer, b.Part}] = &b;
    else
      scr[{b.Layer, b.Part}] = &b;
  }
  e.line("// WRAM buffers (convolution weights, [KY][KX][C][F])");
  for (const LmemBuffer &b : p.WramBuffers) {
    listBuf(b);
    wt[{b.Layer, b.Copy}] = &b;
  }
  // (Element by element: an initialised local array becomes a global
  // initialiser, which may not take an on-chip address.)
  auto pair = [&](const std::string &name, const char *memory, int64_t off0,
                  int64_t off1, int t) {
    std::string ty = ctype(t);
    return ty + " *" + name + "[2]; " + name + "[0] = (" + ty + " *)(" +
           memory + " + " + str(off0) + "); " + name + "[1] = (" + ty + " *)(" +
           memory + " + " + str(off1) + ");";
  };
  for (int t : g.Tensors) {
    int root = p.Alias.count(t) ? p.Alias.at(t) : t; // in place
    const LmemBuffer *a = act.at({root, 0});
    const LmemBuffer *b = act.count({root, 1}) ? act.at({root, 1}) : a;
    e.line(pair("t" + str(t), "lg_nram", a->Offset, b->Offset, t) + " // " +
           n.Tensors[t].Name);
  }
  for (auto &[key, b] : wt) {
    auto [l, copy] = key;
    if (copy)
      continue;
    const LmemBuffer *b1 = wt.count({l, 1}) ? wt.at({l, 1}) : b;
    e.line(pair("w" + str(l), "lg_wram", b->Offset, b1->Offset,
                n.Layers[l].Inputs[0]));
  }
  auto fixed = [&](const std::string &name, int64_t off, int t) {
    std::string ty = ctype(t);
    e.line(ty + " *const " + name + " = (" + ty + " *)(lg_nram + " + str(off) +
           ");");
  };
  // Vectors and vector tiles have the output's type, window tiles the
  // input's.
  for (auto &[key, b] : vec)
    fixed((key.second == 1 ? "b" : "a") + str(key.first), b->Offset,
          n.Layers[key.first].Output);
  for (auto &[key, b] : scr) {
    if (key.second == 3) { // a HalfViaFloat layer's float chunk
      e.line(fmt::format("float *const fchunk{} = (float *)(lg_nram + {});",
                         key.first, b->Offset));
      continue;
    }
    if (key.second == 4) { // a gathered view's indexes, then its window
      int t = b->Tensor;
      const Tensor &v = n.Tensors[t];
      int64_t tab = GroupPlan::gatherTableBytes(n, t, p.H.RowsCap[g.slot(t)],
                                                p.W.RowsCap[g.slot(t)]);
      e.line(fmt::format("int *const gtab{} = (int *)(lg_nram + {});", t,
                         b->Offset));
      fixed("gwin" + str(t), b->Offset + tab, t);
      // Its sources and their image sizes, element by element.
      size_t k = v.View.size();
      std::string srcs = fmt::format("const {} *gsrc{}[{}];", ctype(t), t, k);
      std::string imgs = fmt::format("long gimg{}[{}];", t, k);
      for (size_t i = 0; i < k; ++i) {
        int s = v.View[i].Source;
        srcs += fmt::format(" gsrc{}[{}] = g_t{}_{};", t, i, t, s);
        imgs += fmt::format(" gimg{}[{}] = {}L;", t, i, n.Tensors[s].elements());
      }
      e.line(srcs);
      e.line(imgs);
      continue;
    }
    if (key.second == 2) { // CLIF's membrane potentials, kept across items
      e.line(fmt::format("double *const v{} = (double *)(lg_nram + {});",
                         key.first, b->Offset));
      continue;
    }
    if (key.second == 1) { // a first tile's kernel rows: partial sums
      fixed("rows" + str(key.first), b->Offset, n.Layers[key.first].Output);
      continue;
    }
    assert(key.second == 0 && "scratch parts are 0 (tile) to 4");
    fixed("tile" + str(key.first), b->Offset, n.Layers[key.first].Inputs[0]);
  }
}

// The weights of a channel slice are one contiguous HWIO block at
// f0 * KY * KX * C (GroupPlan::packWeights).
void KernelWriter::weightLoad(int l, const std::string &buf,
                              const std::string &f0, const std::string &ft,
                              bool async) {
  std::string perChannel = str(GroupPlan::weightsPerChannel(n, l));
  e.line(call("lg_load_wram", {"w" + str(l) + "[" + buf + "]",
                               "g_w" + str(l) + " + " + f0 + " * " + perChannel,
                               ft + " * " + perChannel, boolLit(async)}));
}

void KernelWriter::paddedLoad(int t, const std::string &dst,
                              const std::string &src, const std::string &n0,
                              const std::string &pfx, bool async, bool sram) {
  const Tensor &tensor = n.Tensors[t];
  std::string slot = str(g.slot(t));
  // Into the reader's window tile: rows from lo * SY - PU, as many as its
  // output rows need, and all W columns after PL padding ones.
  const Layer &reader = n.Layers[p.PaddedInputs.at(t)];
  std::string out = str(g.slot(reader.Output));
  std::string olo = pfx + "lo[" + out + "]", ohi = pfx + "hi[" + out + "]";
  if (p.WSecs > 1) { // the tile of the item's columns, padding zeroed
    e.line(call("lg_load_window",
                {dst, src, n0, str(tensor.C), str(tensor.H), str(tensor.W),
                 olo, ohi, pfx + "clo[" + out + "]", pfx + "chi[" + out + "]",
                 str(reader.KY), str(reader.KX), str(reader.SY),
                 str(reader.SX), str(reader.PU), str(reader.PL),
                 str(reader.DY), str(reader.DX), boolLit(async),
                 boolLit(sram)}) +
           " // load " + tensor.Name + " into " + reader.Name +
           "'s padded tile");
    return;
  }
  int64_t cols = (n.Tensors[reader.Output].W - 1) * reader.SX + reader.keffX();
  // With PadRowsByDma, the next item's padding rows by an NRAM fill
  // (Move-DMA) beside the compute; the first item's load has none to hide
  // behind, nor the loads that a first item by kernel rows queues after
  // its last row (plan/Cost.cpp's padRowsCycles), and the vector unit
  // zeroes rows with less start-up.
  bool fill = p.PadRowsByDma && pfx == "x_";
  std::string when = p.firstTileRows(n) ? "k > 0" : "true";
  if (padPart) { // lg_load_padded in two parts (earlyPiece)
    fill = false;
    when = str(padPart);
  }
  e.line(call(padPart ? "lg_load_padded_part"
              : fill  ? "lg_load_padded_fill"
                      : "lg_load_padded",
              {dst, src, n0, str(tensor.C), str(tensor.H), str(tensor.W),
               pfx + "lo[" + slot + "]", pfx + "hi[" + slot + "]",
               olo + " * " + str(reader.SY) + " - " + str(reader.PU),
               "(" + ohi + " - " + olo + " - 1) * " + str(reader.SY) + " + " +
                   str(reader.keffY()),
               str(cols), str(reader.PL), boolLit(async),
               std::string(boolLit(sram)) +
                   (fill || padPart ? ", " + when : "")}) +
         (padPart == 1 ? " // zero the padding rows of " + reader.Name +
                             "'s padded tile"
                       : " // load " + tensor.Name + " into " + reader.Name +
                             "'s padded tile") +
         (fill ? ", its padding rows by DMA" : ""));
}

void KernelWriter::tensorLoad(int t, const std::string &buf,
                              const std::string &pfx, bool async) {
  const Tensor &tensor = n.Tensors[t];
  std::string slot = str(g.slot(t));
  bool sram = p.inputsInSram();
  std::string src =
      sram ? sramPtr(n.Tensors[t].Type, sramOff.at(t)) : "g_t" + str(t);
  std::string n0 = pfx + "n0" + (sram ? " - s_n0" : "");
  std::string dst = "t" + str(t) + "[" + buf + "]";
  if (p.PaddedInputs.count(t)) {
    paddedLoad(t, dst, src, n0, pfx, async, sram);
    return;
  }
  if (p.StridedInputs.count(t)) {
    // The pixels its 1x1 reader's output rows and columns need, densely.
    const Layer &reader = n.Layers[p.StridedInputs.at(t)];
    std::string out = str(g.slot(reader.Output));
    auto at = [&](const char *a) { return pfx + a + "[" + out + "]"; };
    e.line(
        call("lg_load_strided",
             {dst, src, n0, str(tensor.C), str(tensor.H), str(tensor.W),
              at("lo") + " * " + str(reader.SY), at("hi") + " - " + at("lo"),
              at("clo") + " * " + str(reader.SX), at("chi") + " - " + at("clo"),
              str(reader.SY), str(reader.SX), boolLit(async)}) +
        " // load the pixels " + reader.Name + " reads of " + tensor.Name);
    return;
  }
  int s = g.slot(t);
  if (tensor.gathered()) {
    // Its sources' spans and the item's indexes into the view's scratch,
    // then gathered element by element (lg_gather_view).
    std::string from;
    for (const ViewPiece &v : tensor.View)
      from += (from.empty() ? "" : ", ") + n.Tensors[v.Source].Name;
    int64_t tables = tensor.View.size() > 1 ? 2 : 1;
    int64_t second = GroupPlan::gatherTableBytes(n, t, p.H.RowsCap[s],
                                                 p.W.RowsCap[s]) /
                     tables / 4;
    e.line(call("lg_gather_view",
                {dst, "gsrc" + str(t), "gimg" + str(t),
                 str(tensor.View.size()), "g_v" + str(t), "gtab" + str(t),
                 "gtab" + str(t) + " + " + str(second), "gwin" + str(t), n0,
                 pfx + "nb", str(tensor.C), str(tensor.H), str(tensor.W),
                 pfx + "lo[" + slot + "]", pfx + "hi[" + slot + "]",
                 pfx + "clo[" + slot + "]", pfx + "chi[" + slot + "]",
                 str(p.H.RowsCap[s]), str(p.W.RowsCap[s])}) +
           " // gather " + tensor.Name + " from " + from);
    return;
  }
  if (tensor.isView()) {
    // A box of a source per strided copy (lg_load_view), the source's
    // images at its own pitch; boxes of zeros by zeroing the slice first.
    bool zeros = false;
    for (const ViewPiece &v : tensor.View)
      zeros |= v.Source < 0;
    if (zeros)
      e.line(fmt::format("__bang_write_zero({}, {}nb * {});", dst, pfx,
                         p.H.RowsCap[s] * p.W.RowsCap[s] * tensor.C));
    for (const ViewPiece &v : tensor.View) {
      if (v.Source < 0)
        continue;
      e.line(call("lg_load_view",
                  {dst, "g_t" + str(t) + "_" + str(v.Source), n0, pfx + "nb",
                   str(tensor.C), pfx + "lo[" + slot + "]",
                   pfx + "hi[" + slot + "]", pfx + "clo[" + slot + "]",
                   pfx + "chi[" + slot + "]", str(p.H.RowsCap[s]),
                   str(p.W.RowsCap[s]), str(v.H0), str(v.H1), str(v.W0),
                   str(v.W1), str(v.C0), str(v.C1), str(v.Off) + "L",
                   str(v.SH), str(v.SW), str(v.SC), str(v.DH), str(v.DW),
                   str(n.Tensors[v.Source].elements()) + "L",
                   boolLit(async)}) +
             " // load a box of " + n.Tensors[v.Source].Name + " into " +
             tensor.Name);
    }
    return;
  }
  if (p.SlicedInputs) { // the item's channel slice (never staged)
    e.line(call("lg_load_chans",
                {dst, src, n0, pfx + "nb", str(tensor.C), str(tensor.H),
                 str(tensor.W), pfx + "lo[" + slot + "]",
                 pfx + "hi[" + slot + "]", pfx + "clo[" + slot + "]",
                 pfx + "chi[" + slot + "]", str(p.H.RowsCap[s]),
                 str(p.W.RowsCap[s]), pfx + "f0", pfx + "ft",
                 boolLit(async)}) +
           " // load a channel slice of " + tensor.Name);
    return;
  }
  e.line(
      call("lg_load", {dst, src, n0, pfx + "nb", str(tensor.C), str(tensor.H),
                       str(tensor.W), pfx + "lo[" + slot + "]",
                       pfx + "hi[" + slot + "]", pfx + "clo[" + slot + "]",
                       pfx + "chi[" + slot + "]", str(p.H.RowsCap[s]),
                       str(p.W.RowsCap[s]), boolLit(async), boolLit(sram)}) +
      " // load " + tensor.Name);
}

void KernelWriter::tensorStore(int t, const std::string &buf,
                               const std::string &pfx, bool async,
                               const std::string &rowsFrom,
                               const std::string &rowsTo) {
  const Tensor &tensor = n.Tensors[t];
  int s = g.slot(t);
  std::string slot = str(s);
  // Only the item's own rows and columns (HSlicing::own): for an H (W)
  // sliced output, its slice of its own extent, which the item's range may
  // exceed by a halo that a layer of the group reads.
  auto own = [&](const char *lo, const char *hi, const char *idx,
                 const HSlicing &axis, int64_t extent) {
    if (axis.HSecs == 1)
      return pfx + lo + "[" + slot + "], " + pfx + hi + "[" + slot + "]";
    std::string step = str(axis.stepOf(extent)), ext = str(extent);
    std::string first = pfx + idx + " * " + step;
    std::string last = first + " + " + step;
    return "(" + first + " < " + ext + " ? " + first + " : " + ext + "), (" +
           last + " < " + ext + " ? " + last + " : " + ext + ")";
  };
  bool global = p.global();
  std::string rows = own("lo", "hi", "hs", p.H, tensor.H);
  if (!rowsFrom.empty()) { // only rows [rowsFrom, rowsTo) of them
    size_t comma = rows.find(", (");
    std::string lo = comma == std::string::npos ? pfx + "lo[" + slot + "]"
                                                : rows.substr(0, comma);
    std::string hi = comma == std::string::npos ? pfx + "hi[" + slot + "]"
                                                : rows.substr(comma + 2);
    rows = fmt::format("({0} > {1} ? {0} : {1}), ({2} < {3} ? {2} : {3})", lo,
                       rowsFrom, hi, rowsTo);
  }
  e.line(call("lg_store", {"g_t" + str(t), "t" + str(t) + "[" + buf + "]",
                           pfx + "n0", pfx + "nb", global ? pfx + "f0" : "0",
                           global ? pfx + "ft" : str(tensor.C), str(tensor.C),
                           str(tensor.H), str(tensor.W),
                           rows, own("clo", "chi", "ws", p.W, tensor.W),
                           pfx + "lo[" + slot + "]", pfx + "clo[" + slot + "]",
                           pfx + "chi[" + slot + "]", str(p.H.RowsCap[s]),
                           str(p.W.RowsCap[s]), boolLit(async)}) +
         " // store " + tensor.Name);
}

KernelWriter::ComputeArgs KernelWriter::computeArgs(int l) const {
  const Layer &layer = n.Layers[l];
  int o = layer.Output;
  std::string so = str(g.slot(o));
  ComputeArgs a(layer, l, n.Tensors[layer.Inputs[0]]);
  a.out = image(o);
  a.region = "lo[" + so + "], hi[" + so + "], clo[" + so + "], chi[" + so + "]";
  a.rows = "hi[" + so + "] - lo[" + so + "]";
  a.cols = "chi[" + so + "] - clo[" + so + "]";
  if (rowPiece) { // rows [pa, pb) of the slice (tailPieces)
    a.region = "pa, pb, clo[" + so + "], chi[" + so + "]";
    a.rows = "pb - pa";
  }
  // The rows after those kept from the item before (GroupPlan::KeepRows).
  bool kept = !rowPiece && p.keepsRows(n, o);
  if (kept) {
    a.region = "lo[" + so + "] + kr[" + so + "], hi[" + so + "], clo[" + so +
               "], chi[" + so + "]";
    a.rows = "hi[" + so + "] - lo[" + so + "] - kr[" + so + "]";
  }
  bool sliced = p.global() && g.computes(n, o);
  std::string fo = sliced ? "f0" : "0";
  a.bias = layer.Bias.empty() ? "nullptr" : "b" + str(l) + " + " + fo;
  if (g.poolFirst(n, l) >= 0) // added after the pool (GroupInfo::poolFirst)
    a.bias = "nullptr";
  if (p.biasInFloor(l)) // the ReLU's floor and its reader's bias (ReluFloors)
    a.bias = "nullptr";
  // CLUT's table is indexed by value, not by channel: never offset.
  bool perChannel = layer.Kind != OpKind::Lut;
  a.alpha = layer.Alpha.empty() ? "nullptr"
            : perChannel        ? "a" + str(l) + " + " + fo
                                : "a" + str(l);
  a.tile = scr.count({l, 0}) ? "tile" + str(l) : "nullptr";
  a.co = sliced ? "ft" : str(n.Tensors[o].C);
  if (rowPiece)
    a.out += " + (pa - lo[" + so + "]) * (" + a.cols + ") * " + a.co;
  if (kept)
    a.out += " + kr[" + so + "] * (" + a.cols + ") * " + a.co;
  a.weights = "w" + str(l) + "[" + (p.global() ? "wcur" : "0") + "]";
  return a;
}

// The convolution whose bias and ReLU follow max pool \p l
// (GroupInfo::poolFirst), or -1; with \p relu, the one for ReLU \p l.
int KernelWriter::poolFirstConv(int l, bool relu) const {
  int prev = n.Tensors[n.Layers[l].Inputs[0]].Producer; // the conv or ReLU
  if (prev < 0 || !g.contains(prev))
    return -1;
  int conv = relu ? prev : n.Tensors[n.Layers[prev].Inputs[0]].Producer;
  if (conv < 0 || !g.contains(conv))
    return -1;
  int pool = g.poolFirst(n, conv);
  return pool >= 0 && (relu || pool == l) ? conv : -1;
}

// GroupPlan::ReluFloors, once per core: the convolution's bias negated
// before the ReLU's first floor, and the reader's bias folded before its
// first convolution, whose output buffer is free then (chooseReluFloors
// checks that it holds the fold's scratch).
void KernelWriter::reluFloorsOnce(int l) {
  const Layer &layer = n.Layers[l];
  if (layer.Kind == OpKind::Relu && p.ReluFloors.count(l)) {
    int conv = p.ReluFloors.at(l);
    auto once = e.block("if (lg_floor" + str(l) + ")",
                        n.Layers[conv].Name + "'s bias as " + layer.Name +
                            "'s floor (ReluFloors)");
    e.line(call("lg_floor_of_bias",
                {"b" + str(conv), str(n.Tensors[layer.Output].C)}));
    e.line("lg_floor" + str(l) + " = false;");
    return;
  }
  int relu = layer.Kind == OpKind::Conv ? p.reluTileOf(l) : -1;
  if (relu < 0 || !p.ReluFloors.count(relu))
    return;
  const Tensor &in = n.Tensors[layer.Inputs[0]];
  auto once = e.block("if (lg_fold" + str(relu) + ")",
                      n.Layers[p.ReluFloors.at(relu)].Name + "'s bias in " +
                          layer.Name + "'s (ReluFloors)");
  e.line(call("lg_fold_floor",
              {"b" + str(l), "b" + str(p.ReluFloors.at(relu)),
               "w" + str(l) + "[0]", str(in.C),
               str(n.Tensors[layer.Output].C), str(layer.KY), str(layer.KX),
               "t" + str(layer.Output) + "[cur]"}));
  e.line("lg_fold" + str(relu) + " = false;");
}

std::string KernelWriter::reluFloor(int relu) const {
  return p.ReluFloors.count(relu) ? "b" + str(p.ReluFloors.at(relu))
                                  : "nullptr";
}

void KernelWriter::compute(int l) {
  const Layer &layer = n.Layers[l];
  reluFloorsOnce(l);
  if (layer.Kind == OpKind::Relu && poolFirstConv(l, true) >= 0) {
    e.line("// " + layer.Name + ": after the pool, on its output");
    return;
  }
  if (layer.Kind == OpKind::MaxPool && poolFirstConv(l, false) >= 0) {
    // The pool over the convolution's output, then its bias and ReLU.
    int conv = poolFirstConv(l, false);
    ComputeArgs a = computeArgs(l);
    ComputeArgs c = computeArgs(conv);
    bool sliced = p.global() && g.computes(n, n.Layers[conv].Output);
    std::string bias = n.Layers[conv].Bias.empty()
                           ? "nullptr"
                           : "b" + str(conv) + " + " + (sliced ? "f0" : "0");
    e.line(fmt::format("for (int i = 0; i < nb; ++i) {{ // {} (maxpool), "
                       "then {}'s bias and {}",
                       layer.Name, c.layer.Name,
                       n.Layers[n.Tensors[layer.Inputs[0]].Producer].Name));
    {
      auto body = e.indent();
      e.line(call("lg_pool",
                  {a.out, inSlice(n.Layers[conv].Output), a.co,
                   str(a.in.H), str(a.in.W), a.region, str(layer.KY),
                   str(layer.KX), str(layer.SY), str(layer.SX),
                   str(layer.PU), str(layer.PL), str(poolMode(layer.Kind)),
                   floatLit(layer.Cmp), "nullptr", floatLit(layer.ConstB),
                   a.tile}));
      e.line(call("lg_bias_relu", {a.out, "(" + a.rows + ") * (" + a.cols +
                                              ")",
                                   a.co, bias}));
    }
    e.line("}");
    return;
  }
  ComputeArgs a = computeArgs(l);
  if (l == g.First && p.firstTileRows(n) && !rowPiece) {
    computeConvByRows(a);
    return;
  }
  if (l == g.First && rowPiece && lastRow) {
    lastRowPiece(a);
    return;
  }
  e.line(fmt::format("for (int i = 0; i < nb; ++i) // {} ({})", a.layer.Name,
                     opKindName(a.layer.Kind)));
  if (a.layer.Kind == OpKind::Lif) {
    auto body = e.indent();
    computeLif(a);
    return;
  }
  if (a.layer.Integer && a.layer.Kind != OpKind::Conv) {
    const Tensor &out = n.Tensors[a.layer.Output];
    if (out.Narrowed == Tensor::Narrow::None) {
      auto body = e.indent();
      computeInteger(a);
      return;
    }
    // INT9 (int16) or TERNARY (int8): computed saturated to the wider
    // type, then to the narrower range.
    e.line("{");
    {
      auto body = e.indent();
      computeInteger(a);
      e.line(call("lg_narrow", {a.out, "(" + a.rows + ") * (" + a.cols +
                                           ") * " + a.co,
                                str(out.minValue()), str(out.maxValue())}));
    }
    e.line("}");
    return;
  }
  if (a.layer.Kind == OpKind::Add && a.layer.Inputs.size() > 1) {
    e.line("{");
    {
      auto body = e.indent();
      computeAdd(a);
    }
    e.line("}");
    return;
  }
  auto body = e.indent();
  if (a.layer.Kind == OpKind::Conv)
    computeConv(a);
  else
    computeFloat(a);
}

void KernelWriter::computeInteger(const ComputeArgs &a) {
  const Layer &layer = a.layer;
  std::string in0 = inSlice(a.in0);
  std::string real = layer.RealMath ? "1" : "0";
  if (intLoop(n, layer) == IntLoop::Exact) {
    computeIntegerExact(a);
    return;
  }
  switch (layer.Kind) {
  case OpKind::MaxPool:
  case OpKind::MinPool:
  case OpKind::SumPool:
    e.line(call("lg_int_pool",
                {a.out, in0, a.co, str(a.in.H), str(a.in.W), a.region,
                 str(layer.KY), str(layer.KX), str(layer.SY), str(layer.SX),
                 str(layer.PU), str(layer.PL), str(poolMode(layer.Kind)),
                 doubleLit(layer.Cmp), a.bias, doubleLit(layer.ConstB), real}));
    break;
  case OpKind::Relu:
  case OpKind::Clamp:
    e.line(call("lg_int_cmp",
                {a.out, in0, a.co, a.region, layer.ClampMax ? "0" : "1",
                 doubleLit(layer.Kind == OpKind::Relu ? 0 : layer.Cmp)}));
    break;
  case OpKind::Scale:
    e.line(call("lg_int_scale",
                {a.out, in0, a.co, a.region, a.alpha, doubleLit(layer.ConstA),
                 a.bias, doubleLit(layer.ConstB), real}));
    break;
  case OpKind::Add:
    if (layer.Inputs.size() == 1) // a scale by 1 with the bias
      e.line(call("lg_int_scale", {a.out, in0, a.co, a.region, "nullptr", "1.0",
                                   a.bias, doubleLit(layer.ConstB), real}));
    else
      e.line(call("lg_int_add",
                  {a.out, in0, inSlice(layer.Inputs[1]), a.co, a.region, a.bias,
                   doubleLit(layer.ConstB), real}));
    break;
  case OpKind::Lut:
    e.line(call("lg_lut", {a.out, in0, a.co, a.region, a.alpha,
                           str(a.in.minValue()) + "LL"}));
    break;
  case OpKind::Mul:
    e.line(call("lg_int_mul",
                {a.out, in0, inSlice(layer.Inputs[1]), a.co, a.region, a.bias,
                 doubleLit(layer.ConstB), real}));
    break;
  case OpKind::Conv:
    llvm_unreachable("integer convolutions take the matrix unit");
  case OpKind::Lif:
    llvm_unreachable("CLIF takes computeLif");
  }
}

// The loops in 64-bit integers (GroupPlan.h's intLoop): CMP as a long long
// literal, an infinite one as the least or greatest long long.
void KernelWriter::computeIntegerExact(const ComputeArgs &a) {
  const Layer &layer = a.layer;
  std::string in0 = inSlice(a.in0);
  auto cmpLit = [](double v) -> std::string {
    if (std::isinf(v))
      return v < 0 ? "(-9223372036854775807LL - 1)" : "9223372036854775807LL";
    return str(int64_t(v)) + "LL";
  };
  switch (layer.Kind) {
  case OpKind::MaxPool:
  case OpKind::MinPool:
    e.line(call("lg_int_pool_exact",
                {a.out, in0, a.co, str(a.in.H), str(a.in.W), a.region,
                 str(layer.KY), str(layer.KX), str(layer.SY), str(layer.SX),
                 str(layer.PU), str(layer.PL), str(poolMode(layer.Kind)),
                 cmpLit(layer.Cmp)}));
    return;
  case OpKind::Relu:
  case OpKind::Clamp:
    e.line(call("lg_int_cmp_exact",
                {a.out, in0, a.co, a.region, layer.ClampMax ? "0" : "1",
                 cmpLit(layer.Kind == OpKind::Relu ? 0 : layer.Cmp)}));
    return;
  case OpKind::Scale:
    e.line(call("lg_int_scale_exact",
                {a.out, in0, a.co, a.region, a.alpha, doubleLit(layer.ConstA),
                 a.bias, doubleLit(layer.ConstB), layer.RealMath ? "1" : "0"}));
    return;
  case OpKind::Add: // one input: a scale by 1 with the bias
    e.line(call("lg_int_scale_exact",
                {a.out, in0, a.co, a.region, "nullptr", "1.0", a.bias,
                 doubleLit(layer.ConstB), layer.RealMath ? "1" : "0"}));
    return;
  default:
    llvm_unreachable("intLoop names no exact loop for this kind");
  }
}

// The images of an item are consecutive time steps, in order; the state
// starts at V_RESET at the run's first step, and a core's next item (the
// next steps of the same neurons) continues from it.
void KernelWriter::computeLif(const ComputeArgs &a) {
  const Layer &layer = a.layer;
  e.line(call("lg_lif",
              {a.out, inSlice(a.in0), a.co, a.region, "v" + str(a.index),
               "n0 + i == 0", doubleLit(layer.VTh), doubleLit(layer.VReset),
               doubleLit(layer.VLeak), doubleLit(layer.Decay),
               layer.LifSoftReset ? "1" : "0", layer.LifFloor ? "1" : "0"}));
}

void KernelWriter::computeAdd(const ComputeArgs &a) {
  const Layer &layer = a.layer;
  // The bias goes with the last addition.
  auto add = [&](int x, int y, bool last) {
    e.line(call("lg_add", {a.out, inSlice(x), inSlice(y), a.co, a.region,
                           last ? a.bias : "nullptr",
                           last ? floatLit(layer.ConstB) : "0.0f"}));
  };
  add(layer.Inputs[0], layer.Inputs[1], layer.Inputs.size() == 2);
  for (size_t x = 2; x < layer.Inputs.size(); ++x)
    add(layer.Output, layer.Inputs[x], x + 1 == layer.Inputs.size());
}

void KernelWriter::computeConv(const ComputeArgs &a) {
  const Layer &layer = a.layer;
  // A padded input, or the window tile made before the step's transfers:
  // the convolution reads a whole tile.
  if (p.PaddedInputs.count(a.in0) || tileFirst() == a.index) {
    std::string src = tileFirst() == a.index ? "win" + str(a.index)
                                             : "t" + str(a.in0) + "[cur]";
    // A padded tile from the window rows of the first row computed (the
    // window tile made first starts there already).
    std::string so = str(g.slot(layer.Output));
    // Kept rows, or a row piece (lastItemPieces): from the window rows of
    // the first row computed.
    std::string from = rowPiece ? "(pa - lo[" + so + "])"
                       : tileFirst() != a.index && p.keepsRows(n, layer.Output)
                           ? "kr[" + so + "]"
                           : "";
    if (!from.empty())
      src += " + " + from + " * " + str(layer.SY) + " * lg_window_extent(" +
             a.cols + ", " + str(layer.SX) + ", " + str(layer.KX) + ", " +
             str(layer.DX) + ") * " + str(a.in.C);
    e.line(call("lg_conv_tile",
                {a.out, src, str(a.in.C), a.co, a.rows, a.cols, a.weights,
                 a.bias, str(layer.KY), str(layer.KX), str(layer.SY),
                 str(layer.SX), str(layer.DY), str(layer.DX), "0"}));
    return;
  }
  if (p.reluTileOf(a.index) >= 0) {
    // The tile its ReLU wrote (GroupPlan::ReluTiles) for the whole output
    // slice; a row piece of a tail, or the rows after those kept from the
    // item before, start at their first row's window row.
    std::string so = str(g.slot(layer.Output));
    std::string first = rowPiece                         ? "pa - lo[" + so + "]"
                        : p.keepsRows(n, layer.Output) ? "kr[" + so + "]"
                                                       : "0";
    e.line(call("lg_conv_tile_at",
                {a.out, a.tile, first,
                 str(a.in.C), a.co, a.rows, a.cols, a.weights, a.bias,
                 str(layer.KY), str(layer.KX), str(layer.SY), str(layer.SX),
                 str(layer.DY), str(layer.DX)}));
    return;
  }
  if (p.StridedInputs.count(a.in0)) { // its pixels only: at stride 1
    std::string src = "t" + str(a.in0) + "[cur]";
    if (p.keepsRows(n, layer.Output)) // from the first row computed
      src += " + kr[" + str(g.slot(layer.Output)) + "] * (" + a.cols + ") * " +
             str(a.in.C);
    e.line(call("lg_conv_tile",
                {a.out, src, str(a.in.C), a.co, a.rows,
                 a.cols, a.weights, a.bias, "1", "1", "1", "1", "1", "1",
                 "0"}));
    return;
  }
  e.line(call("lg_conv",
              {a.out, inSlice(a.in0), str(a.in.C), str(a.in.H), str(a.in.W),
               a.co, a.region, a.weights, a.bias, str(layer.KY), str(layer.KX),
               str(layer.SY), str(layer.SX), str(layer.PU), str(layer.PL),
               str(layer.DY), str(layer.DX), a.tile, "0"}));
}

// The first layer of a group whose phase's first weight tile (or, with
// GroupPlan::rowsEveryItem, every item's tile) arrives a kernel row at a
// time (GroupPlan::firstTileRows): while rows are missing,
// row 0 with the bias into the output, then each further row loaded
// (IO-DMA) while the matrix unit convolves the row before it, convolved
// into the output's other buffer (free before the item stores; a scratch
// with rowsEveryItem, where it holds the previous item's output) and added;
// the last row's loads are queued before its convolution ends, so the
// step's transfers follow at once. Then the whole tile as usual.
void KernelWriter::computeConvByRows(const ComputeArgs &a) {
  const Layer &layer = a.layer;
  int rows = p.firstTileRows(n);
  std::string perRow = str(GroupPlan::weightsPerChannel(n, a.index) / rows);
  std::string in = "t" + str(a.in0) + "[cur]";
  std::string out = a.out;
  // The output's other buffer, free until the item stores, or a scratch
  // (where it has none, or NextItemRow0 keeps the next item's row 0 in it).
  int root = p.Alias.count(layer.Output) ? p.Alias.at(layer.Output)
                                         : layer.Output;
  bool doubled = std::any_of(
      p.Buffers.begin(), p.Buffers.end(), [&](const LmemBuffer &b) {
        return b.K == LmemBuffer::Activation && b.Tensor == root && b.Copy == 1;
      });
  bool scratch = scr.count({a.index, 1}) > 0 &&
                 (!doubled || p.NextItemRow0 || p.rowsEveryItemShape(n));
  std::string tmp = (scratch ? "rows" + str(a.index)
                             : "t" + str(layer.Output) + "[cur ^ 1]") +
                    " + i * " + str(p.sliceImageFloats(n, layer.Output));
  std::string w = a.weights, kx = str(layer.KX), sy = str(layer.SY),
              sx = str(layer.SX), dy = str(layer.DY), dx = str(layer.DX);
  auto loop = e.block("for (int i = 0; i < nb; ++i)", layer.Name + " (conv)");
  if (!p.FirstPieces.empty()) {
    // The phase's first tile by pieces of kernel positions (GroupPlan::
    // FirstPieces): each piece's load queued (IO-DMA) before the matrix
    // unit convolves the piece before it, which it does not touch; piece 0
    // with the bias into the output, each further one into tmp and added,
    // after a __sync() for its load and the convolution before. Then the
    // tile is whole.
    int kk = int(layer.KY * layer.KX);
    auto partial = e.block("if (w_pos < " + str(kk) + ")",
                           "a few kernel positions at a time (FirstPieces)");
    const std::vector<int> &ends = p.FirstPieces;
    for (size_t j = 0; j < ends.size(); ++j) {
      std::string from = str(j ? ends[j - 1] : 0), to = str(ends[j]);
      if (j + 1 < ends.size() && !(j == 0 && p.EarlyPiece)) {
        e.line(pieceLoad(w, a.index, to, str(ends[j + 1])));
      }
      if (j == 0)
        e.line(call("lg_conv_tile_pos",
                    {out, in, str(a.in.C), a.co, a.rows, a.cols, w, a.bias,
                     from, to, kx, sy, sx, dy, dx}));
      else
        e.line(call("lg_conv_tile_pos_add",
                    {out, tmp, in, str(a.in.C), a.co, a.rows, a.cols, w, from,
                     to, kx, sy, sx, dy, dx}));
      if (j + 1 < ends.size())
        e.line("__sync(); // the next piece, and this convolution");
    }
    e.line("w_pos = " + str(kk) + ", w_rows = " + str(rows) + ";");
  }
  if (!p.FirstPieces.empty())
    e.line("else");
  if (p.NextItemRow0) {
    nextItemRow0(a, tmp);
    e.line("else");
  }
  {
    auto partial = e.block("if (w_rows < " + str(rows) + ")",
                           "a kernel row at a time (firstTileRows)");
    e.line(call("lg_conv_tile", {out, in, str(a.in.C), a.co, a.rows, a.cols, w,
                                 a.bias, "1", kx, sy, sx, dy, dx, "0"}));
    auto more = e.block("for (; w_rows < " + str(rows) + "; ++w_rows)");
    e.line(call("lg_load_wram",
                {w + " + w_rows * " + perRow + " * ft",
                 "g_w" + str(a.index) + " + f0 * " + str(rows) + " * " +
                     perRow + " + w_rows * " + perRow + " * ft",
                 perRow + " * ft", "true"}));
    e.line("__sync(); // this row, and the convolution of the row before");
    e.line(call("lg_conv_tile_row", {out, tmp, in, str(a.in.C), a.co, a.rows,
                                     a.cols, w, "w_rows", kx, sy, sx, dy, dx}));
  }
  e.line("else");
  auto whole = e.indent();
  e.line(
      call("lg_conv_tile", {out, in, str(a.in.C), a.co, a.rows, a.cols, w,
                            a.bias, str(layer.KY), kx, sy, sx, dy, dx, "0"}));
}

// GroupPlan::NextItemRow0: the first item, when the next two items of the
// core are of its channel slice, loads the next item's input at once and
// convolves its kernel row 0 (into the output's other buffer) beside the
// tile's second piece of kernel positions, after its own row 0 beside the
// first piece and before its row 1 beside the third; a __sync() after each
// piece's convolution, the partial sums in the scratch \p tmp. The next
// item then convolves rows 1 and 2 into \p tmp and adds, and loads no
// input (pipelinedLoads), nor its piece of the next tile (tilePiece).
void KernelWriter::nextItemRow0(const ComputeArgs &a, const std::string &tmp) {
  const Layer &layer = a.layer;
  int kx = int(layer.KX), kk = 3 * kx;
  int64_t perPos = GroupPlan::weightsPerChannel(n, a.index) / kk;
  std::string stride = str(p.channelAxis().Stride);
  std::string in = "t" + str(a.in0) + "[cur]",
              inNext = "t" + str(a.in0) + "[cur ^ 1]";
  std::string out = a.out, outNext = a.out;
  outNext.replace(outNext.find("[cur]"), 5, "[cur ^ 1]");
  auto next = [](std::string s) { // the next item's slice (x_)
    for (const char *v : {"clo[", "chi[", "lo[", "hi["}) {
      std::string from = v;
      for (size_t at = 0; (at = s.find(from, at)) != std::string::npos;
           at += from.size() + 2) {
        if (at > 0 && (std::isalnum(s[at - 1]) || s[at - 1] == '_'))
          continue;
        s.insert(at, "x_");
      }
    }
    return s;
  };
  std::string w = a.weights, C = str(a.in.C), sy = str(layer.SY),
              sx = str(layer.SX), dy = str(layer.DY), dx = str(layer.DX);
  std::string gw = "g_w" + str(a.index) + " + f0 * " + str(kk * perPos);
  auto load = [&](int from, int to) {
    e.line(call("lg_load_wram", {w + " + " + str(from * perPos) + " * ft",
                                 gw + " + " + str(from * perPos) + " * ft",
                                 str((to - from) * perPos) + " * ft",
                                 "true"}));
  };
  auto rowConv = [&](const std::string &o, const std::string &src,
                     const std::string &r, const std::string &c) {
    e.line(call("lg_conv_tile", {o, src, C, a.co, r, c, w, a.bias, "1",
                                 str(kx), sy, sx, dy, dx, "0"}));
  };
  auto rowAdd = [&](int r) {
    e.line(call("lg_conv_tile_row", {out, tmp, in, C, a.co, a.rows, a.cols, w,
                                     str(r), str(kx), sy, sx, dy, dx}));
  };
  int e1 = kx + 2 * kx / 3, e2 = kx + 4 * kx / 3;
  {
    auto pair = e.block("if (w_rows < 3 && k == 0 && item + 2 < end && "
                        "(item + 2) / " + stride + " == item / " + stride +
                            ")",
                        "with the next item's kernel row 0 (NextItemRow0)");
    e.line(sliceCall("item + 1", "x_"));
    for (int t : g.Inputs)
      tensorLoad(t, "cur ^ 1", "x_", true);
    load(kx, e1);
    rowConv(out, in, a.rows, a.cols);
    e.line("__sync(); // the next item's input, and the first piece");
    load(e1, e2);
    rowConv(outNext, inNext, next(a.rows), next(a.cols));
    e.line("__sync(); // the second piece");
    load(e2, kk);
    rowAdd(1);
    e.line("__sync(); // the last piece");
    rowAdd(2);
    e.line("w_rows = 3, next_row0 = true;");
  }
  e.line("else");
  auto rest = e.block("if (k == 1 && next_row0)",
                      "kernel rows 1 and 2; row 0 came with the item before");
  e.line(call("lg_conv_tile",
              {tmp,
               in + " + (long)" + dy + " * lg_window_extent(" + a.cols + ", " +
                   sx + ", " + str(kx) + ", " + dx + ") * " + C,
               C, a.co, a.rows, a.cols, w + " + " + str(kx * perPos) + " * ft",
               "(const float *)nullptr", "2", str(kx), sy, sx, dy, dx, "0"}));
  e.line("__bang_add(" + out + ", " + out + ", " + tmp + ", (" + a.rows +
         ") * (" + a.cols + ") * " + a.co + ");");
}

void KernelWriter::computeFloat(const ComputeArgs &a) {
  const Layer &layer = a.layer;
  std::string in0 = inSlice(a.in0);
  switch (layer.Kind) {
  case OpKind::MaxPool:
  case OpKind::MinPool:
  case OpKind::SumPool:
    if (layer.HalfViaFloat) { // exact in float parts, the scratch's
      e.line(call("lg_sum_pool_half",
                  {a.out, in0, a.co, str(a.in.H), str(a.in.W), a.region,
                   str(layer.KY), str(layer.KX), str(layer.SY), str(layer.SX),
                   str(layer.PU), str(layer.PL), a.bias,
                   floatLit(layer.ConstB), a.tile, "fchunk" + str(a.index)}));
      break;
    }
    e.line(call("lg_pool",
                {a.out, in0, a.co, str(a.in.H), str(a.in.W), a.region,
                 str(layer.KY), str(layer.KX), str(layer.SY), str(layer.SX),
                 str(layer.PU), str(layer.PL), str(poolMode(layer.Kind)),
                 floatLit(layer.Cmp), a.bias, floatLit(layer.ConstB), a.tile}));
    break;
  case OpKind::Relu:
    if (p.ReluTiles.count(a.index)) { // into its reader's window tile
      int conv = p.ReluTiles.at(a.index);
      const Layer &c = n.Layers[conv];
      std::string so = str(g.slot(c.Output));
      assert(!rowPiece && "a tail in pieces starts after the ReLU");
      // The tile's rows kept from the item before (KeptTiles).
      int in = layer.Inputs[0];
      std::string kept =
          p.keptTileOf(in) >= 0 ? "kr[" + str(g.slot(in)) + "]" : "0";
      e.line(call("lg_relu_window",
                  {"tile" + str(conv), in0, a.co, str(a.in.H), str(a.in.W),
                   "lo[" + so + "], hi[" + so + "], clo[" + so + "], chi[" +
                       so + "]",
                   str(c.KY), str(c.KX), str(c.SY), str(c.SX), str(c.PU),
                   str(c.PL), str(c.DY), str(c.DX), reluFloor(a.index),
                   kept}) +
             " // into " + c.Name + "'s window tile");
      break;
    }
    e.line(call("lg_relu", {a.out, in0, a.co, a.region}));
    break;
  case OpKind::Clamp:
    e.line(call("lg_clamp", {a.out, in0, a.co, a.region,
                             layer.ClampMax ? "0" : "1", floatLit(layer.Cmp)}));
    break;
  case OpKind::Scale:
  case OpKind::Add: { // one input: a scale by 1 with the bias
    bool scale = layer.Kind == OpKind::Scale;
    std::string alpha = scale ? a.alpha : "nullptr";
    std::string ca = scale ? floatLit(layer.ConstA) : "1.0f";
    std::string cb = floatLit(layer.ConstB);
    if (!layer.HalfViaFloat) {
      e.line(call("lg_scale",
                  {a.out, in0, a.co, a.region, alpha, ca, a.bias, cb}));
      break;
    }
    // FLOAT16 in float chunks (Layer::HalfViaFloat): the float scratch and
    // its pixels.
    e.line(call("lg_scale_half",
                {a.out, in0, a.co, a.region, alpha, ca, a.bias, cb,
                 "fchunk" + str(a.index),
                 str(GroupPlan::halfViaFloatPixels(
                     p.sliceChannels(n, layer.Output)))}));
    break;
  }
  case OpKind::Lut:
    e.line(call("lg_lut", {a.out, in0, a.co, a.region, a.alpha,
                           str(a.in.minValue()) + "LL"}));
    break;
  case OpKind::Mul:
    e.line(call("lg_mul", {a.out, in0, inSlice(layer.Inputs[1]), a.co, a.region,
                           a.bias, floatLit(layer.ConstB)}));
    break;
  case OpKind::Conv:
    llvm_unreachable("convolutions take computeConv");
  case OpKind::Lif:
    llvm_unreachable("CLIF takes computeLif");
  }
}

// The padded inputs' zero columns, once per core (under W slices each
// load zeroes its tile's padding instead).
void KernelWriter::zeroPadColumns() {
  if (p.WSecs > 1)
    return;
  for (auto [t, l] : p.PaddedInputs) {
    e.line("// " + n.Layers[l].Name +
           "'s padded tile: the padding columns stay zero");
    const Layer &reader = n.Layers[l];
    const Tensor &in = n.Tensors[t];
    int64_t cols = (n.Tensors[reader.Output].W - 1) * reader.SX +
                   reader.keffX(); // as tensorLoad
    int64_t rows = act.at({t, 0})->Bytes / (cols * in.C * in.elemBytes());
    for (int buf = 0; buf < (act.count({t, 1}) ? 2 : 1); ++buf)
      e.line(call("lg_zero_pad_columns",
                  {"t" + str(t) + "[" + str(buf) + "]", str(rows), str(cols),
                   str(in.C), str(reader.PL), str(in.W)}));
  }
}

// Once per core: the padded inputs' zero columns, resident weights (staged
// in SRAM or straight to WRAM).
void KernelWriter::prologue() {
  // A phase that reads its share of the inputs before it queues the first
  // weight tile zeroes them after that read (phaseStart), not before it.
  if (!(p.phased() && p.pipelined() && p.weightTiles()))
    zeroPadColumns();
  // The per-channel vectors load with the core's first item (vectorLoads).
  if (!vec.empty())
    e.line("bool lg_vec_pending = true; // per-channel vectors not loaded");
  for (auto [relu, conv] : p.ReluFloors)
    e.line("bool lg_floor" + str(relu) + " = true, lg_fold" + str(relu) +
           " = true; // " + n.Layers[conv].Name +
           "'s bias not yet a floor, nor in the reader's (ReluFloors)");
  if (llvm::any_of(wt, [&](auto &kv) {
        return kv.first.second == 0 && p.wramCopyInItem(n, kv.first.first);
      }))
    e.line("bool lg_w_pending = true; // weights used after the first step "
           "not in WRAM");
  // Calls each(layer, its weights in lg_sram, their floats); not the late
  // ones (GroupPlan::LateWeights: phaseStart and pipelinedItem stage them).
  auto stagedWeights = [&](auto &&each) {
    for (auto &[key, b] : wt)
      if (key.second == 0 && !p.lateWeight(n, key.first))
        each(key.first,
             sramPtr(n.Tensors[n.Layers[key.first].Inputs[0]].Type,
                     sramWOff.at(key.first)),
             str(n.Layers[key.first].Weight.size()));
  };
  if (p.weightsInSram() && p.sramBroadcast()) {
    e.line("// resident weights, staged in SRAM once per chip (each core "
           "copies a share and sends it to the other clusters), then "
           "SRAM->WRAM by every core");
    // One range of SRAM, one share per core (a part of each tensor it
    // overlaps) and one send per other cluster: a read and sends per
    // tensor would each pay the DMA latency (Cost.cpp's
    // stagedWeightsCycles).
    if (p.weightsStagedAsOne(n)) {
      std::string base;
      int64_t off = 0, total = 0;
      stagedWeights([&](int l, std::string, std::string) {
        total += int64_t(n.Layers[l].Weight.size());
      });
      stagedWeights([&](int l, std::string sram, std::string size) {
        if (base.empty())
          base = sram;
        e.line(call("lg_stage_sram_all_read_part",
                    {base, "g_w" + str(l), str(off) + "L", size + "L",
                     str(total) + "L"}));
        off += int64_t(n.Layers[l].Weight.size());
      });
      e.line("__sync();");
      readAhead();
      e.line(call("lg_stage_sram_all_send", {base, str(total) + "L"}));
    } else {
      std::vector<Staged> staged;
      stagedWeights([&](int l, std::string sram, std::string size) {
        staged.push_back({sram, "g_w" + str(l), size});
      });
      stageAll(
          staged, [] {}, [&] { readAhead(); });
    }
    e.line("__sync_all();");
  } else if (p.weightsInSram()) {
    e.line("// resident weights, staged in SRAM once per cluster (each core "
           "copies a share), then SRAM->WRAM by every core");
    stagedWeights([&](int l, std::string sram, std::string size) {
      e.line(call("lg_stage_sram",
                  {sram, "g_w" + str(l), size, "coreId", "coreDim"}));
    });
    e.line("__sync_cluster();");
  }
  if (p.weightsInSram() && !p.deferWramCopies()) {
    stagedWeights([&](int l, std::string sram, std::string size) {
      e.line(call("lg_load_wram_sram", {"w" + str(l) + "[0]", sram, size}));
    });
  } else if (p.weightsResident() && !p.weightsInSram()) {
    e.line("// resident weights, loaded once per core");
    for (auto &[key, b] : wt)
      if (key.second == 0)
        weightLoad(key.first, "0", "0",
                   str(n.Tensors[n.Layers[key.first].Output].C), false);
  }
}

// The first piece of this core's share of phase 0's first input
// (GroupPlan::ReadAhead), queued on the idle IO-DMA pipe while the last
// weight share goes to the other clusters (Move-DMA); the barrier after the
// sends waits for both, and phase 0 reads the rest.
void KernelWriter::readAhead() {
  assert((!p.ReadAhead || p.deferWramCopies()) &&
         "a read-ahead needs the WRAM copies deferred past it (the planner "
         "and Codegen disagree on GroupPlan::deferWramCopies)");
  if (!p.ReadAhead)
    return;
  Staged first = phaseStaged(false).front();
  e.line("// phase 0's first input: " + str(p.ReadAhead) + "/" +
         str(GroupPlan::ReadAheadDen) +
         " of this core's share, read while the weights are sent");
  e.line(call("lg_stage_sram_all_read_piece",
              {first.Sram, first.Src, first.Count, "0L",
               str(p.ReadAhead) + "L", str(GroupPlan::ReadAheadDen) + "L"}));
}

// What a phase stages before its items: each input's images, or the ranges
// of chunk 0 (GroupPlan::chunkedStaging), from phase s_n0's images when
// \p withPhase (else phase 0's).
std::vector<KernelWriter::Staged> KernelWriter::phaseStaged(bool withPhase) {
  std::vector<Staged> staged;
  for (int t : g.Inputs) {
    std::string sram = sramPtr(n.Tensors[t].Type, sramOff.at(t));
    std::string src = "g_t" + str(t);
    if (withPhase)
      src += " + (long)s_n0 * " + str(n.Tensors[t].elements());
    if (!p.chunkedStaging()) {
      staged.push_back(
          {sram, src, str(p.SramImages * n.Tensors[t].elements()) + "L"});
      continue;
    }
    for (const RowRange &r : p.StageFirst)
      staged.push_back({sram + " + " + str(r.Lo), src + " + " + str(r.Lo),
                        str(r.size()) + "L"});
  }
  return staged;
}

// Inputs staged once per cluster: the images [s_n0, s_n1) its items need.
void KernelWriter::clusterStaging() {
  e.line("// the images [s_n0, s_n1) of the group inputs that this cluster's "
         "items need, staged in SRAM: each core of the cluster copies a "
         "share");
  e.line(sliceCall("clusterId * coreDim * ITEMS / taskDim"));
  e.line("const int s_n0 = n0;");
  e.line(sliceCall("(clusterId + 1) * coreDim * ITEMS / taskDim - 1"));
  e.line("const int s_n1 = n0 + nb;");
  for (int t : g.Inputs) {
    std::string elems = str(n.Tensors[t].elements());
    e.line(call("lg_stage_sram",
                {sramPtr(n.Tensors[t].Type, sramOff.at(t)),
                 "g_t" + str(t) + " + (long)s_n0 * " + elems,
                 "(long)(s_n1 - s_n0) * " + elems, "coreId", "coreDim"}));
  }
  e.line("__sync_cluster();");
}

void KernelWriter::residentInputs() {
  e.line("// resident inputs (the same rows for every item), once per core");
  e.line(sliceCall("begin"));
  for (int t : g.Inputs) // queued: a padded one zeroes rows beside its copy
    tensorLoad(t, "0", "", true);
  // The per-channel vectors (IO-DMA) beside that copy (from SRAM: Move-DMA),
  // not alone in the first item, which has no loads of its own.
  bool vectors = !vec.empty() && !vecStaged;
  if (vectors) {
    auto loads = e.block("if (begin < end)");
    vectorLoads();
  }
  e.line("__sync();");
  if (vectors)
    e.line("lg_vec_pending = false; // loaded beside the resident inputs");
}

// The first item's weight tile, async, once per core that has items: its
// first piece of kernel positions, its first kernel row or all of it.
void KernelWriter::firstTileLoad(const std::string &why) {
  auto first = e.block("if (begin < end)", why);
  e.line(sliceCall("begin"));
  auto changed = e.block("if (f0 != wf)");
  if (int rows = p.firstTileRows(n); rows && !p.FirstPieces.empty()) {
    // Its first piece of kernel positions only: the first item loads
    // the others while the matrix unit convolves the pieces before them
    // (GroupPlan::FirstPieces).
    const Layer &conv = n.Layers[g.First];
    int kk = int(conv.KY * conv.KX), n0 = p.FirstPieces.front();
    std::string perPos = str(GroupPlan::weightsPerChannel(n, g.First) / kk);
    e.line("// kernel positions [0, " + str(n0) + ") of " + str(kk) +
           "; the first item loads the rest");
    e.line(
        call("lg_load_wram",
             {"w" + str(g.First) + "[wcur]",
              "g_w" + str(g.First) + " + f0 * " + str(kk) + " * " + perPos,
              str(n0) + " * " + perPos + " * ft", "true"}));
    e.line("w_rows = 0, w_pos = " + str(n0) + ";");
  } else if (rows) {
    // Its first kernel row only: the first item loads the others while
    // the matrix unit convolves the rows before them (firstTileRows).
    e.line("// kernel row 0 of " + str(rows) +
           "; the first item loads the rest");
    std::string perRow =
        str(GroupPlan::weightsPerChannel(n, g.First) / rows);
    e.line(call("lg_load_wram", {"w" + str(g.First) + "[wcur]",
                                 "g_w" + str(g.First) + " + f0 * " +
                                     str(rows) + " * " + perRow,
                                 perRow + " * ft", "true"}));
    e.line("w_rows = 1;");
  } else {
    weightLoad(g.First, "wcur", "f0", "ft", true);
  }
  e.line("wf = f0;");
}

// Inputs staged once per chip run in phases: each phase stages its images
// in every cluster's SRAM and spreads its items over all cores.
void KernelWriter::phaseStart() {
  std::string phaseItems = str(p.items() / p.SramPhases);
  std::string images = str(p.SramImages);
  e.line("// phase ph: images [s_n0, s_n0 + " + images +
         ") of the group inputs in every cluster's SRAM (each core copies a "
         "share and sends it to the other clusters), then items [ph * " +
         phaseItems + ", (ph + 1) * " + phaseItems + ") over all cores");
  e.line("if (ph > 0)");
  {
    auto body = e.indent();
    e.line("__sync_all(); // every core is done with the previous images");
  }
  e.line("const int s_n0 = ph * " + images + ";");
  e.line("const int begin = ph * " + phaseItems + " + taskId * " + phaseItems +
         " / taskDim, end = ph * " + phaseItems + " + (taskId + 1) * " +
         phaseItems + " / taskDim;");
  if (p.clusterSends())
    return clusterSendsStart();
  // Chunk 0 only when the rest stages beside the items (stageRest).
  if (p.chunkedStaging() && !p.StageMid.empty())
    e.line("// chunk 0: the rows the first " +
           str(GroupPlan::StageMidBarrier + 1) +
           " items of every core read; chunk 1 read beside item 0's compute "
           "and sent beside item 1's" +
           (p.stagedRest(n).empty()
                ? std::string()
                : ", the rest read beside item " + str(p.StageItem) +
                      "'s and sent beside " +
                      (p.StageSendStep ? "its ts" + str(p.StageSendStep)
                                       : "item " + str(p.StageItem + 1) +
                                             "'s")) +
           " (stageRest)");
  else if (p.chunkedStaging())
    e.line("// chunk 0: the rows the first " + str(p.stageBarrierItem() + 1) +
           " items of every core read; the rest read beside item " +
           str(p.StageItem) + "'s compute and sent beside " +
           (p.StageSendStep ? "its ts" + str(p.StageSendStep)
                            : "item " + str(p.StageItem + 1) + "'s") +
           " (stageRest)");
  auto stage = [&](const std::string &fn, bool withSrc) {
    for (const Staged &s : phaseStaged(true))
      e.line(withSrc ? call(fn, {s.Sram, s.Src, s.Count})
                     : call(fn, {s.Sram, s.Count}));
  };
  if (p.pipelined() && p.weightTiles()) {
    // The first item's weight tile queues on the IO-DMA pipe behind this
    // core's share of the inputs and loads while the Move-DMA pipe sends
    // the share to the other clusters (the barrier waits for both).
    stage("lg_stage_sram_all_read", true);
    // With EarlyPiece the sends queue at once (the barrier waits for
    // them), and the vectors and the first tile's piece on the IO-DMA pipe
    // and the padding (the first item's rows too) on the vector unit load
    // and zero beside them.
    if (p.EarlyPiece)
      stage("lg_stage_sram_all_send_async", false);
    if (p.EarlyPiece && !vec.empty()) {
      auto loads = e.block("if (begin < end)");
      vectorLoads();
    }
    if (!p.PaddedInputs.empty()) { // after the read, which would wait for it
      auto first = e.block("if (ph == 0)");
      zeroPadColumns();
    }
    firstTileLoad("the first item's weight tile, meanwhile");
    if (p.EarlyPiece && !p.inputsResident()) {
      auto rows = e.block("if (begin < end)", "the first item's padding "
                                              "rows (EarlyPiece)");
      padPart = 1;
      for (int t : g.Inputs)
        if (p.PaddedInputs.count(t))
          tensorLoad(t, "0", "", true);
      padPart = 0;
    }
    if (!p.EarlyPiece)
      stage("lg_stage_sram_all_send", false);
    vecStaged = p.EarlyPiece && !vec.empty();
  } else {
    std::vector<Staged> staged = phaseStaged(true);
    if (p.ReadAhead) // its first piece read in the prologue (readAhead)
      staged.front().ReadFrom = "ph == 0 ? " + str(p.ReadAhead) + "L : 0L";
    // The per-channel vectors load (IO-DMA) beside the last share's sends
    // (Move-DMA), once per core that has items; the barrier waits for them.
    auto vectors = [&] {
      lateWeightReads();
      if (vec.empty())
        return;
      auto loads = e.block("if (begin < end)");
      vectorLoads();
    };
    stageAll(
        staged,
        [&] {
          if (!p.deferWramCopies())
            return;
          // The staged weights SRAM->WRAM (Move-DMA) while the first input
          // share is read (IO-DMA).
          auto first =
              e.block("if (ph == 0)", "weights, staged in the prologue");
          for (auto &[key, b] : wt)
            if (key.second == 0 && !p.wramCopyInItem(n, key.first) &&
                !p.lateWeight(n, key.first))
              e.line(
                  call("lg_load_wram_sram",
                       {"w" + str(key.first) + "[0]",
                        sramPtr(n.Tensors[n.Layers[key.first].Inputs[0]].Type,
                                sramWOff.at(key.first)),
                        str(n.Layers[key.first].Weight.size())}));
        },
        vectors);
    vecStaged = !vec.empty() && !staged.empty();
  }
  e.line("__sync_all();");
  if (vecStaged)
    e.line("lg_vec_pending = false; // loaded with phase 0's staging or never "
           "used");
  if (p.inputsResident())
    residentInputs();
}

// A phase whose inputs are resident (GroupPlan::ClusterSends): this core
// reads its share of the inputs, the per-channel vectors load (IO-DMA)
// while one core a cluster sends the cluster's shares to each other
// cluster (Move-DMA) and the vector unit zeroes the padding columns; after
// the barrier the first weight tile loads (IO-DMA) beside the resident
// inputs' copy (Move-DMA), so that the barrier waits for neither.
void KernelWriter::clusterSendsStart() {
  std::vector<Staged> staged = phaseStaged(true);
  e.line("// this core's share of the inputs, then its cluster's shares sent "
         "to the other clusters at once (ClusterSends)");
  for (const Staged &s : staged)
    e.line(call("lg_stage_sram_all_read", {s.Sram, s.Src, s.Count}));
  e.line("__sync_cluster(); // the cluster's shares in its SRAM");
  for (const Staged &s : staged)
    e.line(call("lg_stage_sram_cluster_send_async", {s.Sram, s.Count}));
  if (!vec.empty()) {
    auto loads = e.block("if (begin < end)");
    vectorLoads();
  }
  if (!p.PaddedInputs.empty()) { // beside the sends
    auto first = e.block("if (ph == 0)");
    zeroPadColumns();
  }
  e.line("__sync_all();");
  if (!vec.empty())
    e.line("lg_vec_pending = false; // loaded beside the sends");
  vecStaged = !vec.empty();
  firstTileLoad("the first item's weight tile, beside the resident inputs");
  residentInputs();
}

// Stages each (SRAM place, GDRAM source, count) in every cluster's SRAM in
// turn: this core's share of one is read from GDRAM (IO-DMA, async) while
// it sends the previous one's to the other clusters (Move-DMA), a
// __sync() between; \p overlap emits on-chip copies that run beside the
// first read. The caller meets the other cores at __sync_all().
void KernelWriter::stageAll(const std::vector<Staged> &staged,
                            const std::function<void()> &overlap,
                            const std::function<void()> &last) {
  for (size_t k = 0; k < staged.size(); ++k) {
    const Staged &s = staged[k];
    if (k > 0)
      e.line("__sync();");
    if (s.ReadFrom.empty())
      e.line(call("lg_stage_sram_all_read", {s.Sram, s.Src, s.Count, "true"}));
    else
      e.line(call("lg_stage_sram_all_read_piece",
                  {s.Sram, s.Src, s.Count, s.ReadFrom,
                   str(GroupPlan::ReadAheadDen) + "L",
                   str(GroupPlan::ReadAheadDen) + "L"}));
    if (k == 0)
      overlap();
    else
      e.line(call("lg_stage_sram_all_send",
                  {staged[k - 1].Sram, staged[k - 1].Count}));
  }
  if (staged.empty())
    return;
  e.line("__sync();");
  if (last)
    last();
  e.line(call("lg_stage_sram_all_send", {staged.back().Sram,
                                         staged.back().Count}));
}

// Chunked staging (GroupPlan::chunkedStaging): this core's share of each
// range of the rest of the phase's staged input, read from GDRAM (IO-DMA)
// in the transfer step of item StageItem, after its stores and the weight
// tile's piece so that neither queues behind it, or, \p sends, sent to the
// other clusters (Move-DMA) in step StageSendStep of that item or the
// transfer step of the next; each async beside the step's compute and
// waited for by its __sync(). Chunk 1 (GroupPlan::StageMid) the same way
// in items 0 and 1.
void KernelWriter::stageRest(bool sends) {
  if (!p.chunkedStaging())
    return;
  int t = g.Inputs.front();
  std::string sram = sramPtr(n.Tensors[t].Type, sramOff.at(t));
  std::string src =
      "g_t" + str(t) + " + (long)s_n0 * " + str(n.Tensors[t].elements());
  auto moves = [&](const std::vector<RowRange> &ranges, int item,
                   const std::string &what) {
    if (ranges.empty())
      return;
    auto at = e.block("if (k == " + str(item) + ")",
                      (sends ? "send " : "read ") + what +
                          " of the staged input, beside the compute");
    for (const RowRange &r : ranges) {
      std::string from = " + " + str(r.Lo), count = str(r.size()) + "L";
      if (sends)
        e.line(call("lg_stage_sram_all_send_async", {sram + from, count}));
      else
        e.line(call("lg_stage_sram_all_read",
                    {sram + from, src + from, count, "true"}));
    }
  };
  // Chunk 1 (GroupPlan::StageMid): read by the first item, sent by the
  // next, in the transfer step (the rest's sends go there too).
  assert((p.StageMid.empty() || !p.StageSendStep) && "chunk 1 sends");
  moves(p.StageMid, sends ? 1 : 0, "chunk 1");
  moves(p.stagedRest(n), p.StageItem + (sends && !p.StageSendStep ? 1 : 0),
        "the rest");
}

// ... and before item stageBarrierItem() (whose transfer step loads the
// first item that may read the rest), every core has sent its share.
// Every core has more items than that in each phase
// (GroupPlan::stagedFirst), so all meet here.
void KernelWriter::stagedRestBarrier() {
  if (!p.chunkedStaging())
    return;
  if (!p.StageMid.empty())
    e.line("if (k == " + str(GroupPlan::StageMidBarrier) +
           ") __sync_all(); // chunk 1 of the staged input in every "
           "cluster's SRAM");
  if (p.stagedRest(n).empty())
    return;
  e.line("if (k == " + str(p.stageBarrierItem()) +
         ") __sync_all(); // the rest of the staged input in every "
         "cluster's SRAM");
}

// Not pipelined: per step its loads, weight loads, stores, compute, sync.
void KernelWriter::plainItem() {
  int tail = p.TailPieces > 1 ? p.tailStart(n) : 0;
  for (int ts = 0; ts < (tail ? tail : int(p.Steps.size())); ++ts) {
    const TimeStep &step = p.Steps[ts];
    e.line("// ts" + str(ts));
    if (ts == 0 && !vecStaged)
      vectorLoads();
    if (!p.inputsResident())
      for (int u = ts; u < (ts + 1 == tail ? int(p.Steps.size()) : ts + 1);
           ++u) // and the tail's (tailPieces) before it
        for (int t : p.Steps[u].LoadTensors)
          tensorLoad(t, "cur", "", true);
    if (!p.weightsResident())
      for (int l : step.LoadWeights) {
        if (!p.global()) {
          weightLoad(l, "0", "0", str(n.Tensors[n.Layers[l].Output].C), true);
          continue;
        }
        auto changed = e.block("if (f0 != wf)");
        weightLoad(l, "wcur", "f0", "ft", true);
        e.line("wf = f0;");
      }
    for (int t : step.StoreTensors)
      tensorStore(t, "cur", "", true);
    if (ts == 0 && !vec.empty() && !vecStaged && !step.Compute.empty())
      e.line("if (lg_vec_pending) __sync(); // the vectors before the compute");
    for (int l : step.Compute)
      compute(l);
    if (ts == 1)
      laterWramCopies();
    e.line("__sync();");
    if (ts == 0 && !vec.empty() && !vecStaged)
      e.line("lg_vec_pending = false;");
  }
  if (tail)
    tailPieces(tail);
}

// The staged weights that the first item needs after its first compute
// step (GroupPlan::wramCopyInItem): SRAM->WRAM, async, once per core, issued
// after that step's compute (a window copy in it would wait for them), so
// they run beside it; the step's __sync() waits for them.
void KernelWriter::laterWramCopies() {
  std::vector<std::string> copies;
  for (auto &[key, b] : wt)
    if (key.second == 0 && p.wramCopyInItem(n, key.first))
      copies.push_back(
          call("lg_load_wram_sram_async",
               {"w" + str(key.first) + "[0]",
                sramPtr(n.Tensors[n.Layers[key.first].Inputs[0]].Type,
                        sramWOff.at(key.first)),
                str(n.Layers[key.first].Weight.size())}));
  if (copies.empty())
    return;
  auto once = e.block("if (lg_w_pending)", "the weights used later, beside "
                                           "the compute");
  for (const std::string &c : copies)
    e.line(c);
  e.line("lg_w_pending = false;");
}

// GroupPlan::LateWeights: the late convolutions' weights lie back to back
// after the early ones in lg_sram (declarations, lateWeightsFit).
KernelWriter::LateRange KernelWriter::lateRange() const {
  LateRange r;
  for (auto &[key, b] : wt) {
    if (key.second != 0 || !p.lateWeight(n, key.first))
      continue;
    int l = key.first;
    if (r.Base.empty())
      r.Base = sramPtr(n.Tensors[n.Layers[l].Inputs[0]].Type, sramWOff.at(l));
    r.Offsets.push_back({l, r.Total});
    r.Total += int64_t(n.Layers[l].Weight.size());
  }
  return r;
}

// Phase 0 reads this core's share of the late weights (IO-DMA) beside the
// last sends of its staged input; the phase's barrier waits for it.
void KernelWriter::lateWeightReads() {
  LateRange r = lateRange();
  if (r.Offsets.empty() || p.LateSplit)
    return;
  auto first = e.block("if (ph == 0)", "this core's share of the weights "
                                       "used after ts1 (LateWeights)");
  lateShareReads(r);
}

// This core's share of each late layer's weights, GDRAM->SRAM (IO-DMA).
void KernelWriter::lateShareReads(const LateRange &r) {
  for (auto [l, off] : r.Offsets)
    e.line(call("lg_stage_sram_all_read_part",
                {r.Base, "g_w" + str(l), str(off) + "L",
                 str(n.Layers[l].Weight.size()) + "L",
                 str(r.Total) + "L"}));
}

// ... and the first item sends it to the other clusters (Move-DMA, async)
// beside its transfer step's compute.
void KernelWriter::lateWeightSends() {
  LateRange r = lateRange();
  if (r.Offsets.empty() || p.LateSplit) // sent with the split (LateSplit)
    return;
  auto first = e.block("if (k == 0 && ph == 0)",
                       "send the late weights' share, beside the compute");
  e.line(call("lg_stage_sram_all_send_async", {r.Base, str(r.Total) + "L"}));
}

// GroupPlan::LateSplit: the first item reads the late share itself
// beside the first half of the rows of its ts1 convolution \p l (over its
// padded input tile), waits for it (__sync()) and sends it beside the
// second half; the other items compute it whole.
void KernelWriter::lateSplitCompute(int l) {
  {
    auto others = e.block("if (k > 0 || ph > 0)");
    compute(l);
  }
  const Layer &layer = n.Layers[l];
  LateRange r = lateRange();
  std::string so = str(g.slot(layer.Output)), lo = "lo[" + so + "]",
              hi = "hi[" + so + "]";
  std::string mid = lo + " + (" + hi + " - " + lo + ") / 2";
  auto first = e.block("if (k == 0 && ph == 0)",
                       "the late weights' share read beside the first half "
                       "of the rows, sent beside the second (LateSplit)");
  lateShareReads(r);
  for (int half = 0; half < 2; ++half) {
    auto rows = e.block("", layer.Name + ", rows [pa, pb)");
    e.line("const int pa = " + (half ? mid : lo) + ";");
    e.line("const int pb = " + (half ? hi : mid) + ";");
    rowPiece = true;
    ComputeArgs a = computeArgs(l);
    rowPiece = false;
    std::string src = "t" + str(a.in0) + "[cur] + (pa - " + lo + ") * " +
                      str(layer.SY) + " * lg_window_extent(" + a.cols +
                      ", " + str(layer.SX) + ", " + str(layer.KX) + ", " +
                      str(layer.DX) + ") * " + str(a.in.C);
    e.line("for (int i = 0; i < nb; ++i) // " + layer.Name + " (conv)");
    {
      auto body = e.indent();
      e.line(call("lg_conv_tile",
                  {a.out, src, str(a.in.C), a.co, a.rows, a.cols, a.weights,
                   a.bias, str(layer.KY), str(layer.KX), str(layer.SY),
                   str(layer.SX), str(layer.DY), str(layer.DX), "0"}));
    }
    if (half == 0) {
      e.line("__sync(); // the share read");
      e.line(
          call("lg_stage_sram_all_send_async", {r.Base, str(r.Total) + "L"}));
    }
  }
}

// After that step every core meets (each cluster's SRAM holds all of
// them) and copies those of lateWeightStep SRAM->WRAM, async beside the
// steps before it, or at once when that is the next step; the others
// (\p barrier false) are copied async from the start of that step on,
// beside its compute. pipelinedItem puts a __sync() before each step that
// reads late weights.
void KernelWriter::lateWeightCopies(bool barrier) {
  LateRange r = lateRange();
  std::vector<int> steps = p.lateWeightSteps(n);
  if (r.Offsets.empty() || steps.empty())
    return;
  auto inFirst = [&](int l) {
    return llvm::is_contained(p.Steps[steps.front()].Compute, l);
  };
  bool now = barrier && steps.front() == p.transferStep() + 1;
  std::vector<std::string> copies;
  for (auto [l, off] : r.Offsets)
    if (inFirst(l) == barrier)
      copies.push_back(
          call(now ? "lg_load_wram_sram" : "lg_load_wram_sram_async",
               {"w" + str(l) + "[0]", r.Base + " + " + str(off),
                str(n.Layers[l].Weight.size())}));
  if (!barrier && copies.empty())
    return;
  auto first = e.block("if (k == 0 && ph == 0)",
                       barrier ? "the late weights in every cluster's SRAM"
                               : "the late weights of later steps");
  if (barrier)
    e.line("__sync_all();");
  for (const std::string &c : copies)
    e.line(c);
}

// The steps from \p from on (GroupPlan::tailStart) in TailPieces row pieces
// of the group output, the last one half as many rows as the others (its
// store waits alone): each piece computes its rows of every layer (the
// first and last piece also any rows of a layer's slice beyond the
// output's), and the rows of the piece before are stored, async, once the
// first convolution's window copy is made (a synchronous copy would wait
// for the store) and its matrix work issued; the last piece is stored
// alone. The buffers stay disjoint through the tail (Allocation.cpp).
void KernelWriter::tailPieces(int from) {
  int out = g.Outputs.front();
  std::string so = str(g.slot(out)), pieces = str(p.TailPieces);
  e.line("// ts" + str(from) + "-ts" + str(p.Steps.size() - 1) + " in " +
         pieces + " row pieces of " + n.Tensors[out].Name +
         ", each stored while the next computes");
  auto loop = e.block("for (int pc = 0; pc <= " + pieces + "; ++pc)");
  pieceRows(p.TailPieces);
  std::vector<int> layers;
  for (int ts = from; ts + 1 < int(p.Steps.size()); ++ts)
    for (int l : p.Steps[ts].Compute)
      layers.push_back(l);
  auto firstConv = llvm::find_if(
      layers, [&](int l) { return n.Layers[l].Kind == OpKind::Conv; });
  {
    auto first = e.block("if (pc < " + pieces + ")");
    for (auto it = layers.begin(); it != std::next(firstConv); ++it)
      layerPiece(*it, p.TailPieces);
  }
  {
    auto store = e.block("if (pc > 0)", "the piece before");
    tensorStore(out, "cur", "", true, "r_p", "r_a");
  }
  {
    auto rest = e.block("if (pc < " + pieces + ")");
    for (auto it = std::next(firstConv); it != layers.end(); ++it)
      layerPiece(*it, p.TailPieces);
  }
  e.line("__sync();");
}

// Piece k from row at(k) of the group output: two shares each, the last
// one (its store waits alone) one share.
void KernelWriter::pieceRows(int pieces) {
  std::string so = str(g.slot(g.Outputs.front())), np = str(pieces);
  auto at = [&](const std::string &k) {
    return "(" + k + " >= " + np + " ? hi[" + so + "] : lo[" + so +
           "] + (hi[" + so + "] - lo[" + so + "]) * 2 * (" + k + ") / " +
           str(2 * pieces - 1) + ")";
  };
  e.line("const int r_p = pc > 0 ? " + at("pc - 1") + " : 0, r_a = " +
         at("pc") + ", r_b = " + at("pc + 1") + ";");
  e.line("(void)r_p; (void)r_b;");
}

// The first and last piece also compute any rows of the layer's slice
// beyond the output's.
void KernelWriter::layerPiece(int l, int pieces, const std::string &pa,
                              const std::string &pb) {
  std::string s = str(g.slot(n.Layers[l].Output));
  auto body = e.block("", n.Layers[l].Name + ", rows [pa, pb)");
  e.line("const int pa = " +
         (pa.empty() ? "pc == 0 ? lo[" + s + "] : (lo[" + s + "] > r_a ? lo[" +
                           s + "] : r_a)"
                     : pa) +
         ";");
  e.line("const int pb = " +
         (pb.empty() ? "pc == " + str(pieces - 1) + " ? hi[" + s +
                           "] : (hi[" + s + "] < r_b ? hi[" + s + "] : r_b)"
                     : pb) +
         ";");
  rowPiece = true;
  compute(l);
  rowPiece = false;
}

// A pipelined core's last item (GroupPlan::LastPieces) runs its steps
// from \p from (GroupPlan::lastPiecesStart) in row pieces of the group
// output, as a plain item's tail does (tailPieces): per piece the rows of
// each layer's output that the next layer's piece reads (a_s, b_s:
// backwards through each window; the first piece from the slice's first
// row, the last to its end), the tail's first layer, then the transfer
// step's stores of the item before (from ts1) or the store of the piece
// before, async beside the matrix work, then the other layers and a
// __sync(); only the last piece's store runs alone, and the drain after
// the loop stores nothing. The item loads nothing next and its buffers
// are its own ([cur], held through the tail: Cost.cpp checks), so the
// pieces touch no byte in flight. A first weight tile loaded by kernel
// rows (GroupPlan::firstTileRows) must be whole.
void KernelWriter::lastItemPieces(int from) {
  int out = g.Outputs.front(), pieces = p.LastPieces;
  std::string np = str(pieces);
  std::string cond = "item + 1 == end";
  bool byRows = from == 1 && p.rowsEveryItem(n);
  if (int rows = p.firstTileRows(n); rows && !byRows)
    cond += " && w_rows == " + str(rows);
  if (!p.FirstPieces.empty()) { // a first tile in pieces: the pieces first
    const Layer &conv = n.Layers[g.First];
    cond += " && w_pos == " + str(conv.KY * conv.KX);
  }
  std::vector<int> layers;
  for (int ts = from; ts + 1 < int(p.Steps.size()); ++ts)
    layers.push_back(p.Steps[ts].Compute.front());
  auto last = e.block("if (" + cond + ")",
                      "the last item: ts" + str(from) + "-ts" +
                          str(p.Steps.size() - 2) + " in " + np +
                          " row pieces of " + n.Tensors[out].Name +
                          ", each stored while the next computes");
  int conv = layers.front();
  if (from == 1 && tileFirst() == conv) {
    const Layer &layer = n.Layers[conv];
    std::string si = str(g.slot(layer.Inputs[0])),
                so = str(g.slot(layer.Output));
    const Tensor &in = n.Tensors[layer.Inputs[0]];
    e.line("const " + ctype(layer.Inputs[0]) + " *win" + str(conv) + " = " +
           call("lg_conv_window",
                {"t" + str(layer.Inputs[0]) + "[cur]", "lo[" + si + "]",
                 "clo[" + si + "]", "chi[" + si + "]", str(in.C), str(in.H),
                 str(in.W), "lo[" + so + "]", "hi[" + so + "]",
                 "clo[" + so + "]", "chi[" + so + "]", str(layer.KY),
                 str(layer.KX), str(layer.SY), str(layer.SX), str(layer.PU),
                 str(layer.PL), str(layer.DY), str(layer.DX),
                 "tile" + str(conv)}) +
           " // " + layer.Name + "'s window tile first");
  }
  if (byRows)
    lastRowsFirst(conv);
  {
    auto loop = e.block("for (int pc = 0; pc <= " + np + "; ++pc)");
    pieceRows(pieces);
    // Rows [a_s, b_s) of each layer's output, from the group output's
    // backwards.
    std::string last = str(pieces - 1);
    auto clip = [&](int slot, const std::string &a, const std::string &b) {
      std::string s = str(slot), lo = "lo[" + s + "]", hi = "hi[" + s + "]";
      e.line("const int a_" + s + " = pc == 0 ? " + lo + " : (" + lo + " > " +
             a + " ? " + lo + " : " + a + "), b_" + s + " = pc == " + last +
             " ? " + hi + " : (" + hi + " < " + b + " ? " + hi + " : " + b +
             ");");
    };
    clip(g.slot(out), "r_a", "r_b");
    for (size_t i = layers.size() - 1; i > 0; --i) {
      const Layer &reader = n.Layers[layers[i]];
      std::string so = str(g.slot(reader.Output));
      std::string a = "a_" + so, b = "b_" + so;
      if (reader.Kind == OpKind::MaxPool) { // its window's rows
        a = "(" + a + " * " + str(reader.SY) + " - " + str(reader.PU) + ")";
        b = "(b_" + so + " > a_" + so + " ? (b_" + so + " - 1) * " +
            str(reader.SY) + " - " + str(reader.PU) + " + " +
            str((reader.KY - 1) * reader.DY + 1) + " : " + a + ")";
      }
      clip(g.slot(reader.Inputs[0]), a, b);
    }
    auto piece = [&](int l) {
      if (n.Layers[l].Kind == OpKind::Relu && poolFirstConv(l, true) >= 0)
        return; // after the pool, on its output
      std::string s = str(g.slot(n.Layers[l].Output));
      layerPiece(l, pieces, "a_" + s, "b_" + s);
    };
    {
      auto first = e.block("if (pc < " + np + ")");
      lastRow = byRows;
      piece(layers.front());
      lastRow = false;
    }
    if (from <= p.transferStep()) {
      auto before = e.block("if (pc == 0)", "the transfer step's stores");
      pipelinedStores();
      stageRest(false);
      if (!p.StageSendStep)
        stageRest(true);
    }
    if (p.StageSendStep >= from) {
      auto sends = e.block("if (pc == 1)", "after the read's __sync()");
      stageRest(true);
    }
    {
      auto store = e.block("if (pc > 0)", "the piece before");
      tensorStore(out, "cur", "", true, "r_p", "r_a");
    }
    if (layers.size() > 1) {
      auto rest = e.block("if (pc < " + np + ")");
      for (size_t i = 1; i < layers.size(); ++i)
        piece(layers[i]);
    }
    e.line("__sync();");
  }
  if (byRows)
    e.line("w_rows = " + str(p.firstTileRows(n)) + ";");
  e.line("last_stored = true;");
  e.line("continue;");
}

// Rows [pa, pb) of the last kernel row (lastRowsFirst) convolved into
// the scratch and added to the output, or of the whole tile kept from the
// item before.
void KernelWriter::lastRowPiece(const ComputeArgs &a) {
  const Layer &layer = a.layer;
  std::string so = str(g.slot(layer.Output));
  std::string off = "(pa - lo[" + so + "])";
  std::string in = "t" + str(a.in0) + "[cur] + " + off + " * " +
                   str(layer.SY) + " * lg_window_extent(" + a.cols + ", " +
                   str(layer.SX) + ", " + str(layer.KX) + ", " +
                   str(layer.DX) + ") * " + str(a.in.C);
  std::string tmp = "rows" + str(a.index) + " + i * " +
                    str(p.sliceImageFloats(n, layer.Output)) + " + " + off +
                    " * (" + a.cols + ") * " + a.co;
  auto loop = e.block("for (int i = 0; i < nb; ++i)",
                      layer.Name + " (conv), its last kernel row or whole");
  e.line("if (last_row)");
  {
    auto row = e.indent();
    e.line(call("lg_conv_tile_row",
                {a.out, tmp, in, str(a.in.C), a.co, a.rows, a.cols, a.weights,
                 str(p.firstTileRows(n) - 1), str(layer.KX), str(layer.SY),
                 str(layer.SX), str(layer.DY), str(layer.DX)}));
  }
  e.line("else");
  auto whole = e.indent();
  e.line(call("lg_conv_tile", {a.out, in, str(a.in.C), a.co, a.rows, a.cols,
                               a.weights, a.bias, str(layer.KY),
                               str(layer.KX), str(layer.SY), str(layer.SX),
                               str(layer.DY), str(layer.DX), "0"}));
}

// The last item's convolution whose tile loads by kernel rows
// (GroupPlan::rowsEveryItem; computeConvByRows), before its pieces: when
// the tile is new, kernel row 0 with the bias and each further row but the
// last as usual, then the last row loaded and a __sync(); the pieces
// convolve their rows of that last row and add them (lastRow). A tile
// kept from the item before convolves whole in the pieces.
void KernelWriter::lastRowsFirst(int l) {
  ComputeArgs a = computeArgs(l);
  const Layer &layer = a.layer;
  int rows = p.firstTileRows(n);
  std::string perRow = str(GroupPlan::weightsPerChannel(n, l) / rows);
  std::string in = "t" + str(a.in0) + "[cur]", w = a.weights;
  std::string tmp = "rows" + str(l);
  std::string kx = str(layer.KX), sy = str(layer.SY), sx = str(layer.SX),
              dy = str(layer.DY), dx = str(layer.DX);
  e.line("const bool last_row = w_rows < " + str(rows) +
         "; // the tile's last kernel row in the pieces");
  auto first = e.block("if (last_row)", layer.Name +
                                            ": the kernel rows before the "
                                            "last (computeConvByRows)");
  e.line("const int i = 0; // one image an item");
  tmp += " + i * " + str(p.sliceImageFloats(n, layer.Output));
  e.line(call("lg_conv_tile", {a.out, in, str(a.in.C), a.co, a.rows, a.cols,
                               w, a.bias, "1", kx, sy, sx, dy, dx, "0"}));
  auto load = [&] {
    e.line(call("lg_load_wram",
                {w + " + w_rows * " + perRow + " * ft",
                 "g_w" + str(l) + " + f0 * " + str(rows) + " * " + perRow +
                     " + w_rows * " + perRow + " * ft",
                 perRow + " * ft", "true"}));
    e.line("__sync(); // this row, and the convolution of the row before");
  };
  {
    auto more = e.block("for (; w_rows < " + str(rows - 1) + "; ++w_rows)");
    load();
    e.line(call("lg_conv_tile_row", {a.out, tmp, in, str(a.in.C), a.co,
                                     a.rows, a.cols, w, "w_rows", kx, sy, sx,
                                     dy, dx}));
  }
  load();
}

// The per-channel vectors (bias, alpha), GDRAM->NRAM once per core, async
// beside its first item's first loads (the IO-DMA pipe is free there while
// SRAM-staged inputs come over the Move-DMA pipe); that step's __sync()
// precedes their first use.
void KernelWriter::vectorLoads() {
  if (vec.empty())
    return;
  auto vecs = e.block("if (lg_vec_pending)",
                      "the per-channel vectors, beside the DMA in flight");
  for (auto &[key, b] : vec) {
    std::string name = (key.second == 1 ? "b" : "a") + str(key.first);
    int out = n.Layers[key.first].Output;
    e.line(call("lg_load_nram", {name, "g_" + name,
                                 str(b->Bytes / n.Tensors[out].elemBytes())}));
  }
}

// ts1 of a pipelined item: load the next item's inputs (its slice in x_,
// which the next item takes over instead of computing it again)...
void KernelWriter::pipelinedLoads() {
  auto load = e.block(p.NextItemRow0 ? "if (item + 1 < end && !(k == 0 && "
                                       "next_row0))"
                                     : "if (item + 1 < end)",
                      "load i+1");
  e.line(sliceCall("item + 1", "x_"));
  if (!p.inputsResident())
    for (int t : g.Inputs)
      tensorLoad(t, "cur ^ 1", "x_", true);
}

// ... and, after the compute is issued, store the previous item's outputs
// and load a piece of the next weight tile when the channel slice changes.
void KernelWriter::pipelinedStores() {
  {
    auto store = e.block("if (k > 0)", "store i-1");
    for (int t : g.Outputs)
      tensorStore(t, "cur ^ 1", "p_", true);
  }
  if (p.weightTiles())
    tilePiece();
}

// A global group's next weight tile, when this core's items of the phase go
// on to another channel slice: a piece of it with each item of the current
// slice (items [s_b, s_e)), so that each piece hides behind an item's
// compute. Pieces start at whole GDRAM blocks.
void KernelWriter::tilePiece() {
  ItemAxis axis = p.channelAxis();
  int l = g.First;
  int64_t per = GroupPlan::weightsPerChannel(n, l);
  if (p.rowsEveryItem(n)) {
    // Kernel row 0 of the next item's tile, beside this item's last row;
    // the next item loads the others (computeConvByRows).
    int rows = p.firstTileRows(n);
    std::string perRow = str(per / rows);
    auto next = e.block("if (item + 1 < end)",
                        "kernel row 0 of the next item's weight tile "
                        "(rowsEveryItem)");
    e.line(call("lg_load_wram", {"w" + str(l) + "[wcur ^ 1]",
                                 "g_w" + str(l) + " + (long)x_f0 * " +
                                     str(rows) + " * " + perRow,
                                 perRow + " * x_ft", "true"}));
    return;
  }
  // Piece boundaries at 256 bytes: whole GDRAM blocks (64 B on the
  // built-in specs), so no block is read twice.
  int64_t align = std::max<int64_t>(1, 256 / n.weightElemBytes(n.Layers[l]));
  std::string stride = str(axis.Stride);
  auto body = e.block("", "the next channel slice's weight tile, a piece per "
                          "item of this one");
  e.line("const int s_b = item / " + stride + " * " + stride +
         " > begin ? item / " + stride + " * " + stride + " : begin;");
  e.line("const int s_e = (item / " + stride + " + 1) * " + stride +
         " < end ? (item / " + stride + " + 1) * " + stride + " : end;");
  auto next = e.block("if (s_e < end)");
  e.line("const int n_f0 = ((item / " + stride + " + 1) % " +
         str(axis.Count) + ") * " + str(p.SliceChannels) + ";");
  e.line("const long n_w = (long)(" + str(p.Channels) + " - n_f0 < " +
         str(p.SliceChannels) + " ? " + str(p.Channels) + " - n_f0 : " +
         str(p.SliceChannels) + ") * " + str(per) + ";");
  e.line("const long n_p = s_e - s_b, n_j = item - s_b;");
  if (p.NextItemRow0) {
    // The second item's piece goes to the third (NextItemRow0).
    e.line("const bool n_late = next_row0 && s_b == begin && n_p > 2;");
    e.line("const long w_a = n_w * (n_late && n_j == 2 ? 1 : n_j) / n_p / " +
           str(align) + " * " + str(align) + ";");
  } else
    e.line("const long w_a = n_w * n_j / n_p / " + str(align) + " * " +
           str(align) + ";");
  e.line("const long w_b = n_j + 1 == n_p ? n_w : n_w * (n_j + 1) / n_p / " +
         str(align) + " * " + str(align) + ";");
  std::optional<Emitter::Scope> late;
  if (p.NextItemRow0)
    late.emplace(e.block("if (!(n_late && n_j == 1))"));
  e.line(call("lg_load_wram", {"w" + str(l) + "[wcur ^ 1] + w_a",
                               "g_w" + str(l) + " + (long)n_f0 * " + str(per) +
                                   " + w_a",
                               "(int)(w_b - w_a)", "true"}));
}

// The async load (IO-DMA) of kernel positions [from, to) of layer \p l's
// first weight tile (GroupPlan::FirstPieces: a position's [C][ft] weights
// are contiguous in its [KY][KX][C][ft] tile) into WRAM buffer \p w.
std::string KernelWriter::pieceLoad(const std::string &w, int l,
                                    const std::string &from,
                                    const std::string &to) const {
  const Layer &layer = n.Layers[l];
  int kk = int(layer.KY * layer.KX);
  std::string perPos = str(GroupPlan::weightsPerChannel(n, l) / kk);
  return call("lg_load_wram",
              {w + " + " + from + " * " + perPos + " * ft",
               "g_w" + str(l) + " + f0 * " + str(kk) + " * " + perPos +
                   " + " + from + " * " + perPos + " * ft",
               "(" + to + " - " + from + ") * " + perPos + " * ft", "true"});
}

// ts0 of the first item with GroupPlan::EarlyPiece (the vectors loaded
// before the barrier): the tile's second piece queued (IO-DMA) before the
// input's copy, which is synchronous, so the first piece's convolution
// waits for the copy alone and the second piece loads beside the copy and
// that convolution (computeConvByRows then loads the pieces after it).
// A whole tile (a later phase's other channel slice) as usual.
void KernelWriter::earlyPiece() {
  const Layer &layer = n.Layers[g.First];
  int kk = int(layer.KY * layer.KX);
  const std::vector<int> &ends = p.FirstPieces;
  std::string w = "w" + str(g.First), to = str(ends[0]),
              next = str(ends[1]);
  {
    auto kept = e.block("if (f0 != wf)", "kept from an earlier phase "
                                         "otherwise");
    weightLoad(g.First, "wcur", "f0", "ft", true);
    e.line("wf = f0;");
  }
  {
    auto early = e.block("if (w_pos < " + str(kk) + ")",
                         "the tile's second piece, beside the input's copy "
                         "(EarlyPiece)");
    e.line(pieceLoad(w + "[wcur]", g.First, to, next));
  }
  padPart = 2; // its padding rows zeroed before the barrier
  if (!p.inputsResident())
    for (int t : g.Inputs)
      tensorLoad(t, "cur", "", false);
  padPart = 0;
  e.line("if (w_pos == " + str(kk) + ") __sync(); // a whole tile");
}

void KernelWriter::pipelinedItem() {
  stagedRestBarrier();
  {
    auto first = e.block("if (k == 0)", "ts0 of the first item: nothing to "
                                        "overlap with");
    if (!vecStaged)
      vectorLoads();
    // Queued (a padded input's copy before it zeroes its padding rows on
    // the vector unit, which then run beside it), then one __sync().
    if (p.EarlyPiece)
      earlyPiece();
    else if (!p.inputsResident())
      for (int t : g.Inputs)
        tensorLoad(t, "cur", "", true);
    if (p.weightTiles() && !p.EarlyPiece) {
      auto kept = e.block("if (f0 != wf)", "kept from an earlier phase "
                                           "otherwise");
      weightLoad(g.First, "wcur", "f0", "ft", true);
      e.line("wf = f0;");
    }
    if (!p.EarlyPiece)
      e.line("__sync();");
    if (!vec.empty() && !vecStaged)
      e.line("lg_vec_pending = false;");
  }
  if (p.rowsEveryItem(n)) // its kernel row 0 only (tilePiece)
    e.line("if (f0 != wf) { wcur ^= 1; wf = f0; w_rows = 1; } // row 0 "
           "prefetched by the previous item");
  else if (p.weightTiles())
    e.line("if (f0 != wf) { wcur ^= 1; wf = f0; } // prefetched by the "
           "previous item");
  int piecesFrom = p.LastPieces > 1 ? p.lastPiecesStart(n) : 0;
  for (int ts = 1; ts <= int(g.Layers.size()); ++ts) {
    if (ts == piecesFrom) // before the step's usual code
      lastItemPieces(ts);
    e.line("// ts" + str(ts));
    keptRowsMove(ts);
    int first = tileFirst();
    if (ts == 1 && first >= 0) {
      const Layer &layer = n.Layers[first];
      int in0 = layer.Inputs[0];
      std::string si = str(g.slot(in0)), so = str(g.slot(layer.Output));
      const Tensor &in = n.Tensors[in0];
      e.line("const " + ctype(in0) + " *win" + str(first) + " = " +
             call("lg_conv_window", {"t" + str(in0) + "[cur]",
                                     "lo[" + si + "]",
                                     "clo[" + si + "]",
                                     "chi[" + si + "]",
                                     str(in.C),
                                     str(in.H),
                                     str(in.W),
                                     p.keepsRows(n, layer.Output)
                                         ? "lo[" + so + "] + kr[" + so + "]"
                                         : "lo[" + so + "]",
                                     "hi[" + so + "]",
                                     "clo[" + so + "]",
                                     "chi[" + so + "]",
                                     str(layer.KY),
                                     str(layer.KX),
                                     str(layer.SY),
                                     str(layer.SX),
                                     str(layer.PU),
                                     str(layer.PL),
                                     str(layer.DY),
                                     str(layer.DX),
                                     "tile" + str(first)}) +
             " // " + layer.Name + "'s window tile first");
    }
    if (ts == p.transferStep()) {
      // The compute first, then what it does not wait for, issued while the
      // matrix unit runs (scalar code holds up the issue: before the
      // compute or after the __sync() it would delay it): the next item's
      // loads (their copies are queued before they zero padding rows on the
      // vector unit; a view's load may copy synchronously, which would wait
      // for the compute, so it is issued first), the previous item's
      // stores, the next weight tile's piece and the bookkeeping. A scalar
      // loop (TimeStep::ScalarLoop: CLIF, CLUT, clamp, integer layers) is
      // no unit that runs while the core issues on: the loads and stores go
      // before it, their copies run during the loop, and they go in the
      // step of the largest such loop (GroupPlan::transferStep).
      bool scalarStep = p.Steps[ts].ScalarLoop;
      bool loadsFirst =
          scalarStep ||
          (!p.inputsResident() && llvm::any_of(g.Inputs, [&](int t) {
            return n.Tensors[t].isView() || n.Tensors[t].gathered();
          }));
      // The previous item's stores, then the rest of a chunked input.
      auto storesAndRest = [&] {
        pipelinedStores();
        stageRest(false);
        if (!p.StageSendStep)
          stageRest(true);
      };
      if (loadsFirst)
        pipelinedLoads();
      if (scalarStep)
        storesAndRest();
      for (int l : p.Steps[ts].Compute)
        if (p.LateSplit)
          lateSplitCompute(l);
        else
          compute(l);
      if (!loadsFirst)
        pipelinedLoads();
      if (!scalarStep)
        storesAndRest();
      lateWeightSends();
      e.line("p_n0 = n0; p_nb = nb; p_f0 = f0; p_ft = ft; p_hs = hs; "
             "p_ws = ws;");
      e.line("for (int s = 0; s < " + str(tensors()) +
             "; ++s) { p_lo[s] = lo[s]; p_hi[s] = hi[s]; p_clo[s] = clo[s]; "
             "p_chi[s] = chi[s]; }");
    } else {
      for (int l : p.Steps[ts].Compute)
        compute(l);
      if (ts == p.StageSendStep)
        stageRest(true);
    }
    // The late weights (GroupPlan::LateWeights): the barrier and copies
    // after the transfer step, a __sync() before a step that reads them;
    // the copies of later steps after the one before the first.
    std::vector<int> late = p.lateWeightSteps(n);
    bool runsOn = p.stepRunsOn(n, ts);
    if (p.LateWeights && ts == p.transferStep())
      lateWeightCopies(true);
    else if (runsOn && llvm::is_contained(late, ts + 1))
      e.line("if (k == 0 && ph == 0) __sync(); // the late weights' WRAM "
             "copies");
    if (runsOn)
      e.line("// no __sync(): ts" + str(ts + 1) +
             " touches nothing in flight (GroupPlan::stepRunsOn)");
    else if (p.stepRunsOnAfterRows(n, ts))
      e.line("if (k == 0) __sync(); // the weight tile's kernel rows: "
             "the others run on (GroupPlan::stepRunsOnAfterRows)");
    else
      e.line("__sync();");
    if (!late.empty() && ts + 1 == late.front())
      lateWeightCopies(false);
  }
}

void KernelWriter::itemLoop() {
  if (p.pipelined() && p.LastPieces > 1)
    e.line("bool last_stored = false; // by lastItemPieces");
  e.line("int k = 0;");
  auto loop = e.block("for (int item = begin; item < end; ++item, ++k)");
  e.line("const int cur = k & 1;");
  if (p.pipelined()) {
    // The previous item computed this one's slice (x_) for its loads.
    e.line("if (k == 0)");
    {
      auto first = e.indent();
      e.line(sliceCall("item"));
    }
    auto next = e.block("else");
    e.line("n0 = x_n0; nb = x_nb; f0 = x_f0; ft = x_ft;");
    e.line("for (int s = 0; s < " + str(tensors()) +
           "; ++s) { lo[s] = x_lo[s]; hi[s] = x_hi[s]; clo[s] = x_clo[s]; "
           "chi[s] = x_chi[s]; }");
  } else {
    e.line(sliceCall("item"));
  }
  e.line("const int hs = (item / " + str(p.rowAxis().Stride) + ") % " +
         str(p.HSecs) + ", ws = (item / " + str(p.columnAxis().Stride) +
         ") % " + str(p.WSecs) + ";");
  e.line("(void)hs; (void)ws;");
  keptRowsStart();
  if (p.pipelined())
    pipelinedItem();
  else
    plainItem();
}

// An item that follows the H slice above it on this core (GroupPlan::
// KeepRows: items go down a column of tiles) keeps the rows of each kept
// tensor that the item before computed: kr of them at the front of the
// slice, which the item before moved there (keptRowsMove), or which it
// moves now when that item's last layer read them.
void KernelWriter::keptRowsStart() {
  if (!p.KeepRows)
    return;
  std::string nt = str(tensors());
  e.line("int kr[" + nt + "] = {0}; // rows kept from the item before");
  auto keep = e.block("if (k > 0 && hs > 0)",
                      "the item before is the H slice above: its rows are "
                      "in NRAM");
  for (int t : g.Internal) {
    if (!p.keepsRows(n, t))
      continue;
    std::string s = str(g.slot(t));
    std::string lo = "lo[" + s + "]", hi = "hi[" + s + "]",
                phi = "p_hi[" + s + "]";
    e.line("kr[" + s + "] = " + phi + " <= " + lo + " ? 0 : (" + phi + " < " +
           hi + " ? " + phi + " : " + hi + ") - " + lo + "; // " +
           n.Tensors[t].Name);
    if (p.keptMoveStep(n, t) == 0)
      e.line(keepRowsCall(t, lo, "kr[" + s + "]", "p_", false) +
             " // the item before's last layer read them");
  }
}

// The lg_keep_rows call that moves \p rows rows of kept tensor \p t, from
// its row \p from on, to the front of its slice, or of the window tile
// that holds them (GroupPlan::KeptTiles), as the item of prefix \p at
// ("" or "p_") placed them.
std::string KernelWriter::keepRowsCall(int t, const std::string &from,
                                       const std::string &rows,
                                       const std::string &at,
                                       bool async) const {
  std::string s = str(g.slot(t)), ch = str(p.sliceChannels(n, t));
  int conv = p.keptTileOf(t);
  if (conv < 0)
    return call("lg_keep_rows",
                {"t" + str(t) + "[cur]", from + " - " + at + "lo[" + s + "]",
                 rows, "(chi[" + s + "] - clo[" + s + "]) * " + ch,
                 async ? "true" : "false"});
  const Layer &c = n.Layers[conv];
  std::string so = str(g.slot(c.Output));
  std::string r0 = "(" + at + "lo[" + so + "] * " + str(c.SY) + " - " +
                   str(c.PU) + ")";
  std::string width = "lg_window_extent(" + at + "chi[" + so + "] - " + at +
                      "clo[" + so + "], " + str(c.SX) + ", " + str(c.KX) +
                      ", " + str(c.DX) + ")";
  return call("lg_keep_rows", {"tile" + str(conv), from + " - " + r0, rows,
                               width + " * " + ch, async ? "true" : "false"});
}

// At the start of step \p ts (GroupPlan::keptMoveStep), when the next item
// is the H slice below on this core, the rows of a kept tensor that it
// keeps move to the front of the slice, async beside the step's compute.
void KernelWriter::keptRowsMove(int ts) {
  if (!p.KeepRows)
    return;
  for (int t : g.Internal) {
    if (!p.keepsRows(n, t) || p.keptMoveStep(n, t) != ts)
      continue;
    std::string s = str(g.slot(t));
    std::string hi = "hi[" + s + "]", xlo = "x_lo[" + s + "]";
    int conv = p.keptTileOf(t);
    auto next = e.block(
        "if (item + 1 < end && hs + 1 < " + str(p.HSecs) + " && " + hi +
            " > " + xlo + ")",
        "the rows of " + n.Tensors[t].Name + " the next item keeps" +
            (conv < 0 ? ""
                      : ", in " + n.Layers[conv].Name +
                            "'s window tile (KeptTiles)"));
    e.line(keepRowsCall(t, xlo, hi + " - " + xlo, "", true));
  }
}

// A pipelined core stores its last item's outputs after the loop.
void KernelWriter::drain() {
  auto last = e.block(p.LastPieces > 1 ? "if (k > 0 && !last_stored)"
                                       : "if (k > 0)",
                      "the last item's outputs");
  e.line("const int cur = k & 1;");
  for (int t : g.Outputs)
    tensorStore(t, "cur ^ 1", "p_", false);
}

GroupKernel KernelWriter::write() {
  header();
  declarations();
  sliceFunction();
  e.line("");
  signature();
  {
    auto body = e.indent();
    bufferPointers();
    prologue();
    std::string nt = str(tensors());
    e.line("int n0, nb, f0, ft, lo[" + nt + "], hi[" + nt + "], clo[" + nt +
           "], chi[" + nt + "];");
    if (!p.phased())
      e.line("const int begin = taskId * ITEMS / taskDim, end = (taskId + 1) "
             "* ITEMS / taskDim;");
    if (p.inputsInSram() && !p.phased())
      clusterStaging();
    if (p.inputsResident() && !p.phased())
      residentInputs();
    if (p.global())
      e.line("int wf = -1, wcur = 0; // the channel slice in w[wcur]");
    if (int rows = p.firstTileRows(n))
      e.line("int w_rows = " + str(rows) +
             "; // kernel rows of w[wcur] loaded (firstTileRows)");
    if (p.NextItemRow0)
      e.line("bool next_row0 = false; // the second item's kernel row 0 "
             "done (NextItemRow0)");
    if (!p.FirstPieces.empty()) {
      const Layer &conv = n.Layers[g.First];
      e.line("int w_pos = " + str(conv.KY * conv.KX) +
             "; // kernel positions of the first tile loaded (FirstPieces)");
    }
    if (p.pipelined())
      e.line(fmt::format("int p_n0 = 0, p_nb = 0, p_f0 = 0, p_ft = 0, p_hs = "
                         "0, p_ws = 0, p_lo[{0}], p_hi[{0}], p_clo[{0}], "
                         "p_chi[{0}], x_n0, x_nb, x_f0, x_ft, x_lo[{0}], "
                         "x_hi[{0}], x_clo[{0}], x_chi[{0}];",
                         tensors()));
    {
      std::optional<Emitter::Scope> phase;
      if (p.phased()) {
        phase.emplace(
            e.block("for (int ph = 0; ph < " + str(p.SramPhases) + "; ++ph)"));
        phaseStart();
      }
      itemLoop();
      if (p.pipelined())
        drain();
    }
    if (p.pipelined())
      e.line("(void)x_n0; (void)x_nb; (void)x_f0; (void)x_ft;");
    if (p.global())
      e.line("(void)wf; (void)wcur;");
  }
  e.line("}");
  k.Source = e.text();
  return k;
}

} // namespace

GroupKernel emitGroupKernel(const Net &n, const GroupPlan &p, int index) {
  return KernelWriter(n, p, index).write();
}

} // namespace bangc::lg
