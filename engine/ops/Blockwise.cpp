#include "ops/Blockwise.h"

#include "ops/ArrayOpUtil.h"
#include "ops/Dot.h"
#include "ops/OpFactory.h"
#include "ops/PropsOp.h"
#include "ops/SliceKernel.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <set>

namespace tl {

namespace {

std::string dimsText(const std::vector<std::string>& dims) {
    std::string s = "(";
    for (size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + dims[i];
    return s + ")";
}

// "(m,n),(n)" -> {{m, n}, {n}}.
std::vector<std::vector<std::string>> parseArgs(const std::string& s, const std::string& whole) {
    std::vector<std::vector<std::string>> out;
    size_t i = 0;
    auto bad = [&](const std::string& why) {
        return std::invalid_argument("gufunc signature \"" + whole + "\": " + why + " at character " + std::to_string(i));
    };
    if (s.empty()) throw bad("no arguments");
    while (i < s.size()) {
        if (s[i] != '(') throw bad("expected '('");
        ++i;
        std::vector<std::string> dims;
        std::string cur;
        while (i < s.size() && s[i] != ')') {
            const char c = s[i];
            if (c == ',') {
                if (cur.empty()) throw bad("an empty dimension name");
                dims.push_back(cur);
                cur.clear();
            } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
                cur += c;
            } else {
                throw bad(std::string("unexpected '") + c + "'");
            }
            ++i;
        }
        if (i >= s.size()) throw bad("expected ')'");
        if (!cur.empty()) dims.push_back(cur);
        else if (!dims.empty()) throw bad("an empty dimension name");
        out.push_back(std::move(dims));
        ++i;  // ')'
        if (i < s.size()) {
            if (s[i] != ',') throw bad("expected ','");
            ++i;
            if (i >= s.size()) throw bad("expected '('");
        }
    }
    return out;
}

// PyTensor's broadcast_static_dim_lengths: equal lengths stay, 1 gives way, and an
// unknown length beside a known one stays unknown.
int64_t broadcastStatic(const std::vector<int64_t>& dims, const std::string& where) {
    std::set<int64_t> set(dims.begin(), dims.end());
    if (set.size() == 1) return *set.begin();
    set.erase(1);
    if (set.size() == 1) return *set.begin();
    set.erase(kUnknownDim);
    if (set.size() > 1) throw OpTypeError(where);
    return kUnknownDim;
}

std::string shapesText(std::span<const NDArray> in) {
    std::string s;
    for (const NDArray& a : in) s += (s.empty() ? "" : ", ") + shapeToString(a.shape());
    return s;
}

std::string indexText(const std::vector<int64_t>& idx) {
    std::string s = "(";
    for (size_t i = 0; i < idx.size(); ++i) s += (i ? ", " : "") + std::to_string(idx[i]);
    if (idx.size() == 1) s += ",";
    return s + ")";
}

// One input seen as a batch of core arrays: strides over the (broadcast) batch dims.
struct BatchedInput {
    Shape coreShape;
    Strides coreStrides;
    Strides batchStrides;
};

} // namespace

GufuncSignature GufuncSignature::parse(const std::string& text) {
    std::string s;
    for (char c : text)
        if (!std::isspace(static_cast<unsigned char>(c))) s += c;
    const size_t arrow = s.find("->");
    if (arrow == std::string::npos) throw std::invalid_argument("gufunc signature \"" + text + "\": no \"->\"");
    GufuncSignature sig;
    sig.text = text;
    sig.inputs = parseArgs(s.substr(0, arrow), text);
    sig.outputs = parseArgs(s.substr(arrow + 2), text);
    return sig;
}

BlockwiseOp::BlockwiseOp(OpPtr core, GufuncSignature signature, std::optional<std::string> name)
    : Op(OpKind::Blockwise), m_core(std::move(core)), m_sig(std::move(signature)), m_name(std::move(name)) {
    if (!m_core) throw std::invalid_argument("Blockwise needs a core op");
    if (m_core->kind() == OpKind::Blockwise) throw std::invalid_argument("Blockwise: the core op is already a Blockwise");
}

std::string BlockwiseOp::name() const {
    if (m_name) return *m_name;
    return "Blockwise{" + m_core->name() + ", " + m_sig.text + "}";
}

int BlockwiseOp::batchNdim(std::span<const Type* const> in) const {
    int b = 0;
    for (size_t i = 0; i < in.size() && i < m_sig.inputs.size(); ++i)
        b = std::max(b, in[i]->ndim() - static_cast<int>(m_sig.inputs[i].size()));
    return b;
}

std::vector<Type> BlockwiseOp::inferTypes(std::span<const Type* const> in) const { return infer(in, {}); }

std::vector<Type> BlockwiseOp::inferTypesWithConstants(std::span<const Type* const> in,
                                                       std::span<const NDArray* const> constants) const {
    return infer(in, constants);
}

std::vector<Type> BlockwiseOp::infer(std::span<const Type* const> in, std::span<const NDArray* const> constants) const {
    const std::string op = name();
    arrayop::requireArity(in, m_sig.inputs.size(), op);
    std::vector<Type> core;
    std::map<std::string, std::pair<int64_t, size_t>> known;  // dim name -> (size, input)
    for (size_t i = 0; i < in.size(); ++i) {
        arrayop::requireTensor(*in[i], op + " input " + std::to_string(i));
        const int nc = static_cast<int>(m_sig.inputs[i].size());
        if (in[i]->ndim() < nc)
            throw OpTypeError(op + ": input " + std::to_string(i) + " " + in[i]->toString() +
                              " has fewer dims than its core signature " + dimsText(m_sig.inputs[i]));
        StaticShape cs(in[i]->shape.end() - nc, in[i]->shape.end());
        for (int d = 0; d < nc; ++d) {
            if (cs[d] == kUnknownDim) continue;
            auto [it, fresh] = known.emplace(m_sig.inputs[i][d], std::make_pair(cs[d], i));
            if (!fresh && it->second.first != cs[d])
                throw OpTypeError(op + ": core dim " + m_sig.inputs[i][d] + " is " + std::to_string(it->second.first) +
                                  " in input " + std::to_string(it->second.second) + " but " + std::to_string(cs[d]) +
                                  " in input " + std::to_string(i));
        }
        core.push_back(Type::tensor(in[i]->dtype, std::move(cs)));
    }
    // The core op's own types on the core dims (its constants only when nothing is batched).
    std::vector<const Type*> corePtrs;
    for (const Type& t : core) corePtrs.push_back(&t);
    const int b = batchNdim(in);
    std::vector<Type> coreOut;
    try {
        coreOut = b == 0 && !constants.empty() ? m_core->inferTypesWithConstants(corePtrs, constants)
                                                : m_core->inferTypes(corePtrs);
    } catch (const OpTypeError& e) {
        throw OpTypeError(op + ": " + e.what());
    }
    if (coreOut.size() != m_sig.outputs.size())
        throw OpTypeError(op + ": the core op has " + std::to_string(coreOut.size()) + " outputs, the signature " +
                          std::to_string(m_sig.outputs.size()));
    for (size_t k = 0; k < coreOut.size(); ++k)
        if (coreOut[k].ndim() != static_cast<int>(m_sig.outputs[k].size()))
            throw OpTypeError(op + ": core output " + std::to_string(k) + " " + coreOut[k].toString() +
                              " does not have the signature's dims " + dimsText(m_sig.outputs[k]));
    StaticShape batch;
    for (int d = 0; d < b; ++d) {
        std::vector<int64_t> dims;
        for (size_t i = 0; i < in.size(); ++i) {
            const int pad = b - (in[i]->ndim() - static_cast<int>(m_sig.inputs[i].size()));
            dims.push_back(d < pad ? 1 : in[i]->shape[d - pad]);
        }
        std::string shapes;
        for (const Type* t : in) shapes += (shapes.empty() ? "" : ", ") + t->toString();
        batch.push_back(broadcastStatic(dims, op + ": incompatible batch shapes of " + shapes));
    }
    std::vector<Type> out;
    for (const Type& c : coreOut) {
        StaticShape s = batch;
        s.insert(s.end(), c.shape.begin(), c.shape.end());
        out.push_back(Type::tensor(c.dtype, std::move(s)));
    }
    return out;
}

void BlockwiseOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    performWith(in, out, [](const Op& core, std::span<const NDArray> i, std::span<NDArray> o) { core.perform(i, o); });
}

void BlockwiseOp::performWith(std::span<const NDArray> in, std::span<NDArray> out, const CoreRunner& runCore) const {
    const std::string op = name();
    if (in.size() != m_sig.inputs.size())
        throw ExecError(op + " takes " + std::to_string(m_sig.inputs.size()) + " inputs, got " + std::to_string(in.size()));
    int b = 0;
    for (size_t i = 0; i < in.size(); ++i) {
        const int nc = static_cast<int>(m_sig.inputs[i].size());
        if (in[i].ndim() < nc)
            throw ExecError(op + ": input " + std::to_string(i) + " of shape " + shapeToString(in[i].shape()) +
                            " has fewer dims than its core signature " + dimsText(m_sig.inputs[i]));
        b = std::max(b, in[i].ndim() - nc);
    }
    // The broadcast batch shape, and each input as a batch of core views.
    Shape batch(static_cast<size_t>(b), 1);
    std::vector<BatchedInput> bi(in.size());
    for (size_t i = 0; i < in.size(); ++i) {
        const int nc = static_cast<int>(m_sig.inputs[i].size()), nb = in[i].ndim() - nc, pad = b - nb;
        bi[i].coreShape.assign(in[i].shape().begin() + nb, in[i].shape().end());
        bi[i].coreStrides.assign(in[i].strides().begin() + nb, in[i].strides().end());
        for (int d = 0; d < nb; ++d) {
            int64_t& size = batch[static_cast<size_t>(pad + d)];
            const int64_t dim = in[i].dim(d);
            if (dim != 1 && size != 1 && dim != size)
                throw ExecError(op + ": the batch dims of the inputs do not broadcast: shapes " + shapesText(in));
            if (dim != 1) size = dim;
        }
    }
    int64_t total = 1;
    for (int64_t d : batch) total *= d;
    for (size_t i = 0; i < in.size(); ++i) {
        const int nb = in[i].ndim() - static_cast<int>(m_sig.inputs[i].size()), pad = b - nb;
        bi[i].batchStrides.assign(static_cast<size_t>(b), 0);
        for (int d = 0; d < nb; ++d)
            if (in[i].dim(d) != 1) bi[i].batchStrides[static_cast<size_t>(pad + d)] = in[i].strides()[d];
    }
    std::vector<NDArray> coreIn;
    for (size_t i = 0; i < in.size(); ++i) coreIn.push_back(in[i].view(bi[i].coreShape, bi[i].coreStrides, in[i].offset()));

    std::vector<int64_t> idx(static_cast<size_t>(b), 0);
    // Moves every view to the next batch element (odometer over the batch shape).
    auto advance = [&](std::vector<NDArray>& ins, std::vector<NDArray>& outs, const std::vector<Strides>& outStrides) {
        for (int d = b - 1; d >= 0; --d) {
            const size_t du = static_cast<size_t>(d);
            if (++idx[du] < batch[du]) {
                for (size_t i = 0; i < ins.size(); ++i) ins[i].setOffset(ins[i].offset() + bi[i].batchStrides[du]);
                for (size_t k = 0; k < outs.size(); ++k) outs[k].setOffset(outs[k].offset() + outStrides[k][du]);
                return;
            }
            for (size_t i = 0; i < ins.size(); ++i)
                ins[i].setOffset(ins[i].offset() - bi[i].batchStrides[du] * (batch[du] - 1));
            for (size_t k = 0; k < outs.size(); ++k) outs[k].setOffset(outs[k].offset() - outStrides[k][du] * (batch[du] - 1));
            idx[du] = 0;
        }
    };
    auto rethrow = [&](const std::exception& e) -> ExecError {
        if (b == 0) return ExecError(e.what());
        return ExecError(op + ": batch element " + indexText(idx) + ": " + e.what());
    };
    const size_t nout = m_sig.outputs.size();
    std::vector<Strides> outBatchStrides(nout);
    std::vector<NDArray> coreOut(nout);

    if (const auto* kernel = dynamic_cast<const SliceKernel*>(m_core.get())) {
        std::vector<Shape> shapes;
        std::vector<DType> dtypes;
        kernel->sliceOutputs(coreIn, shapes, dtypes);
        const AliasMap destroys = m_core->destroyMap();
        for (size_t k = 0; k < nout; ++k) {
            Shape full = batch;
            full.insert(full.end(), shapes[k].begin(), shapes[k].end());
            bool placed = false;
            if (auto it = destroys.find(static_cast<int>(k)); it != destroys.end() && !it->second.empty()) {
                const NDArray& victim = in[static_cast<size_t>(it->second.front())];
                if (victim.dtype() == dtypes[k] && victim.shape() == full && victim.isContiguous()) {
                    out[k] = victim;  // the destroyed input's memory, as the core op would
                    placed = true;
                }
            }
            if (!placed) out[k] = arrayop::reuseOrEmpty(out[k], dtypes[k], full);
            const Strides& st = out[k].strides();
            outBatchStrides[k].assign(st.begin(), st.begin() + b);
            coreOut[k] = out[k].view(shapes[k], Strides(st.begin() + b, st.end()), out[k].offset());
        }
        linalg::Workspace ws;
        for (int64_t n = 0; n < total; ++n) {
            try {
                kernel->computeSlice(coreIn, coreOut, ws);
            } catch (const ExecError& e) {
                throw rethrow(e);
            }
            advance(coreIn, coreOut, outBatchStrides);
        }
        return;
    }

    // Any other core op: run its kernel per element and copy each result into its slice.
    if (total == 0)
        throw ExecError(op + ": a batch of size zero, and " + m_core->name() +
                        " cannot tell its output shapes without running (as PyTensor's Blockwise, which refuses it)");
    std::vector<NDArray> results(nout), slices(nout);
    std::vector<Shape> firstShapes(nout);
    for (int64_t n = 0; n < total; ++n) {
        try {
            runCore(*m_core, coreIn, results);
        } catch (const ExecError& e) {
            throw rethrow(e);
        }
        for (size_t k = 0; k < nout; ++k) {
            if (n == 0) {
                firstShapes[k] = results[k].shape();
                Shape full = batch;
                full.insert(full.end(), firstShapes[k].begin(), firstShapes[k].end());
                out[k] = NDArray::empty(results[k].dtype(), full);
                const Strides& st = out[k].strides();
                outBatchStrides[k].assign(st.begin(), st.begin() + b);
                slices[k] = out[k].view(firstShapes[k], Strides(st.begin() + b, st.end()), 0);
            } else if (results[k].shape() != firstShapes[k]) {
                throw ExecError(op + ": batch element " + indexText(idx) + " gives output " + std::to_string(k) +
                                " of shape " + shapeToString(results[k].shape()) + ", the first element " +
                                shapeToString(firstShapes[k]));
            }
            slices[k].assign(results[k]);
        }
        advance(coreIn, slices, outBatchStrides);
    }
}

nlohmann::json BlockwiseOp::params() const {
    return {{"core_op", {{"kind", std::string(opKindName(m_core->kind()))}, {"params", m_core->params()}}},
            {"signature", m_sig.text},
            {"name", m_name ? nlohmann::json(*m_name) : nlohmann::json(nullptr)}};
}

OpPtr makeBlockwise(OpPtr core, const std::string& signature, std::optional<std::string> name) {
    return std::make_shared<BlockwiseOp>(std::move(core), GufuncSignature::parse(signature), std::move(name));
}

OpPtr makeMatmul() {
    static const OpPtr op = makeBlockwise(makeDot(), "(m,n),(n,p)->(m,p)", "Matmul");
    return op;
}

OpPtr makeOpBlockwise(const nlohmann::json& params, std::shared_ptr<const Graph> inner) {
    const std::string op = "Blockwise";
    const auto& core = arrayop::requireParam(params, "core_op", op);
    if (!core.is_object()) throw std::invalid_argument(op + " params: \"core_op\" must be an object {\"kind\", \"params\"}");
    const auto& kindName = arrayop::requireParam(core, "kind", op + " core_op");
    if (!kindName.is_string()) throw std::invalid_argument(op + " params: /core_op/kind must be a string");
    auto kind = parseOpKind(kindName.get<std::string>());
    if (!kind) throw std::invalid_argument(op + " params: /core_op/kind: unknown op kind \"" + kindName.get<std::string>() + "\"");
    OpPtr coreOp;
    try {
        coreOp = makeOp(*kind, core.contains("params") ? core["params"] : nlohmann::json::object(), std::move(inner));
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(op + " params: /core_op: " + e.what());
    }
    const auto& sig = arrayop::requireParam(params, "signature", op);
    if (!sig.is_string()) throw std::invalid_argument(op + " params: \"signature\" must be a string");
    std::optional<std::string> name;
    if (auto it = params.find("name"); it != params.end() && !it->is_null()) {
        if (!it->is_string()) throw std::invalid_argument(op + " params: \"name\" must be a string or null");
        name = it->get<std::string>();
    }
    OpPtr result = makeBlockwise(std::move(coreOp), sig.get<std::string>(), std::move(name));
    PropReader(params, op).check(*result);
    return result;
}

} // namespace tl
