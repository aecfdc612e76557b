#include "ops/Subtensor.h"

#include "ops/ArrayOpUtil.h"

#include <nlohmann/json.hpp>

namespace tl {

namespace {

std::string sliceString(const IndexEntry& e) {
    if (e.hasStep) return std::string(e.hasStart ? "start" : "") + ":" + (e.hasStop ? "stop" : "") + ":step";
    if (e.hasStop) return std::string(e.hasStart ? "start" : "") + ":stop";
    if (e.hasStart) return "start:";
    return ":";
}

} // namespace

ResolvedSlice resolveSlice(std::optional<int64_t> start, std::optional<int64_t> stop, std::optional<int64_t> step,
                           int64_t n) {
    const int64_t st = step.value_or(1);
    const int64_t lower = st > 0 ? 0 : -1, upper = st > 0 ? n : n - 1;
    auto clamp = [&](std::optional<int64_t> v, int64_t dflt) {
        if (!v) return dflt;
        int64_t x = *v;
        if (x < 0) {
            x += n;
            return x < lower ? lower : x;
        }
        return x > upper ? upper : x;
    };
    const int64_t a = clamp(start, st > 0 ? lower : upper);
    const int64_t b = clamp(stop, st > 0 ? upper : lower);
    int64_t len = 0;
    if (st > 0 && b > a) len = (b - a + st - 1) / st;
    if (st < 0 && a > b) len = (a - b - st - 1) / (-st);
    return {a, st, len};
}

int numIndexInputs(const std::vector<IndexEntry>& entries) {
    int n = 0;
    for (const auto& e : entries)
        n += e.kind == IndexEntry::Kind::Index ? 1 : int(e.hasStart) + int(e.hasStop) + int(e.hasStep);
    return n;
}

std::string indicesString(const std::vector<IndexEntry>& entries) {
    std::string s;
    int letters = 0;
    for (size_t i = 0; i < entries.size(); ++i) {
        if (i) s += ", ";
        if (entries[i].kind == IndexEntry::Kind::Slice) {
            s += sliceString(entries[i]);
        } else {
            // PyTensor names integer indices i, j, k, ii, jj, kk, ...
            s += std::string(letters / 3 + 1, "ijk"[letters % 3]);
            ++letters;
        }
    }
    return s;
}

nlohmann::json indexEntriesToJson(const std::vector<IndexEntry>& entries) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& e : entries) out.push_back(e.kind == IndexEntry::Kind::Index ? "index" : sliceString(e));
    return out;
}

std::vector<IndexEntry> indexEntriesFromJson(const nlohmann::json& j, const std::string& opName) {
    if (!j.is_array()) throw std::invalid_argument(opName + " params: \"idx_list\" must be a list");
    std::vector<IndexEntry> out;
    for (size_t i = 0; i < j.size(); ++i) {
        const std::string where = opName + " params: \"idx_list\"/" + std::to_string(i);
        if (!j[i].is_string()) throw std::invalid_argument(where + " must be a string, got " + j[i].dump());
        const std::string s = j[i].get<std::string>();
        if (s == "index") {
            out.push_back({IndexEntry::Kind::Index});
            continue;
        }
        std::vector<std::string> parts{""};
        for (char c : s) {
            if (c == ':') parts.emplace_back();
            else parts.back() += c;
        }
        IndexEntry e{IndexEntry::Kind::Slice};
        const bool ok = (parts.size() == 2 || parts.size() == 3) && (parts[0].empty() || parts[0] == "start") &&
                        (parts[1].empty() || parts[1] == "stop") && (parts.size() == 2 || parts[2] == "step");
        if (!ok) throw std::invalid_argument(where + ": \"" + s + "\" is neither \"index\" nor a slice like \"start:stop:step\"");
        e.hasStart = parts[0] == "start";
        e.hasStop = parts[1] == "stop";
        e.hasStep = parts.size() == 3;
        if (sliceString(e) != s) throw std::invalid_argument(where + ": write \"" + sliceString(e) + "\" instead of \"" + s + "\"");
        out.push_back(e);
    }
    return out;
}

Type subtensorType(const Type& x, const std::vector<IndexEntry>& entries, std::span<const Type* const> indexTypes,
                   std::span<const NDArray* const> indexConstants, const std::string& opName) {
    arrayop::requireTensor(x, opName + " input");
    if (static_cast<int>(entries.size()) > x.ndim())
        throw OpTypeError(opName + ": too many indices (" + std::to_string(entries.size()) + ") for " + x.toString());
    if (static_cast<int>(indexTypes.size()) != numIndexInputs(entries))
        throw OpTypeError(opName + " takes " + std::to_string(numIndexInputs(entries)) + " index input(s), got " +
                          std::to_string(indexTypes.size()));
    size_t k = 0;
    auto next = [&](const char* what, size_t axis) -> std::optional<int64_t> {
        arrayop::requireIntScalar(*indexTypes[k], opName + " " + what + " for axis " + std::to_string(axis));
        const NDArray* c = k < indexConstants.size() ? indexConstants[k] : nullptr;
        ++k;
        return arrayop::constantInt(c);
    };
    StaticShape out;
    bool allConstant = true;
    for (size_t axis = 0; axis < entries.size(); ++axis) {
        const IndexEntry& e = entries[axis];
        const int64_t n = x.shape[axis];
        if (e.kind == IndexEntry::Kind::Index) {
            auto i = next("index", axis);
            if (i && n != kUnknownDim && (*i < -n || *i >= n))
                throw OpTypeError(opName + ": index " + std::to_string(*i) + " is out of bounds for axis " +
                                  std::to_string(axis) + " with size " + std::to_string(n));
            continue;
        }
        std::optional<int64_t> parts[3];
        const bool has[3] = {e.hasStart, e.hasStop, e.hasStep};
        allConstant = true;
        for (int p = 0; p < 3; ++p) {
            if (!has[p]) continue;
            parts[p] = next(p == 0 ? "slice start" : p == 1 ? "slice stop" : "slice step", axis);
            if (!parts[p]) allConstant = false;
        }
        if (parts[2] && *parts[2] == 0) throw OpTypeError(opName + ": slice step cannot be zero (axis " + std::to_string(axis) + ")");
        if (n == kUnknownDim || !allConstant) out.push_back(kUnknownDim);
        else out.push_back(resolveSlice(parts[0], parts[1], parts[2], n).length);
    }
    for (int axis = static_cast<int>(entries.size()); axis < x.ndim(); ++axis) out.push_back(x.shape[axis]);
    return Type::tensor(x.dtype, std::move(out));
}

NDArray subtensorView(const NDArray& x, const std::vector<IndexEntry>& entries, std::span<const NDArray> idx,
                      const std::string& opName) {
    if (static_cast<int>(entries.size()) > x.ndim())
        throw ExecError(opName + ": too many indices for an array of shape " + shapeToString(x.shape()));
    if (static_cast<int>(idx.size()) != numIndexInputs(entries))
        throw ExecError(opName + ": expected " + std::to_string(numIndexInputs(entries)) + " index values, got " +
                        std::to_string(idx.size()));
    Shape shape;
    Strides strides;
    int64_t offset = x.offset();
    size_t k = 0;
    for (size_t axis = 0; axis < entries.size(); ++axis) {
        const IndexEntry& e = entries[axis];
        const int64_t n = x.dim(static_cast<int>(axis)), stride = x.strides()[axis];
        if (e.kind == IndexEntry::Kind::Index) {
            const int64_t i = arrayop::readInt(idx[k++], opName + " index for axis " + std::to_string(axis));
            if (i < -n || i >= n)
                throw ExecError(opName + ": index " + std::to_string(i) + " is out of bounds for axis " +
                                std::to_string(axis) + " with size " + std::to_string(n));
            offset += (i < 0 ? i + n : i) * stride;
            continue;
        }
        std::optional<int64_t> start, stop, step;
        if (e.hasStart) start = arrayop::readInt(idx[k++], opName + " slice start for axis " + std::to_string(axis));
        if (e.hasStop) stop = arrayop::readInt(idx[k++], opName + " slice stop for axis " + std::to_string(axis));
        if (e.hasStep) step = arrayop::readInt(idx[k++], opName + " slice step for axis " + std::to_string(axis));
        if (step && *step == 0) throw ExecError(opName + ": slice step cannot be zero (axis " + std::to_string(axis) + ")");
        const ResolvedSlice r = resolveSlice(start, stop, step, n);
        shape.push_back(r.length);
        strides.push_back(stride * r.step);
        // An empty slice may start one past the end; keep the offset inside the array.
        if (r.length > 0) offset += r.start * stride;
    }
    for (int axis = static_cast<int>(entries.size()); axis < x.ndim(); ++axis) {
        shape.push_back(x.dim(axis));
        strides.push_back(x.strides()[axis]);
    }
    return x.view(std::move(shape), std::move(strides), offset);
}

SubtensorOp::SubtensorOp(std::vector<IndexEntry> entries) : Op(OpKind::Subtensor), m_entries(std::move(entries)) {}

std::vector<Type> SubtensorOp::inferTypes(std::span<const Type* const> in) const {
    return inferTypesWithConstants(in, {});
}

std::vector<Type> SubtensorOp::inferTypesWithConstants(std::span<const Type* const> in,
                                                       std::span<const NDArray* const> constants) const {
    arrayop::requireMinArity(in, 1, name());
    return {subtensorType(*in[0], m_entries, in.subspan(1), constants.empty() ? constants : constants.subspan(1), name())};
}

void SubtensorOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    out[0] = subtensorView(in[0], m_entries, in.subspan(1), name());
}

nlohmann::json SubtensorOp::params() const { return {{"idx_list", indexEntriesToJson(m_entries)}}; }

OpPtr makeSubtensor(std::vector<IndexEntry> entries) { return std::make_shared<SubtensorOp>(std::move(entries)); }

OpPtr makeOpSubtensor(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    return makeSubtensor(indexEntriesFromJson(arrayop::requireParam(params, "idx_list", "Subtensor"), "Subtensor"));
}

} // namespace tl
