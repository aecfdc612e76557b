#include "trace/GraphFacts.h"

#include "ops/Linalg.h"
#include "ops/ScanOp.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace tl {

OpFamily opFamily(const Op& op) {
    if (isLinalgKind(op.kind())) return OpFamily::Reduction;  // drawn with the products
    switch (op.kind()) {
    case OpKind::Elemwise: return op.innerGraph() ? OpFamily::Composite : OpFamily::Elemwise;
    case OpKind::Scan: return OpFamily::Scan;
    case OpKind::Subtensor:
    case OpKind::IncSubtensor:
    case OpKind::AdvancedSubtensor1:
    case OpKind::AdvancedSubtensor:
    case OpKind::AdvancedIncSubtensor1:
    case OpKind::AdvancedIncSubtensor:
    case OpKind::MakeSlice: return OpFamily::Indexing;
    case OpKind::IfElse:
    case OpKind::OpFromGraph: return OpFamily::Other;
    case OpKind::Alloc:
    case OpKind::AllocEmpty:
    case OpKind::DeepCopy:
    case OpKind::ARange:
    case OpKind::Eye:
    case OpKind::Tri:
    case OpKind::Bartlett:
    case OpKind::AllocDiag: return OpFamily::Memory;
    case OpKind::DimShuffle:
    case OpKind::Unbroadcast:
    case OpKind::SpecifyShape:
    case OpKind::Shape:
    case OpKind::ShapeI:
    case OpKind::Reshape:
    case OpKind::Join:
    case OpKind::MakeVector:
    case OpKind::ScalarFromTensor:
    case OpKind::TensorFromScalar:
    case OpKind::ExtractDiag:
    case OpKind::Split:
    case OpKind::Repeat:
    case OpKind::Pad: return OpFamily::Shape;
    case OpKind::FillDiagonal:
    case OpKind::FillDiagonalOffset:
    case OpKind::PermuteRowElements:
    case OpKind::Choose: return OpFamily::Indexing;
    case OpKind::Sort:
    case OpKind::ArgSort:
    case OpKind::Searchsorted:
    case OpKind::Nonzero:
    case OpKind::Unique:
    case OpKind::RavelMultiIndex:
    case OpKind::UnravelIndex:
    case OpKind::Convolve1d: return OpFamily::Other;
    case OpKind::Dot:
    case OpKind::Reduce:
    case OpKind::Argmax:
    case OpKind::Softmax:
    case OpKind::LogSoftmax:
    case OpKind::SoftmaxGrad:
    case OpKind::CumOp: return OpFamily::Reduction;
    // products and BLAS (the linear-algebra kinds are handled above)
    case OpKind::Blockwise:
    case OpKind::Dot22:
    case OpKind::Dot22Scalar:
    case OpKind::Gemm:
    case OpKind::Gemv:
    case OpKind::CGemv:
    case OpKind::Ger:
    case OpKind::CGer:
    case OpKind::BatchedDot: return OpFamily::Reduction;
    case OpKind::Assert:
    case OpKind::CheckAndRaise: return OpFamily::Check;
    case OpKind::Scalar: return OpFamily::Scalar;
    case OpKind::Opaque: return OpFamily::Other;
    default: break;
    }
    return OpFamily::Other;
}

const char* opFamilyName(OpFamily f) {
    switch (f) {
    case OpFamily::Elemwise: return "elementwise";
    case OpFamily::Composite: return "fused (Composite)";
    case OpFamily::Scan: return "scan";
    case OpFamily::Indexing: return "indexing";
    case OpFamily::Memory: return "allocation / copy";
    case OpFamily::Shape: return "shape";
    case OpFamily::Reduction: return "dot / reduction";
    case OpFamily::Check: return "assert";
    case OpFamily::Scalar: return "scalar";
    case OpFamily::Other: return "other";
    case OpFamily::Input: return "input";
    case OpFamily::Constant: return "constant";
    }
    return "?";
}

uint32_t opFamilyRgb(OpFamily f) {
    switch (f) {
    case OpFamily::Elemwise: return 0xd6e9ff;
    case OpFamily::Composite: return 0xa9d2ff;
    case OpFamily::Scan: return 0xffdfb0;
    case OpFamily::Indexing: return 0xd9f0cf;
    case OpFamily::Memory: return 0xf7d4d4;
    case OpFamily::Shape: return 0xe7e1f7;
    case OpFamily::Reduction: return 0xfff3b3;
    case OpFamily::Check: return 0xeeeeee;
    case OpFamily::Scalar: return 0xd2f1f0;
    case OpFamily::Other: return 0xe0e0e0;
    case OpFamily::Input: return 0xffffff;
    case OpFamily::Constant: return 0xf3f3f3;
    }
    return 0xe0e0e0;
}

std::optional<ScanInfo> scanInfoOf(const Op& op) {
    if (op.kind() != OpKind::Scan) return std::nullopt;
    if (auto* scan = dynamic_cast<const ScanOp*>(&op)) return scan->info();
    return std::nullopt;
}

namespace {
std::string tapSuffix(int tap) { return "[" + std::to_string(tap) + "]"; }
std::string cat(const char* name, int i) { return std::string(name) + "-" + std::to_string(i); }
} // namespace

std::vector<ScanLink> scanInputLinks(const ScanInfo& info) {
    std::vector<ScanLink> links;
    links.push_back({0, -1, "n_steps"});
    for (int i = 0; i < info.nSeqs; ++i) links.push_back({info.outerInSeqs() + i, i, cat("seqs", i)});
    int inner = info.innerInMitMot();
    for (int m = 0; m < info.nMitMot(); ++m)
        for (int tap : info.mitMotInTaps[m])
            links.push_back({info.outerInMitMot() + m, inner++, cat("mit_mot", m) + tapSuffix(tap)});
    inner = info.innerInMitSot();
    for (int m = 0; m < info.nMitSot(); ++m)
        for (int tap : info.mitSotTaps[m])
            links.push_back({info.outerInMitSot() + m, inner++, cat("mit_sot", m) + tapSuffix(tap)});
    for (int j = 0; j < info.nSitSot; ++j) links.push_back({info.outerInSitSot() + j, info.innerInSitSot() + j, cat("sit_sot", j)});
    for (int j = 0; j < info.nUntraced; ++j)
        links.push_back({info.outerInUntraced() + j, info.innerInUntraced() + j, cat("shared", j)});
    for (int j = 0; j < info.nNitSot; ++j) links.push_back({info.outerInNitSot() + j, -1, cat("nit_sot", j)});
    for (int j = 0; j < info.nNonSeqs; ++j)
        links.push_back({info.outerInNonSeqs() + j, info.innerInNonSeqs() + j, cat("non_seqs", j)});
    return links;
}

std::vector<ScanLink> scanOutputLinks(const ScanInfo& info) {
    std::vector<ScanLink> links;
    int inner = 0;
    for (int m = 0; m < info.nMitMot(); ++m)
        for (int tap : info.mitMotOutTaps[m]) links.push_back({m, inner++, cat("mit_mot", m) + tapSuffix(tap)});
    for (int m = 0; m < info.nMitSot(); ++m) links.push_back({info.outerOutMitSot() + m, info.innerOutMitSot() + m, cat("mit_sot", m)});
    for (int j = 0; j < info.nSitSot; ++j) links.push_back({info.outerOutSitSot() + j, info.innerOutSitSot() + j, cat("sit_sot", j)});
    for (int j = 0; j < info.nNitSot; ++j) links.push_back({info.outerOutNitSot() + j, info.innerOutNitSot() + j, cat("nit_sot", j)});
    for (int j = 0; j < info.nUntraced; ++j)
        links.push_back({info.outerOutUntraced() + j, info.innerOutUntraced() + j, cat("shared", j)});
    if (info.asWhile) links.push_back({-1, info.numInnerOutputs() - 1, "cond"});
    return links;
}

std::string scanOuterInputLabel(const ScanInfo& info, int i) {
    for (const ScanLink& l : scanInputLinks(info)) {
        if (l.outer != i) continue;
        std::string s = l.label;
        // mit_sot-0[-2] -> mit_sot-0: the outer buffer holds every tap.
        if (auto p = s.find('['); p != std::string::npos) s.resize(p);
        return s;
    }
    return "input-" + std::to_string(i);
}

std::string scanOuterOutputLabel(const ScanInfo& info, int i) {
    for (const ScanLink& l : scanOutputLinks(info)) {
        if (l.outer != i) continue;
        std::string s = l.label;
        if (auto p = s.find('['); p != std::string::npos) s.resize(p);
        return s;
    }
    return "output-" + std::to_string(i);
}

int64_t typeBytes(const Type& t) {
    int64_t n = 1;
    for (int64_t d : t.shape) {
        if (d < 0) return -1;
        n *= d;
    }
    return n * static_cast<int64_t>(dtypeSize(t.dtype));
}

std::vector<BufferRow> scanBuffers(const Node& scan) {
    std::vector<BufferRow> rows;
    std::optional<ScanInfo> info = scanInfoOf(scan.op());
    if (!info) return rows;
    for (int s = 0; s < info->nTracedStates(); ++s) {
        const int i = info->outerInMitMot() + s;
        if (i >= scan.numInputs()) break;
        const Variable* v = scan.input(i);
        BufferRow r;
        r.scan = scan.id();
        r.outerInput = i;
        r.label = std::string(scanCategoryName(info->stateCategory(s))) + "-" + std::to_string(info->indexInCategory(s));
        r.var = v->id();
        r.shape = Type::shapeString(v->type().shape);
        r.rows = v->type().ndim() > 0 ? v->type().shape[0] : -1;
        r.bytes = typeBytes(v->type());
        rows.push_back(std::move(r));
    }
    for (int j = 0; j < info->nNitSot; ++j) {
        const int i = info->outerInNitSot() + j;
        const int o = info->outerOutNitSot() + j;
        if (i >= scan.numInputs() || o >= scan.numOutputs()) break;
        const Variable* count = scan.input(i);
        BufferRow r;
        r.scan = scan.id();
        r.outerInput = i;
        r.label = "nit_sot-" + std::to_string(j);
        r.var = count->id();
        Type t = scan.output(o)->type();
        if (count->isConstant() && t.ndim() > 0) t.shape[0] = count->constantValue().itemInt();
        r.shape = Type::shapeString(t.shape);
        r.rows = t.ndim() > 0 ? t.shape[0] : -1;
        r.bytes = typeBytes(t);
        rows.push_back(std::move(r));
    }
    return rows;
}

void BufferTotal::add(const BufferRow& r) {
    if (r.bytes < 0) ++sizedAtRunTime;
    else bytes += r.bytes;
}

BufferTotal scanBufferTotal(const Node& scan) {
    BufferTotal t;
    for (const BufferRow& r : scanBuffers(scan)) t.add(r);
    return t;
}

BufferTotal totalBuffers(const Graph& g) {
    BufferTotal t;
    for (const Node* n : g.nodes())
        if (n->op().kind() == OpKind::Scan)
            for (const BufferRow& r : scanBuffers(*n)) t.add(r);
    return t;
}

std::string formatBufferTotal(const BufferTotal& t) {
    if (t.sizedAtRunTime == 0) return formatBytes(t.bytes);
    const std::string unknown = "? (" + std::to_string(t.sizedAtRunTime) + " sized at run time)";
    return t.bytes > 0 ? formatBytes(t.bytes) + " + " + unknown : unknown;
}

std::string formatBytes(int64_t bytes) {
    if (bytes < 0) return "?";
    char buf[64];
    if (bytes < 10 * 1024) {
        // Thousands separators: small buffers are the interesting ones here ("1,232 B").
        std::string digits = std::to_string(bytes), out;
        for (size_t i = 0; i < digits.size(); ++i) {
            if (i && (digits.size() - i) % 3 == 0) out += ',';
            out += digits[i];
        }
        return out + " B";
    }
    if (bytes < 10 * 1024 * 1024) std::snprintf(buf, sizeof buf, "%.1f KiB", bytes / 1024.0);
    else if (bytes < int64_t(10) * 1024 * 1024 * 1024) std::snprintf(buf, sizeof buf, "%.1f MiB", bytes / (1024.0 * 1024.0));
    else std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
    return buf;
}

std::string edgeLabel(const Type& t) {
    if (t.isScalarType()) return std::string(dtypeName(t.dtype));
    return std::string(dtypeName(t.dtype)) + " " + Type::shapeString(t.shape);
}

} // namespace tl
