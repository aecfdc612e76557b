#include "ops/Reduce.h"

#include "ir/Graph.h"
#include "ops/ArrayOpUtil.h"
#include "ops/ReduceFold.h"
#include "ops/ReduceKernel.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

namespace tl {

namespace {

constexpr const char* kKindNames[] = {"Sum", "Max", "Prod", "Min", "All", "Any", "ProdWithoutZeros", "CAReduce"};

// The scalar op each fixed class folds.
ScalarOpCode fixedCode(ReduceKind k) {
    switch (k) {
    case ReduceKind::Sum: return ScalarOpCode::Add;
    case ReduceKind::Max: return ScalarOpCode::Maximum;
    case ReduceKind::Prod: return ScalarOpCode::Mul;
    case ReduceKind::Min: return ScalarOpCode::Minimum;
    case ReduceKind::All: return ScalarOpCode::And;
    case ReduceKind::Any: return ScalarOpCode::Or;
    case ReduceKind::ProdWithoutZeros: return ScalarOpCode::MulWithoutZeros;
    case ReduceKind::CAReduce: break;
    }
    return ScalarOpCode::Add;
}

// PyTensor's CAReduce._acc_dtype default: signed ints and bool at least int64,
// unsigned ones at least uint64, float32 in float64.
DType defaultAccDType(DType in) {
    switch (in) {
    case DType::Bool:
    case DType::Int8:
    case DType::Int16:
    case DType::Int32: return DType::Int64;
    case DType::UInt8:
    case DType::UInt16:
    case DType::UInt32: return DType::UInt64;
    case DType::Float32: return DType::Float64;
    default: return in;
    }
}

std::optional<DType> dtypeParam(const nlohmann::json& p, const char* key) {
    if (!p.contains(key) || p[key].is_null()) return std::nullopt;
    if (!p[key].is_string()) throw std::invalid_argument(std::string("Reduce params: /") + key + " must be a dtype name or null");
    auto d = parseDType(p[key].get<std::string>());
    if (!d) throw std::invalid_argument(std::string("Reduce params: /") + key + ": unknown dtype '" + p[key].get<std::string>() + "'");
    return d;
}

} // namespace

const char* reduceKindName(ReduceKind k) { return kKindNames[static_cast<int>(k)]; }

std::optional<ReduceKind> parseReduceKind(std::string_view name) {
    for (int i = 0; i < static_cast<int>(std::size(kKindNames)); ++i)
        if (name == kKindNames[i]) return static_cast<ReduceKind>(i);
    return std::nullopt;
}

DType reduceOutputDType(ReduceKind kind, DType in) {
    switch (kind) {
    case ReduceKind::All:
    case ReduceKind::Any: return DType::Bool;
    case ReduceKind::Sum:
    case ReduceKind::Prod:
    case ReduceKind::ProdWithoutZeros:  // upcast_discrete_output
        switch (in) {
        case DType::Bool:
        case DType::Int8:
        case DType::Int16:
        case DType::Int32: return DType::Int64;
        case DType::UInt8:
        case DType::UInt16:
        case DType::UInt32: return DType::UInt64;
        default: return in;
        }
    default: return in;
    }
}

ReduceOp::ReduceOp(ReduceKind kind, std::optional<std::vector<int>> axes, ReduceParams params)
    : Op(OpKind::Reduce), m_kind(kind), m_code(fixedCode(kind)), m_axes(std::move(axes)), m_params(params),
      m_plans(std::make_shared<ReducePlanCache>()) {
    if (kind == ReduceKind::CAReduce) throw std::invalid_argument("CAReduce needs its scalar op or Composite");
    if (kind != ReduceKind::Prod && m_params.noZerosInInput)
        throw std::invalid_argument(std::string(reduceKindName(kind)) + " has no no_zeros_in_input (only Prod has)");
}

ReduceOp::ReduceOp(ScalarOpCode code, std::optional<std::vector<int>> axes, ReduceParams params)
    : Op(OpKind::Reduce), m_kind(ReduceKind::CAReduce), m_code(code), m_axes(std::move(axes)), m_params(params),
      m_plans(std::make_shared<ReducePlanCache>()) {
    if (!reduceFoldable(code))
        throw std::invalid_argument("CAReduce{" + scalarOpName(code) +
                                    "}: a reduction folds a commutative, associative binary scalar op "
                                    "(add, mul, maximum, minimum, and, or, xor, mul_without_zeros)");
    m_params.noZerosInInput = false;
}

ReduceOp::ReduceOp(CompositePtr composite, std::optional<std::vector<int>> axes, ReduceParams params)
    : Op(OpKind::Reduce), m_kind(ReduceKind::CAReduce), m_composite(std::move(composite)), m_axes(std::move(axes)),
      m_params(params), m_plans(std::make_shared<ReducePlanCache>()) {
    if (!m_composite) throw std::invalid_argument("CAReduce: null Composite");
    if (m_composite->numInputs() < 2 || m_composite->numOutputs() != 1)
        throw std::invalid_argument("CAReduce{" + m_composite->name() + "}: the Composite needs an accumulator input "
                                    "and at least one element input, and one output");
    if (m_composite->outputDType(0) != m_composite->inputDType(0))
        throw std::invalid_argument("CAReduce{" + m_composite->name() + "}: its output (" +
                                    std::string(dtypeName(m_composite->outputDType(0))) +
                                    ") must have the accumulator's dtype (" +
                                    std::string(dtypeName(m_composite->inputDType(0))) + ")");
    m_params.noZerosInInput = false;
}

int ReduceOp::numInputs() const { return m_composite ? m_composite->numInputs() - 1 : 1; }

std::vector<int> ReduceOp::reducedAxes(int ndim) const {
    std::vector<int> out;
    if (!m_axes) {
        for (int i = 0; i < ndim; ++i) out.push_back(i);
        return out;
    }
    // As NumPy's normalize_axis_tuple: a 0-d input accepts axis 0 / -1.
    const int limit = std::max(1, ndim);
    for (int a : *m_axes) {
        if (a < -limit || a >= limit)
            throw OpTypeError(name() + ": axis " + std::to_string(a) + " is out of bounds for a " + std::to_string(ndim) +
                              "-d input");
        const int n = a < 0 ? a + limit : a;
        if (std::find(out.begin(), out.end(), n) != out.end())
            throw OpTypeError(name() + ": axis " + std::to_string(a) + " is repeated");
        if (n < ndim) out.push_back(n);
    }
    return out;
}

DType ReduceOp::accumulatorDType(std::span<const DType> inputs) const {
    if (m_composite) return m_composite->inputDType(0);
    const DType in = inputs.empty() ? DType::Float64 : inputs[0];
    // All and Any fold x != 0 (PyTensor's make_node casts to bool first).
    if (m_kind == ReduceKind::All || m_kind == ReduceKind::Any) return DType::Bool;
    if (!m_params.accDType) return defaultAccDType(in);
    const DType acc = *m_params.accDType;
    // PyTensor: a float accumulator for integer input is fine; otherwise it must be an upcast.
    if (isFloat(acc) && !isFloat(in)) return acc;
    if (promote(in, acc) != acc)
        throw OpTypeError("Cannot build " + name() + " node with input dtype " + std::string(dtypeName(in)) +
                          " and acc_dtype " + std::string(dtypeName(acc)) + ", as precision would be lost");
    return acc;
}

DType ReduceOp::outputDType(std::span<const DType> inputs) const {
    if (m_params.dtype) return *m_params.dtype;
    if (m_composite) return m_composite->outputDType(0);
    return reduceOutputDType(m_kind, inputs.empty() ? DType::Float64 : inputs[0]);
}

OpPtr ReduceOp::withAxes(std::optional<std::vector<int>> axes) const {
    if (m_composite) return std::make_shared<ReduceOp>(m_composite, std::move(axes), m_params);
    if (m_kind == ReduceKind::CAReduce) return std::make_shared<ReduceOp>(m_code, std::move(axes), m_params);
    return std::make_shared<ReduceOp>(m_kind, std::move(axes), m_params);
}

std::string ReduceOp::name() const {
    // CAReduce._axis_str: axes=None, axis=k, axes=[i, j].
    std::string axes;
    if (!m_axes) axes = "axes=None";
    else if (m_axes->size() == 1) axes = "axis=" + std::to_string((*m_axes)[0]);
    else {
        axes = "axes=[";
        for (size_t i = 0; i < m_axes->size(); ++i) axes += (i ? ", " : "") + std::to_string((*m_axes)[i]);
        axes += "]";
    }
    if (m_kind == ReduceKind::CAReduce)
        return "CAReduce{" + (m_composite ? m_composite->name() : scalarOpName(m_code)) + ", " + axes + "}";
    // Prod.__str__ with no_zeros_in_input appends ", no_zeros_in_input})" (sic: PyTensor's text).
    if (m_params.noZerosInInput) return std::string(reduceKindName(m_kind)) + "{" + axes + ", no_zeros_in_input})";
    return std::string(reduceKindName(m_kind)) + "{" + axes + "}";
}

std::vector<Type> ReduceOp::inferTypes(std::span<const Type* const> in) const {
    arrayop::requireArity(in, static_cast<size_t>(numInputs()), name());
    std::vector<DType> dtypes;
    for (size_t i = 0; i < in.size(); ++i) {
        arrayop::requireTensor(*in[i], name() + " input " + std::to_string(i));
        if (in[i]->ndim() != in[0]->ndim())
            throw OpTypeError(name() + ": inputs have different ranks (input 0: " + std::to_string(in[0]->ndim()) +
                              ", input " + std::to_string(i) + ": " + std::to_string(in[i]->ndim()) + ")");
        if (m_composite && in[i]->dtype != m_composite->inputDType(static_cast<int>(i) + 1))
            throw OpTypeError(name() + ": input " + std::to_string(i) + " has dtype " + std::string(dtypeName(in[i]->dtype)) +
                              " but the Composite takes " +
                              std::string(dtypeName(m_composite->inputDType(static_cast<int>(i) + 1))));
        dtypes.push_back(in[i]->dtype);
    }
    const int nd = in[0]->ndim();
    const std::vector<int> axes = reducedAxes(nd);
    accumulatorDType(dtypes);  // refuses an acc_dtype that loses precision
    StaticShape out;
    for (int d = 0; d < nd; ++d) {
        if (std::find(axes.begin(), axes.end(), d) != axes.end()) continue;
        // Several inputs broadcast as Elemwise's do (a static 1 stretches).
        std::set<int64_t> lens;
        for (const Type* t : in) lens.insert(t->shape[d]);
        lens.erase(1);
        if (lens.size() > 1) lens.erase(kUnknownDim);
        if (lens.size() > 1)
            throw OpTypeError(name() + ": input shapes do not broadcast in dim " + std::to_string(d));
        out.push_back(lens.empty() ? 1 : *lens.begin());
    }
    return {Type::tensor(outputDType(dtypes), std::move(out))};
}

void ReduceOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    DType small[8];
    std::vector<DType> many;
    std::span<const DType> key;
    if (in.size() <= std::size(small)) {
        for (size_t i = 0; i < in.size(); ++i) small[i] = in[i].dtype();
        key = std::span<const DType>(small, in.size());
    } else {
        for (const NDArray& a : in) many.push_back(a.dtype());
        key = many;
    }
    std::vector<int> axes;
    try {
        axes = reducedAxes(in.empty() ? 0 : in[0].ndim());
    } catch (const OpTypeError& e) {
        throw ExecError(e.what());
    }
    runReduction(m_plans->get(*this, key), in, axes, out[0]);
}

nlohmann::json ReduceOp::params() const {
    nlohmann::json j = {{"op", reduceKindName(m_kind)},
                        {"axes", m_axes ? nlohmann::json(*m_axes) : nlohmann::json(nullptr)}};
    if (m_kind == ReduceKind::CAReduce) j["scalar_op"] = m_composite ? std::string("composite") : std::string(scalarOpInfo(m_code).key);
    if (m_params.dtype) j["dtype"] = std::string(dtypeName(*m_params.dtype));
    if (m_params.accDType) j["acc_dtype"] = std::string(dtypeName(*m_params.accDType));
    if (m_params.noZerosInInput) j["no_zeros_in_input"] = true;
    return j;
}

std::shared_ptr<const Graph> ReduceOp::innerGraph() const { return m_composite ? m_composite->graph() : nullptr; }

bool ReduceOp::equals(const Op& other) const {
    if (this == &other) return true;
    const auto* r = dynamic_cast<const ReduceOp*>(&other);
    if (!r || r->m_kind != m_kind || r->m_axes != m_axes || r->m_params.dtype != m_params.dtype ||
        r->m_params.accDType != m_params.accDType || r->m_params.noZerosInInput != m_params.noZerosInInput)
        return false;
    if (m_composite || r->m_composite)
        return m_composite && r->m_composite &&
               (m_composite == r->m_composite || m_composite->signature() == r->m_composite->signature());
    return m_code == r->m_code;
}

size_t ReduceOp::hash() const {
    size_t h = std::hash<std::string>{}(m_composite ? m_composite->signature() : name());
    h = h * 31 + (m_params.dtype ? static_cast<size_t>(*m_params.dtype) + 1 : 0);
    h = h * 31 + (m_params.accDType ? static_cast<size_t>(*m_params.accDType) + 1 : 0);
    return h * 31 + static_cast<size_t>(kind());
}

OpPtr makeReduce(ReduceKind kind, std::optional<std::vector<int>> axes, ReduceParams params) {
    return std::make_shared<ReduceOp>(kind, std::move(axes), params);
}
OpPtr makeCAReduce(ScalarOpCode code, std::optional<std::vector<int>> axes, ReduceParams params) {
    return std::make_shared<ReduceOp>(code, std::move(axes), params);
}
OpPtr makeCAReduce(CompositePtr composite, std::optional<std::vector<int>> axes, ReduceParams params) {
    return std::make_shared<ReduceOp>(std::move(composite), std::move(axes), params);
}

OpPtr makeOpReduce(const nlohmann::json& params, std::shared_ptr<const Graph> inner) {
    const auto& op = arrayop::requireParam(params, "op", "Reduce");
    auto kind = op.is_string() ? parseReduceKind(op.get<std::string>()) : std::nullopt;
    if (!kind)
        throw std::invalid_argument("Reduce params: \"op\" must be one of Sum, Max, Prod, Min, All, Any, "
                                    "ProdWithoutZeros, CAReduce; got " + op.dump());
    const auto& axesJson = arrayop::requireParam(params, "axes", "Reduce");
    std::optional<std::vector<int>> axes;
    if (!axesJson.is_null()) axes = arrayop::intListParam(params, "axes", "Reduce");
    ReduceParams p;
    p.dtype = dtypeParam(params, "dtype");
    p.accDType = dtypeParam(params, "acc_dtype");
    if (params.contains("no_zeros_in_input")) {
        if (!params["no_zeros_in_input"].is_boolean())
            throw std::invalid_argument("Reduce params: /no_zeros_in_input must be true or false");
        p.noZerosInInput = params["no_zeros_in_input"].get<bool>();
    }
    if (*kind != ReduceKind::CAReduce) {
        if (inner) throw std::invalid_argument("Reduce params: only a CAReduce of a Composite has an inner graph");
        return makeReduce(*kind, std::move(axes), p);
    }
    const auto& sop = arrayop::requireParam(params, "scalar_op", "Reduce");
    if (!sop.is_string()) throw std::invalid_argument("Reduce params: /scalar_op must name a scalar op or be \"composite\"");
    if (sop == "composite") {
        if (!inner) throw std::invalid_argument("Reduce params: a CAReduce of a Composite needs its inner scalar graph");
        return makeCAReduce(std::make_shared<const Composite>(*inner), std::move(axes), p);
    }
    if (inner) throw std::invalid_argument("Reduce params: only a CAReduce of a Composite has an inner graph");
    auto code = parseScalarOp(sop.get<std::string>());
    if (!code) throw std::invalid_argument("Reduce params: /scalar_op: unknown scalar op '" + sop.get<std::string>() + "'");
    return makeCAReduce(*code, std::move(axes), p);
}

} // namespace tl
