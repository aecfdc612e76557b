// ScanOp: construction checks, printed name, type inference, params and JSON.
// The loop itself is in exec/ScanLoop.cpp, the forward derivative in builder/rop/ScanRop.cpp.
#include "ops/ScanOp.h"

#include "ir/Graph.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace tl {

namespace {

bool isIntScalar(const Type& t) {
    return t.holdsNumbers() && (t.isScalarType() || t.ndim() == 0) && isInteger(t.dtype);
}

std::string pyList(const std::vector<int>& v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
}

// The outer type of a trace whose rows have type `row`: (?, *row.shape).
Type traceType(const Type& row) {
    StaticShape s{kUnknownDim};
    s.insert(s.end(), row.shape.begin(), row.shape.end());
    return Type::tensor(row.dtype, std::move(s));
}

// Outer `outer` holds rows of inner type `inner` (dtype, rank + 1, known dims agree).
void requireRows(const Type& outer, const Type& inner, const std::string& what) {
    if (outer.isScalarType() || outer.dtype != inner.dtype || outer.ndim() != inner.ndim() + 1)
        throw OpTypeError(what + " must be a " + std::to_string(inner.ndim() + 1) + "-d " +
                          std::string(dtypeName(inner.dtype)) + " tensor whose rows are " + inner.toString() +
                          ", got " + outer.toString());
    for (int d = 0; d < inner.ndim(); ++d)
        if (inner.shape[d] != kUnknownDim && outer.shape[d + 1] != kUnknownDim && inner.shape[d] != outer.shape[d + 1])
            throw OpTypeError(what + " has rows of shape " + Type::shapeString({outer.shape.begin() + 1, outer.shape.end()}) +
                              " but the step expects " + inner.toString());
}

} // namespace

ScanOp::ScanOp(ScanInfo info, std::shared_ptr<const Graph> inner, std::string scanName, std::vector<int> inplaceStates,
               std::vector<bool> reuseProvenSafe)
    : Op(OpKind::Scan), m_info(std::move(info)), m_inner(std::move(inner)), m_scanName(std::move(scanName)),
      m_inplace(std::move(inplaceStates)), m_reuseProvenSafe(std::move(reuseProvenSafe)) {
    const std::string where = "Scan " + m_scanName + ": ";
    auto problems = m_info.validate();
    if (!problems.empty()) throw std::invalid_argument(where + problems.front());
    if (!m_inner) throw std::invalid_argument(where + "no inner graph");
    const ScanInfo& I = m_info;
    if (static_cast<int>(m_inner->inputs().size()) != I.numInnerInputs())
        throw std::invalid_argument(where + "the inner graph has " + std::to_string(m_inner->inputs().size()) +
                                    " inputs, the layout needs " + std::to_string(I.numInnerInputs()));
    if (static_cast<int>(m_inner->outputs().size()) != I.numInnerOutputs())
        throw std::invalid_argument(where + "the inner graph has " + std::to_string(m_inner->outputs().size()) +
                                    " outputs, the layout needs " + std::to_string(I.numInnerOutputs()));
    std::sort(m_inplace.begin(), m_inplace.end());
    m_inplace.erase(std::unique(m_inplace.begin(), m_inplace.end()), m_inplace.end());
    for (int s : m_inplace)
        if (s < 0 || s >= I.nTracedStates())
            throw std::invalid_argument(where + "inplace state " + std::to_string(s) + " is not a traced state");
    if (static_cast<int>(m_reuseProvenSafe.size()) > I.nTracedStates())
        throw std::invalid_argument(where + "more reuse_proven_safe flags than traced states");
    m_reuseProvenSafe.resize(I.nTracedStates(), false);
    for (int k = 0; k < I.nMitMot(); ++k)
        if (I.mitMotInTaps[k].empty() || I.mitMotOutTaps[k].empty())
            throw std::invalid_argument(where + "mit_mot-" + std::to_string(k) + " needs input and output taps");

    // Every tap and every new value of a traced state has one element type and rank.
    const auto& ins = m_inner->inputs();
    const auto& outs = m_inner->outputs();
    for (int s = 0; s < I.nTracedStates(); ++s) {
        const Type& first = ins[I.innerInTap(s, 0)]->type();
        const int nOut = s < I.nMitMot() ? static_cast<int>(I.mitMotOutTaps[s].size()) : 1;
        auto check = [&](const Type& t, const std::string& what) {
            if (t.isScalarType() || t.dtype != first.dtype || t.ndim() != first.ndim())
                throw std::invalid_argument(where + what + " of " + scanCategoryName(I.stateCategory(s)) + "-" +
                                            std::to_string(I.indexInCategory(s)) + " is " + t.toString() +
                                            ", its first tap is " + first.toString());
        };
        for (int k = 1; k < static_cast<int>(I.stateTaps(s).size()); ++k)
            check(ins[I.innerInTap(s, k)]->type(), "tap " + std::to_string(k));
        for (int k = 0; k < nOut; ++k) check(outs[I.innerOutState(s) + k]->type(), "the new value");
    }
    for (int k = 0; k < I.nNitSot; ++k)
        if (outs[I.innerOutNitSot() + k]->type().isScalarType())
            throw std::invalid_argument(where + "nit_sot-" + std::to_string(k) + " must be a tensor");
    for (int k = 0; k < I.nUntraced; ++k) {
        const Type& in = ins[I.innerInUntraced() + k]->type();
        const Type& out = outs[I.innerOutUntraced() + k]->type();
        if (in.kind != out.kind || in.dtype != out.dtype || in.ndim() != out.ndim())
            throw std::invalid_argument(where + "untraced state " + std::to_string(k) + " comes in as " + in.toString() +
                                        " but is updated to " + out.toString());
    }
    if (I.asWhile) {
        const Type& c = outs.back()->type();
        if (!c.isScalarType() && c.ndim() != 0)
            throw std::invalid_argument(where + "the until condition must be a scalar, got " + c.toString());
    }
}

bool ScanOp::isInplace(int state) const { return std::binary_search(m_inplace.begin(), m_inplace.end(), state); }

std::shared_ptr<const ScanOp> ScanOp::withInplace(std::vector<int> inplaceStates) const {
    return makeScan(m_info, m_inner, m_scanName, std::move(inplaceStates), m_reuseProvenSafe);
}

std::shared_ptr<const ScanOp> ScanOp::withReuseProvenSafe(std::vector<bool> flags) const {
    return makeScan(m_info, m_inner, m_scanName, m_inplace, std::move(flags));
}

std::string ScanOp::name() const {
    std::string inplace = "none";
    if (!m_inplace.empty())
        inplace = static_cast<int>(m_inplace.size()) == m_info.nTracedStates() ? "all" : pyList(m_inplace);
    return "Scan{" + m_scanName + ", while_loop=" + (m_info.asWhile ? "True" : "False") + ", inplace=" + inplace + "}";
}

std::vector<Type> ScanOp::inferTypes(std::span<const Type* const> in) const {
    const ScanInfo& I = m_info;
    if (static_cast<int>(in.size()) != I.numOuterInputs())
        throw OpTypeError(name() + " takes " + std::to_string(I.numOuterInputs()) + " inputs, got " +
                          std::to_string(in.size()));
    const auto& inner = m_inner->inputs();
    const auto& innerOut = m_inner->outputs();
    if (!isIntScalar(*in[0])) throw OpTypeError("n_steps must be a 0-d integer, got " + in[0]->toString());
    for (int k = 0; k < I.nSeqs; ++k)
        requireRows(*in[I.outerInSeqs() + k], inner[k]->type(), "sequence " + std::to_string(k));
    for (int s = 0; s < I.nTracedStates(); ++s)
        requireRows(*in[I.outerInMitMot() + s], inner[I.innerInTap(s, 0)]->type(),
                    std::string("outer_in_") + scanCategoryName(I.stateCategory(s)) + "-" +
                        std::to_string(I.indexInCategory(s)));
    for (int k = 0; k < I.nUntraced; ++k) {
        const Type& o = *in[I.outerInUntraced() + k];
        const Type& t = inner[I.innerInUntraced() + k]->type();
        if (o.kind != t.kind || !t.accepts(o))
            throw OpTypeError("untraced state " + std::to_string(k) + " must be " + t.toString() + ", got " + o.toString());
    }
    for (int k = 0; k < I.nNitSot; ++k)
        if (!isIntScalar(*in[I.outerInNitSot() + k]))
            throw OpTypeError("nit_sot-" + std::to_string(k) + " rows must be a 0-d integer, got " +
                              in[I.outerInNitSot() + k]->toString());
    for (int k = 0; k < I.nNonSeqs; ++k) {
        const Type& o = *in[I.outerInNonSeqs() + k];
        const Type& t = inner[I.innerInNonSeqs() + k]->type();
        if (o.kind != t.kind || o.dtype != t.dtype || o.ndim() != t.ndim())
            throw OpTypeError("non_sequence " + std::to_string(k) + " must be " + t.toString() + ", got " + o.toString());
    }
    std::vector<Type> out;
    for (int s = 0; s < I.nTracedStates(); ++s) out.push_back(traceType(innerOut[I.innerOutState(s)]->type()));
    for (int k = 0; k < I.nNitSot; ++k) out.push_back(traceType(innerOut[I.innerOutNitSot() + k]->type()));
    for (int k = 0; k < I.nUntraced; ++k) out.push_back(innerOut[I.innerOutUntraced() + k]->type());
    return out;
}

AliasMap ScanOp::destroyMap() const {
    AliasMap m;
    for (int s : m_inplace) m[s] = {m_info.outerInMitMot() + s};
    return m;
}

nlohmann::json scanInfoToJson(const ScanInfo& I) {
    return {{"n_seqs", I.nSeqs},           {"mit_mot_in_taps", I.mitMotInTaps}, {"mit_mot_out_taps", I.mitMotOutTaps},
            {"mit_sot_taps", I.mitSotTaps}, {"n_sit_sot", I.nSitSot},            {"n_nit_sot", I.nNitSot},
            {"n_untraced", I.nUntraced},   {"n_non_seqs", I.nNonSeqs},          {"as_while", I.asWhile}};
}

ScanInfo scanInfoFromJson(const nlohmann::json& j) {
    if (!j.is_object()) throw std::invalid_argument("Scan info must be an object");
    auto need = [&](const char* key) -> const nlohmann::json& {
        if (!j.contains(key)) throw std::invalid_argument(std::string("Scan info: missing \"") + key + "\"");
        return j.at(key);
    };
    auto count = [&](const char* key) {
        const auto& v = need(key);
        if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() > (1 << 20))
            throw std::invalid_argument(std::string("Scan info: \"") + key + "\" must be a count, got " + v.dump());
        return v.get<int>();
    };
    auto tapLists = [&](const char* key) {
        const auto& v = need(key);
        std::vector<std::vector<int>> out;
        if (!v.is_array()) throw std::invalid_argument(std::string("Scan info: \"") + key + "\" must be a list of tap lists");
        for (size_t i = 0; i < v.size(); ++i) {
            if (!v[i].is_array())
                throw std::invalid_argument(std::string("Scan info: \"") + key + "\"/" + std::to_string(i) + " must be a list");
            std::vector<int> taps;
            for (size_t k = 0; k < v[i].size(); ++k) {
                if (!v[i][k].is_number_integer())
                    throw std::invalid_argument(std::string("Scan info: \"") + key + "\"/" + std::to_string(i) + "/" +
                                                std::to_string(k) + " must be an integer");
                taps.push_back(v[i][k].get<int>());
            }
            out.push_back(std::move(taps));
        }
        return out;
    };
    ScanInfo I;
    I.nSeqs = count("n_seqs");
    I.mitMotInTaps = tapLists("mit_mot_in_taps");
    I.mitMotOutTaps = tapLists("mit_mot_out_taps");
    I.mitSotTaps = tapLists("mit_sot_taps");
    I.nSitSot = count("n_sit_sot");
    I.nNitSot = count("n_nit_sot");
    I.nUntraced = count("n_untraced");
    I.nNonSeqs = count("n_non_seqs");
    const auto& w = need("as_while");
    if (!w.is_boolean()) throw std::invalid_argument("Scan info: \"as_while\" must be true or false");
    I.asWhile = w.get<bool>();
    return I;
}

nlohmann::json ScanOp::params() const {
    return {{"name", m_scanName},
            {"info", scanInfoToJson(m_info)},
            {"inplace", m_inplace},
            {"reuse_proven_safe", m_reuseProvenSafe}};
}

std::shared_ptr<const ScanOp> makeScan(ScanInfo info, std::shared_ptr<const Graph> inner, std::string scanName,
                                       std::vector<int> inplaceStates, std::vector<bool> reuseProvenSafe) {
    return std::make_shared<ScanOp>(std::move(info), std::move(inner), std::move(scanName), std::move(inplaceStates),
                                    std::move(reuseProvenSafe));
}

OpPtr makeOpScan(const nlohmann::json& params, std::shared_ptr<const Graph> inner) {
    if (!params.is_object()) throw std::invalid_argument("Scan params must be an object");
    if (!params.contains("name") || !params["name"].is_string())
        throw std::invalid_argument("Scan params: \"name\" must be a string");
    if (!params.contains("info")) throw std::invalid_argument("Scan params: missing \"info\"");
    ScanInfo info = scanInfoFromJson(params["info"]);
    std::vector<int> inplace;
    if (params.contains("inplace")) {
        const auto& v = params["inplace"];
        if (!v.is_array()) throw std::invalid_argument("Scan params: \"inplace\" must be a list of states");
        for (size_t i = 0; i < v.size(); ++i) {
            if (!v[i].is_number_integer())
                throw std::invalid_argument("Scan params: \"inplace\"/" + std::to_string(i) + " must be an integer");
            inplace.push_back(v[i].get<int>());
        }
    }
    std::vector<bool> reuse;
    if (params.contains("reuse_proven_safe")) {
        const auto& v = params["reuse_proven_safe"];
        if (!v.is_array()) throw std::invalid_argument("Scan params: \"reuse_proven_safe\" must be a list of booleans");
        for (size_t i = 0; i < v.size(); ++i) {
            if (!v[i].is_boolean())
                throw std::invalid_argument("Scan params: \"reuse_proven_safe\"/" + std::to_string(i) + " must be a boolean");
            reuse.push_back(v[i].get<bool>());
        }
    }
    return makeScan(std::move(info), std::move(inner), params["name"].get<std::string>(), std::move(inplace),
                    std::move(reuse));
}

} // namespace tl
