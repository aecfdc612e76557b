#include "ops/Elemwise.h"

#include "ir/Graph.h"
#include "ops/ElemwiseLoop.h"
#include "ops/InternedScalarOps.h"
#include "ops/ScalarOp.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>
#include <set>

namespace tl {

Elemwise::Elemwise(ScalarOpCode code, DType castTo, InplacePattern inplace)
    : Op(OpKind::Elemwise), m_code(code), m_castTo(code == ScalarOpCode::Cast ? castTo : DType::Float64),
      m_inplace(std::move(inplace)) {}

Elemwise::Elemwise(CompositePtr composite, InplacePattern inplace)
    : Op(OpKind::Elemwise), m_composite(std::move(composite)), m_inplace(std::move(inplace)) {
    if (!m_composite) throw std::invalid_argument("Elemwise: null Composite");
}

Elemwise::Elemwise(ScalarLoopPtr loop, InplacePattern inplace)
    : Op(OpKind::Elemwise), m_loop(std::move(loop)), m_inplace(std::move(inplace)) {
    if (!m_loop) throw std::invalid_argument("Elemwise: null ScalarLoop");
}

OpPtr Elemwise::withInplace(InplacePattern inplace) const {
    if (m_composite) return std::make_shared<Elemwise>(m_composite, std::move(inplace));
    if (m_loop) return std::make_shared<Elemwise>(m_loop, std::move(inplace));
    return makeElemwise(m_code, m_castTo, std::move(inplace));
}

std::string Elemwise::name() const {
    if (m_composite) return pythonCapitalize(m_composite->name());
    if (m_loop) return "Scalarloop";  // str(ScalarLoop).capitalize(), whatever the loop's name
    return m_inplace.empty() ? elemwiseOpName(m_code, m_castTo) : inplaceElemwiseOpName(m_code, m_castTo);
}

std::vector<Type> Elemwise::inferTypes(std::span<const Type* const> inputs) const {
    const int n = static_cast<int>(inputs.size());
    if (m_loop && n != m_loop->numInputs())
        throw OpTypeError("Scalarloop takes " + std::to_string(m_loop->numInputs()) + " inputs (n_steps, states, constants), got " +
                          std::to_string(n));
    if (!m_loop && (m_composite ? n != m_composite->numInputs() : !scalarArityOk(m_code, n)))
        throw OpTypeError(name() + " takes " +
                          (m_composite ? std::to_string(m_composite->numInputs())
                                       : (scalarOpInfo(m_code).arity == kVariadicArity ? std::string("one or more")
                                                                                      : std::to_string(scalarOpInfo(m_code).arity))) +
                          " inputs, got " + std::to_string(n));
    std::vector<DType> dtypes;
    for (int i = 0; i < n; ++i) {
        const Type& t = *inputs[i];
        if (t.isScalarType())
            throw OpTypeError("input " + std::to_string(i) + " is a ScalarType (" + t.toString() +
                              "); Elemwise takes tensors");
        if (!t.isTensorType()) throw OpTypeError("input " + std::to_string(i) + " is a " + t.toString() + ", not a tensor");
        if (t.ndim() != inputs[0]->ndim())
            throw OpTypeError("inputs have different ranks (input 0: " + std::to_string(inputs[0]->ndim()) + ", input " +
                              std::to_string(i) + ": " + std::to_string(t.ndim()) +
                              "); expand the lower-rank input first (ExpandDims), as the builder does");
        dtypes.push_back(t.dtype);
    }
    std::vector<DType> outDTypes;
    if (m_loop) {
        const Composite& body = *m_loop->body();
        if (!isInteger(dtypes[0]) || !isSigned(dtypes[0]))  // PyTensor takes int* only
            throw OpTypeError("Scalarloop: n_steps (input 0) must be a signed integer, got " + std::string(dtypeName(dtypes[0])));
        for (int i = 1; i < n; ++i)
            if (dtypes[i] != body.inputDType(i - 1))
                throw OpTypeError("input " + std::to_string(i) + " has dtype " + std::string(dtypeName(dtypes[i])) +
                                  " but the ScalarLoop takes " + std::string(dtypeName(body.inputDType(i - 1))));
        for (int o = 0; o < body.numOutputs(); ++o) outDTypes.push_back(body.outputDType(o));
    } else if (m_composite) {
        for (int i = 0; i < n; ++i)
            if (dtypes[i] != m_composite->inputDType(i))
                throw OpTypeError("input " + std::to_string(i) + " has dtype " + std::string(dtypeName(dtypes[i])) +
                                  " but the Composite takes " + std::string(dtypeName(m_composite->inputDType(i))));
        for (int o = 0; o < m_composite->numOutputs(); ++o) outDTypes.push_back(m_composite->outputDType(o));
    } else {
        outDTypes.push_back(scalarOutputDType(m_code, dtypes, m_castTo));
    }
    // PyTensor's broadcast_static_dim_lengths per dimension.
    const int nd = n ? inputs[0]->ndim() : 0;
    StaticShape shape(static_cast<size_t>(nd));
    // Allocation-free, since type inference runs for every node a rewrite builds:
    // only known lengths other than 1 can conflict, so their extremes suffice.
    for (int d = 0; d < nd; ++d) {
        bool unknown = false;
        int64_t lo = -1, hi = -1;  // smallest and largest known length other than 1
        for (int i = 0; i < n; ++i) {
            const int64_t len = inputs[i]->shape[d];
            if (len == kUnknownDim) {
                unknown = true;
            } else if (len != 1) {
                lo = lo < 0 ? len : std::min(lo, len);
                hi = std::max(hi, len);
            }
        }
        if (lo < 0) {
            shape[d] = unknown ? kUnknownDim : 1;  // all 1, or unknown broadcast against 1
            continue;
        }
        if (lo != hi) {
            std::string shapes;
            for (int i = 0; i < n; ++i) shapes += (i ? ", " : "") + Type::shapeString(inputs[i]->shape);
            throw OpTypeError("Incompatible Elemwise input shapes [" + shapes + "]: dim " + std::to_string(d) + " is " +
                              std::to_string(lo) + " and " + std::to_string(hi));
        }
        shape[d] = lo;
    }
    std::vector<Type> outs;
    for (DType d : outDTypes) outs.push_back(Type::tensor(d, shape));
    checkInplace(inputs, outs);
    return outs;
}

void Elemwise::checkInplace(std::span<const Type* const> inputs, const std::vector<Type>& outs) const {
    std::set<int> destroyed;
    for (auto [o, i] : m_inplace) {
        if (o < 0 || o >= static_cast<int>(outs.size()) || i < 0 || i >= static_cast<int>(inputs.size()))
            throw OpTypeError("inplace pattern {" + std::to_string(o) + ": " + std::to_string(i) + "} is out of range");
        if (!destroyed.insert(i).second)
            throw OpTypeError("two outputs overwrite input " + std::to_string(i));
        const Type& in = *inputs[i];
        for (int d = 0; d < in.ndim(); ++d)
            if (in.shape[d] == 1 && outs[o].shape[d] != 1)
                throw OpTypeError("Operation cannot be done inplace on an input with broadcasted dimensions (input " +
                                  std::to_string(i) + ", dim " + std::to_string(d) + ")");
        if (in.dtype != outs[o].dtype)
            throw OpTypeError("Cannot do an inplace operation on incompatible data types (input " + std::to_string(i) +
                              " " + std::string(dtypeName(in.dtype)) + ", output " + std::to_string(o) + " " +
                              std::string(dtypeName(outs[o].dtype)) + ")");
    }
}

const ScalarProgram& Elemwise::program(std::span<const DType> inputDTypes) const {
    if (m_loop) throw OpTypeError("Scalarloop runs its body step by step: it has no single program");
    return m_composite ? m_composite->program() : m_programs.get(m_code, m_castTo, inputDTypes);
}

void Elemwise::perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const {
    if (m_loop) return performLoop(inputs, outputs);
    const ScalarProgram* prog;
    if (m_composite) {
        prog = &m_composite->program();
    } else {
        DType small[8];
        std::vector<DType> many;
        std::span<const DType> key;
        if (inputs.size() <= std::size(small)) {
            for (size_t i = 0; i < inputs.size(); ++i) small[i] = inputs[i].dtype();
            key = std::span<const DType>(small, inputs.size());
        } else {
            for (const NDArray& a : inputs) many.push_back(a.dtype());
            key = many;
        }
        prog = &program(key);
    }
    if (static_cast<int>(inputs.size()) != prog->numInputs())
        throw ExecError(name() + ": " + std::to_string(inputs.size()) + " inputs, expected " +
                        std::to_string(prog->numInputs()));
    if (static_cast<int>(outputs.size()) < prog->numOutputs())
        throw ExecError(name() + ": " + std::to_string(outputs.size()) + " output cells, expected " +
                        std::to_string(prog->numOutputs()));
    // Equal shapes (the common case, e.g. every Scan step) need no broadcast and no copy.
    bool sameShapes = !inputs.empty();
    for (size_t i = 1; sameShapes && i < inputs.size(); ++i) sameShapes = shapesEqual(inputs[i].shape(), inputs[0].shape());
    Shape broadcast;
    if (!sameShapes) broadcast = broadcastShapes(inputs, name());
    const Shape& shape = sameShapes ? inputs[0].shape() : broadcast;
    for (int o = 0; o < prog->numOutputs(); ++o) {
        const DType od = prog->outputDType(o);
        NDArray& out = outputs[o];
        if (auto it = m_inplace.find(o); it != m_inplace.end()) {
            const NDArray& in = inputs[it->second];
            if (shapesEqual(in.shape(), shape) && in.dtype() == od) {
                out = in;  // same storage: the output overwrites its input
                continue;
            }
        }
        const bool reusable = out.valid() && out.storage().use_count() == 1 && out.dtype() == od && shapesEqual(out.shape(), shape) &&
                              out.isContiguous();
        if (!reusable) out = NDArray::empty(od, shape);
    }
    runElementwise(*prog, inputs, outputs.first(static_cast<size_t>(prog->numOutputs())));
}

void Elemwise::performLoop(std::span<const NDArray> inputs, std::span<NDArray> outputs) const {
    if (static_cast<int>(inputs.size()) != m_loop->numInputs() || static_cast<int>(outputs.size()) < m_loop->numOutputs())
        throw ExecError(name() + ": " + std::to_string(inputs.size()) + " inputs, expected " + std::to_string(m_loop->numInputs()));
    const Shape shape = broadcastShapes(inputs, name());
    for (int o = 0; o < m_loop->numOutputs(); ++o) {
        const DType od = m_loop->body()->outputDType(o);
        NDArray& out = outputs[static_cast<size_t>(o)];
        if (auto it = m_inplace.find(o); it != m_inplace.end()) {
            const NDArray& in = inputs[static_cast<size_t>(it->second)];
            if (shapesEqual(in.shape(), shape) && in.dtype() == od && in.isContiguous()) {
                out = in;  // each element's inputs are read before its outputs are written
                continue;
            }
        }
        out = NDArray::empty(od, shape);
    }
    m_loop->run(inputs, outputs.first(static_cast<size_t>(m_loop->numOutputs())), shape);
}

AliasMap Elemwise::destroyMap() const {
    AliasMap m;
    for (auto [o, i] : m_inplace) m[o] = {i};
    return m;
}

nlohmann::json Elemwise::params() const {
    nlohmann::json j;
    if (m_composite) {
        j["scalar_op"] = "composite";
    } else if (m_loop) {
        j["scalar_op"] = "scalar_loop";
        j["is_while"] = m_loop->isWhile();
        j["class"] = m_loop->className();
    } else {
        j["scalar_op"] = std::string(scalarOpInfo(m_code).key);
        if (m_code == ScalarOpCode::Cast) j["dtype"] = std::string(dtypeName(m_castTo));
    }
    if (!m_inplace.empty()) {
        nlohmann::json p = nlohmann::json::object();
        for (auto [o, i] : m_inplace) p[std::to_string(o)] = i;
        j["inplace_pattern"] = p;
    }
    return j;
}

std::shared_ptr<const Graph> Elemwise::innerGraph() const {
    return m_composite ? m_composite->graph() : m_loop ? m_loop->body()->graph() : nullptr;
}

bool Elemwise::equals(const Op& other) const {
    if (this == &other) return true;
    const auto* e = dynamic_cast<const Elemwise*>(&other);
    if (!e || e->m_inplace != m_inplace || isComposite() != e->isComposite() || isScalarLoop() != e->isScalarLoop()) return false;
    if (m_loop) return m_loop == e->m_loop || m_loop->signature() == e->m_loop->signature();
    if (m_composite) return m_composite == e->m_composite || m_composite->signature() == e->m_composite->signature();
    return m_code == e->m_code && m_castTo == e->m_castTo;
}

size_t Elemwise::hash() const {
    size_t h = std::hash<std::string>{}(m_composite ? m_composite->signature() : m_loop ? m_loop->signature() : name());
    for (auto [o, i] : m_inplace) h = h * 131 + static_cast<size_t>(o * 17 + i);
    return h * 31 + static_cast<size_t>(kind());
}

OpPtr makeElemwise(ScalarOpCode code, DType castTo, InplacePattern inplace) {
    if (!inplace.empty()) return std::make_shared<Elemwise>(code, castTo, std::move(inplace));
    static InternedScalarOps plain;
    return plain.get(code, castTo, [](ScalarOpCode c, DType t) { return std::make_shared<Elemwise>(c, t); });
}

OpPtr makeCompositeElemwise(const Graph& scalarGraph, InplacePattern inplace) {
    return std::make_shared<Elemwise>(std::make_shared<const Composite>(scalarGraph), std::move(inplace));
}

OpPtr makeCompositeElemwise(CompositePtr composite, InplacePattern inplace) {
    return std::make_shared<Elemwise>(std::move(composite), std::move(inplace));
}

OpPtr makeOpElemwise(const nlohmann::json& params, std::shared_ptr<const Graph> inner) {
    if (!params.is_object()) throw std::invalid_argument("Elemwise params: must be an object");
    InplacePattern inplace;
    if (params.contains("inplace_pattern")) {
        const auto& p = params["inplace_pattern"];
        if (!p.is_object()) throw std::invalid_argument("Elemwise params: /inplace_pattern must be an object {out: in}");
        for (auto it = p.begin(); it != p.end(); ++it) {
            int o = -1;
            try {
                o = std::stoi(it.key());
            } catch (const std::exception&) {
            }
            if (o < 0 || std::to_string(o) != it.key() || !it.value().is_number_integer() || it.value().get<int>() < 0)
                throw std::invalid_argument("Elemwise params: /inplace_pattern/" + it.key() +
                                            ": needs a non-negative output index mapped to an input index");
            inplace[o] = it.value().get<int>();
        }
    }
    if (params.contains("scalar_op") && params["scalar_op"] == "composite") {
        if (!inner) throw std::invalid_argument("Elemwise params: a composite Elemwise needs its inner scalar graph");
        return std::make_shared<Elemwise>(std::make_shared<const Composite>(*inner), std::move(inplace));
    }
    if (params.contains("scalar_op") && params["scalar_op"] == "scalar_loop") {
        if (!inner) throw std::invalid_argument("Elemwise params: a scalar_loop Elemwise needs its inner scalar graph");
        if (params.contains("is_while") && !params["is_while"].is_boolean())
            throw std::invalid_argument("Elemwise params: /is_while must be true or false");
        if (params.contains("class") && !params["class"].is_string())
            throw std::invalid_argument("Elemwise params: /class must be a string");
        auto loop = std::make_shared<const ScalarLoop>(std::make_shared<const Composite>(*inner), params.value("is_while", false),
                                                       params.value("class", std::string("ScalarLoop")));
        return std::make_shared<Elemwise>(std::move(loop), std::move(inplace));
    }
    // The scalar op first: an op tensorlens lacks that has a body of its own is then
    // reported as missing, not as a bad body.
    auto [code, castTo] = parseScalarOpParams(params, "Elemwise");
    if (inner) throw std::invalid_argument("Elemwise params: only a composite Elemwise has an inner graph");
    return makeElemwise(code, castTo, std::move(inplace));
}

} // namespace tl
