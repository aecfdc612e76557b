#pragma once
// Facts about a graph the views show: op families (for colours), Scan layout
// (categories of inner<->outer links), trace buffers and their bytes. Pure
// functions over the engine IR, no Qt, so the session and headless export
// agree with the window.
#include "ir/Graph.h"
#include "ops/ScanInfo.h"

#include <optional>
#include <string>
#include <vector>

namespace tl {

/// Colour families of ops; the canvas legend uses the same list.
enum class OpFamily : uint8_t { Elemwise, Composite, Scan, Indexing, Memory, Shape, Reduction, Check, Scalar, Other, Input, Constant };
inline constexpr int kNumOpFamilies = 12;

OpFamily opFamily(const Op& op);
/// "elementwise", "scan", ... for legends and tooltips.
const char* opFamilyName(OpFamily f);
/// The fill colour of a family as 0xRRGGBB: one palette for the canvas, its legend and DOT export.
uint32_t opFamilyRgb(OpFamily f);

/// The ScanInfo of a Scan op, or nullopt for any other op (or a Scan whose
/// class is not built into this binary yet).
std::optional<ScanInfo> scanInfoOf(const Op& op);

/// One link between an outer variable of a Scan node and its inner graph.
struct ScanLink {
    int outer = -1;      // outer input / output index (-1: none, e.g. the while condition)
    int inner = -1;      // inner input / output index (-1: none, e.g. n_steps, nit_sot rows)
    std::string label;   // "sit_sot-0", "mit_sot-1[-2]", "n_steps", "non_seqs-0", "cond"
};

/// Outer inputs of a Scan and the inner inputs they feed, in outer order.
std::vector<ScanLink> scanInputLinks(const ScanInfo& info);
/// Inner outputs of a Scan and the outer outputs they produce, in inner order.
std::vector<ScanLink> scanOutputLinks(const ScanInfo& info);
/// Category label of outer input i ("sit_sot-0"), as PyTensor's op-info tags without the prefix.
std::string scanOuterInputLabel(const ScanInfo& info, int i);
std::string scanOuterOutputLabel(const ScanInfo& info, int i);

/// Bytes of a value of this type, or -1 when a dimension is unknown.
int64_t typeBytes(const Type& t);

/// The trace buffer of one state of one Scan node.
struct BufferRow {
    NodeId scan = -1;
    int outerInput = -1;   // index of the buffer among the scan's outer inputs
    std::string label;     // "sit_sot-0"
    VarId var = -1;        // the buffer variable (for nit_sot: the rows count)
    std::string shape;     // "(11, 7)" ("?" where unknown)
    int64_t rows = -1;     // -1 when unknown
    int64_t bytes = -1;    // -1 when unknown
};

/// Buffers of a Scan node: traced states (their outer input) and nit_sot outputs.
std::vector<BufferRow> scanBuffers(const Node& scan);
/// What a set of loop buffers takes: the bytes of those whose shape the types fix,
/// and how many more are sized only at run time (a sequence of unknown length).
/// Kept apart so that shrinking one buffer shows even while another is unknown.
struct BufferTotal {
    int64_t bytes = 0;
    int sizedAtRunTime = 0;
    void add(const BufferRow& r);
    bool operator==(const BufferTotal&) const = default;
};
/// The buffers of one Scan node, and of every Scan node of a graph.
BufferTotal scanBufferTotal(const Node& scan);
BufferTotal totalBuffers(const Graph& g);
/// "1,232 B"; "1,232 B + ? (1 sized at run time)"; "? (2 sized at run time)".
std::string formatBufferTotal(const BufferTotal& t);

/// "1,232 B", "14.2 KiB" for the inspector and the bytes banner.
std::string formatBytes(int64_t bytes);

/// A short one-line text for a variable as an edge label: "float64 (?, 7)".
std::string edgeLabel(const Type& t);

} // namespace tl
