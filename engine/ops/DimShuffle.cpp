#include "ops/DimShuffle.h"

#include "ops/ArrayOpUtil.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace tl {

namespace {
std::string pyList(const std::vector<int>& v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
}
} // namespace

DimShuffleOp::DimShuffleOp(int inputNdim, std::vector<int> newOrder)
    : Op(OpKind::DimShuffle), m_inputNdim(inputNdim), m_newOrder(std::move(newOrder)) {
    if (inputNdim < 0) throw std::invalid_argument("DimShuffle: input_ndim must be >= 0");
    std::vector<bool> used(inputNdim, false);
    for (size_t i = 0; i < m_newOrder.size(); ++i) {
        const int a = m_newOrder[i];
        if (a == -1) {
            m_augment.push_back(static_cast<int>(i));
            continue;
        }
        if (a < 0 || a >= inputNdim)
            throw std::invalid_argument("DimShuffle: new_order[" + std::to_string(i) + "] is " + std::to_string(a) +
                                        ", but the input only has " + std::to_string(inputNdim) + " axes");
        if (used[a])
            throw std::invalid_argument("DimShuffle: input axis " + std::to_string(a) + " appears twice in new_order");
        used[a] = true;
        m_shuffle.push_back(a);
    }
    for (int a = 0; a < inputNdim; ++a)
        if (!used[a]) m_drop.push_back(a);
}

bool DimShuffleOp::isExpandDims() const {
    return !m_augment.empty() && std::is_sorted(m_shuffle.begin(), m_shuffle.end()) && m_drop.empty();
}
bool DimShuffleOp::isSqueeze() const {
    return !m_drop.empty() && std::is_sorted(m_shuffle.begin(), m_shuffle.end()) && m_augment.empty();
}
bool DimShuffleOp::isTranspose() const {
    return !std::is_sorted(m_shuffle.begin(), m_shuffle.end()) && m_augment.empty() && m_drop.empty();
}

std::string DimShuffleOp::name() const {
    if (isExpandDims())
        return m_augment.size() == 1 ? "ExpandDims{axis=" + std::to_string(m_augment[0]) + "}"
                                     : "ExpandDims{axes=" + pyList(m_augment) + "}";
    if (isSqueeze())
        return m_drop.size() == 1 ? "Squeeze{axis=" + std::to_string(m_drop[0]) + "}"
                                  : "Squeeze{axes=" + pyList(m_drop) + "}";
    if (isTranspose()) return "Transpose{axes=" + pyList(m_shuffle) + "}";
    std::string s = "DimShuffle{order=[";
    for (size_t i = 0; i < m_newOrder.size(); ++i)
        s += (i ? "," : "") + (m_newOrder[i] == -1 ? std::string("x") : std::to_string(m_newOrder[i]));
    return s + "]}";
}

std::vector<Type> DimShuffleOp::inferTypes(std::span<const Type* const> in) const {
    arrayop::requireArity(in, 1, "DimShuffle");
    const Type& x = *in[0];
    arrayop::requireTensor(x, "DimShuffle input");
    if (x.ndim() != m_inputNdim)
        throw OpTypeError("DimShuffle expects a " + std::to_string(m_inputNdim) + "-d input, got " + x.toString());
    for (int d : m_drop)
        if (x.shape[d] != 1 && x.shape[d] != kUnknownDim)
            throw OpTypeError("DimShuffle drops axis " + std::to_string(d) + " of " + x.toString() +
                              ", which must have length 1");
    StaticShape out;
    for (int a : m_newOrder) out.push_back(a == -1 ? 1 : x.shape[a]);
    return {Type::tensor(x.dtype, std::move(out))};
}

void DimShuffleOp::perform(std::span<const NDArray> in, std::span<NDArray> out) const {
    const NDArray& x = in[0];
    if (x.ndim() != m_inputNdim)
        throw ExecError(name() + ": expected a " + std::to_string(m_inputNdim) + "-d input, got shape " +
                        shapeToString(x.shape()));
    for (int d : m_drop)
        if (x.dim(d) != 1)
            throw ExecError(name() + ": dropped axis " + std::to_string(d) + " has length " + std::to_string(x.dim(d)) +
                            ", not 1 (input shape " + shapeToString(x.shape()) + ")");
    Shape shape;
    Strides strides;
    for (int a : m_newOrder) {
        shape.push_back(a == -1 ? 1 : x.dim(a));
        strides.push_back(a == -1 ? 0 : x.strides()[a]);
    }
    out[0] = x.view(std::move(shape), std::move(strides), x.offset());
}

nlohmann::json DimShuffleOp::params() const {
    nlohmann::json order = nlohmann::json::array();
    for (int a : m_newOrder) order.push_back(a == -1 ? nlohmann::json("x") : nlohmann::json(a));
    return {{"input_ndim", m_inputNdim}, {"new_order", order}};
}

bool DimShuffleOp::equals(const Op& other) const {
    const auto* d = dynamic_cast<const DimShuffleOp*>(&other);
    return d && d->m_inputNdim == m_inputNdim && d->m_newOrder == m_newOrder;
}

size_t DimShuffleOp::hash() const {
    size_t h = static_cast<size_t>(kind()) * 1000003u + static_cast<size_t>(m_inputNdim);
    for (int a : m_newOrder) h = h * 131 + static_cast<size_t>(a + 2);
    return h;
}

OpPtr makeDimShuffle(int inputNdim, std::vector<int> newOrder) {
    return std::make_shared<DimShuffleOp>(inputNdim, std::move(newOrder));
}

OpPtr makeOpDimShuffle(const nlohmann::json& params, std::shared_ptr<const Graph>) {
    const auto& nd = arrayop::requireParam(params, "input_ndim", "DimShuffle");
    if (!nd.is_number_integer()) throw std::invalid_argument("DimShuffle params: \"input_ndim\" must be an integer");
    const auto& order = arrayop::requireParam(params, "new_order", "DimShuffle");
    if (!order.is_array()) throw std::invalid_argument("DimShuffle params: \"new_order\" must be a list");
    std::vector<int> newOrder;
    for (size_t i = 0; i < order.size(); ++i) {
        if (order[i] == "x") newOrder.push_back(-1);
        else if (order[i].is_number_integer()) newOrder.push_back(order[i].get<int>());
        else
            throw std::invalid_argument("DimShuffle params: \"new_order\"/" + std::to_string(i) +
                                        " must be an axis or \"x\", got " + order[i].dump());
    }
    return makeDimShuffle(nd.get<int>(), std::move(newOrder));
}

} // namespace tl
