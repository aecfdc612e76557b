#include "ops/AdvancedIncSubtensor.h"

#include "ops/AdvancedIndexing.h"
#include "ops/AdvancedSubtensor.h"
#include "ops/ArrayOpUtil.h"

#include <nlohmann/json.hpp>

namespace tl {

namespace {

using advindex::IndexKind;
using advindex::ScatterMode;

void requireValue(const Type& x, const Type& y, const std::string& opName, bool set) {
    arrayop::requireTensor(y, opName + " value");
    if (y.ndim() > x.ndim())
        throw OpTypeError(opName + ": cannot " + std::string(set ? "set" : "increment") + " x subtensor with ndim=" +
                          std::to_string(x.ndim()) + " by y with ndim=" + std::to_string(y.ndim()));
}

// The result array: x itself (inplace) or a copy of x in the output cell.
NDArray targetFor(const NDArray& x, NDArray& cell, bool inplace) {
    if (inplace) return x;
    NDArray t = arrayop::reuseOrEmpty(cell, x.dtype(), x.shape());
    t.assign(x);
    return t;
}

// y in x's dtype, and never sharing memory with what is about to be written.
NDArray valueFor(const NDArray& y, const NDArray& target) {
    if (y.dtype() != target.dtype() || y.sharesStorageWith(target)) return y.astype(target.dtype());
    return y;
}

// Both ops' params: flags, and (from PyTensor's exporter) a destroy_map that must agree.
bool flag(const nlohmann::json& params, const char* key, const std::string& op, bool required, bool dflt = false) {
    auto it = params.find(key);
    if (it == params.end()) {
        if (required) throw std::invalid_argument(op + " params: missing \"" + key + "\"");
        return dflt;
    }
    if (!it->is_boolean()) throw std::invalid_argument(op + " params: \"" + key + "\" must be true or false");
    return it->get<bool>();
}

void checkStatedDestroyMap(const nlohmann::json& params, bool inplace, const std::string& op) {
    auto it = params.find("destroy_map");
    if (it == params.end()) return;
    nlohmann::json want = nlohmann::json::object();
    if (inplace) want["0"] = nlohmann::json::array({0});
    if (*it != want)
        throw std::invalid_argument(op + " params: \"destroy_map\" " + it->dump() + " does not match \"inplace\": " +
                                    (inplace ? "true" : "false"));
}

} // namespace

// ---------------------------------------------------------------- AdvancedIncSubtensor1

AdvancedIncSubtensor1Op::AdvancedIncSubtensor1Op(bool inplace, bool setInsteadOfInc)
    : Op(OpKind::AdvancedIncSubtensor1), m_inplace(inplace), m_set(setInsteadOfInc) {}

std::string AdvancedIncSubtensor1Op::name() const {
    return std::string("AdvancedIncSubtensor1{") + (m_inplace ? "inplace" : "no_inplace") + (m_set ? ",set}" : ",inc}");
}

std::vector<Type> AdvancedIncSubtensor1Op::inferTypes(std::span<const Type* const> in) const {
    arrayop::requireArity(in, 3, name());
    const Type& x = *in[0];
    const Type& ilist = *in[2];
    arrayop::requireTensor(x, name() + " input");
    if (x.ndim() == 0) throw OpTypeError(name() + ": cannot index into a scalar (" + x.toString() + ")");
    requireValue(x, *in[1], name(), m_set);
    if (!ilist.isTensorType() || !isInteger(ilist.dtype)) throw OpTypeError(name() + ": index must be integers, got " + ilist.toString());
    if (ilist.ndim() != 1) throw OpTypeError(name() + ": index must be a vector, got " + ilist.toString());
    return {x};
}

void AdvancedIncSubtensor1Op::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    if (in[2].ndim() != 1) throw ExecError(name() + ": index must be a vector, got shape " + shapeToString(in[2].shape()));
    const IndexKind kinds[] = {IndexKind::Integer};
    NDArray target = targetFor(in[0], out[0], m_inplace);
    const advindex::Plan plan(target, in.subspan(2, 1), kinds, name());
    advindex::scatter(target, plan, valueFor(in[1], target), m_set ? ScatterMode::Set : ScatterMode::Add, name());
    out[0] = target;
}

AliasMap AdvancedIncSubtensor1Op::destroyMap() const { return m_inplace ? AliasMap{{0, {0}}} : AliasMap{}; }

nlohmann::json AdvancedIncSubtensor1Op::params() const { return {{"inplace", m_inplace}, {"set_instead_of_inc", m_set}}; }

OpPtr makeAdvancedIncSubtensor1(bool inplace, bool setInsteadOfInc) {
    return std::make_shared<AdvancedIncSubtensor1Op>(inplace, setInsteadOfInc);
}

OpPtr makeOpAdvancedIncSubtensor1(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    const std::string op = "AdvancedIncSubtensor1";
    const bool inplace = flag(params, "inplace", op, true), set = flag(params, "set_instead_of_inc", op, true);
    checkStatedDestroyMap(params, inplace, op);
    return makeAdvancedIncSubtensor1(inplace, set);
}

// ---------------------------------------------------------------- AdvancedIncSubtensor

AdvancedIncSubtensorOp::AdvancedIncSubtensorOp(bool inplace, bool setInsteadOfInc, bool ignoreDuplicates)
    : Op(OpKind::AdvancedIncSubtensor), m_inplace(inplace), m_set(setInsteadOfInc), m_ignoreDuplicates(ignoreDuplicates) {}

std::vector<Type> AdvancedIncSubtensorOp::inferTypes(std::span<const Type* const> in) const {
    return inferTypesWithConstants(in, {});
}

std::vector<Type> AdvancedIncSubtensorOp::inferTypesWithConstants(std::span<const Type* const> in,
                                                                  std::span<const NDArray* const> constants) const {
    arrayop::requireMinArity(in, 2, name());
    const Type& x = *in[0];
    arrayop::requireTensor(x, name() + " input");
    arrayop::requireTensor(*in[1], name() + " value");
    // The indices must make a valid x[idx...] (PyTensor checks them when the node runs;
    // tensorlens already when the node is made).
    advindex::indexedType(x, in.subspan(2), constants.size() > 2 ? constants.subspan(2) : constants.subspan(0, 0), name());
    return {x};
}

void AdvancedIncSubtensorOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const auto kinds = indexKindsOf(in, 2, name());
    NDArray target = targetFor(in[0], out[0], m_inplace);
    const advindex::Plan plan(target, in.subspan(2), kinds, name());
    const ScatterMode mode = m_set ? ScatterMode::Set : m_ignoreDuplicates ? ScatterMode::AddOnce : ScatterMode::Add;
    advindex::scatter(target, plan, valueFor(in[1], target), mode, name());
    out[0] = target;
}

AliasMap AdvancedIncSubtensorOp::destroyMap() const { return m_inplace ? AliasMap{{0, {0}}} : AliasMap{}; }

nlohmann::json AdvancedIncSubtensorOp::params() const {
    return {{"inplace", m_inplace}, {"set_instead_of_inc", m_set}, {"ignore_duplicates", m_ignoreDuplicates}};
}

OpPtr makeAdvancedIncSubtensor(bool inplace, bool setInsteadOfInc, bool ignoreDuplicates) {
    return std::make_shared<AdvancedIncSubtensorOp>(inplace, setInsteadOfInc, ignoreDuplicates);
}

OpPtr makeOpAdvancedIncSubtensor(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    const std::string op = "AdvancedIncSubtensor";
    const bool inplace = flag(params, "inplace", op, true), set = flag(params, "set_instead_of_inc", op, true);
    const bool nodup = flag(params, "ignore_duplicates", op, false);
    checkStatedDestroyMap(params, inplace, op);
    return makeAdvancedIncSubtensor(inplace, set, nodup);
}

} // namespace tl
