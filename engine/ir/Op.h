#pragma once
// Base class of every op. Ops are immutable values shared between nodes
// (std::shared_ptr<const Op>); a rewrite that changes an op makes a new one.
#include "core/NDArray.h"
#include "ir/Type.h"

#include <nlohmann/json_fwd.hpp>

#include <atomic>
#include <map>
#include <optional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace tl {

class Graph;
class Node;
class Variable;

enum class OpKind : uint8_t {
#define TL_OP_KIND(kind, jsonName) kind,
#include "ir/OpKinds.def"
#undef TL_OP_KIND
};
inline constexpr int kNumOpKinds = 0
#define TL_OP_KIND(kind, jsonName) +1
#include "ir/OpKinds.def"
#undef TL_OP_KIND
    ;
static_assert(kNumOpKinds == 97, "update the tables that switch over OpKind");

/// JSON name of an op family ("Elemwise").
std::string_view opKindName(OpKind k);
std::optional<OpKind> parseOpKind(std::string_view name);

/// {output index: [input indices]}: the output overwrites (destroy) or aliases (view) those inputs.
using AliasMap = std::map<int, std::vector<int>>;

/// Thrown by inferTypes for inputs the op cannot take; the Graph adds the node's name.
struct OpTypeError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Thrown by kernels for values the op cannot take at run time (index out of range, shape mismatch).
struct ExecError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Op {
public:
    explicit Op(OpKind kind) : m_kind(kind) {}
    virtual ~Op() = default;
    Op(const Op&) = delete;
    Op& operator=(const Op&) = delete;

    OpKind kind() const { return m_kind; }

    /// The name PyTensor's dprint shows ("Subtensor{i}", "Scan{scan_fn, while_loop=False, inplace=all}").
    virtual std::string name() const = 0;

    /// Output types for these input types; throws OpTypeError naming what is wrong.
    virtual std::vector<Type> inferTypes(std::span<const Type* const> inputs) const = 0;

    /// As inferTypes, also given the values of the inputs that are constants (null
    /// entries for the others), so static shapes can follow constant dims and indices
    /// as PyTensor's make_node does (AllocEmpty(2, 7) -> shape (2, 7)). Graph::addNode,
    /// Graph::validate and Rewriter::setOp call this one. Default: inferTypes.
    virtual std::vector<Type> inferTypesWithConstants(std::span<const Type* const> inputs,
                                                      std::span<const NDArray* const> constantValues) const {
        (void)constantValues;
        return inferTypes(inputs);
    }

    /// Computes outputs from inputs. `outputs` arrive holding the arrays of the
    /// previous call (or empty); a kernel may reuse one when its shape fits and
    /// nothing else references it (Storage use_count), as PyTensor's storage cells.
    /// Ops whose meaning is a program of other ops run by the executor (Scan runs
    /// its inner graph step by step) have no kernel here: hasKernel() is false and
    /// the executor runs them (exec/ScanLoop.h). Default: throws ExecError.
    virtual void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const;
    virtual bool hasKernel() const { return true; }

    virtual AliasMap destroyMap() const { return {}; }
    virtual AliasMap viewMap() const { return {}; }

    /// Op parameters as JSON (everything but kind and inner graphs); equal ops have equal params.
    virtual nlohmann::json params() const;
    /// The inner graph of Composite / Scan (null for others).
    virtual std::shared_ptr<const Graph> innerGraph() const { return nullptr; }

    /// Structural equality for merging (same kind, params and inner graph).
    virtual bool equals(const Op& other) const;
    virtual size_t hash() const;

    /// hash(), computed on the first call and remembered (an op is an immutable
    /// value, so its hash never changes): the merge pass and value numbering ask
    /// once per node, and hash() may build the op's name or params.
    size_t cachedHash() const {
        size_t h = m_hash.load(std::memory_order_relaxed);
        if (h != 0) return h;
        h = hash();
        if (h == 0) h = 1;  // 0 marks "not computed"; equal ops still hash equal
        m_hash.store(h, std::memory_order_relaxed);
        return h;
    }
    /// A hash consistent with structural equivalence of inner graphs
    /// (analysis/GraphEquality.h), remembered by whoever computed it; 0 until then.
    size_t rememberedStructuralHash() const { return m_structuralHash.load(std::memory_order_relaxed); }
    void rememberStructuralHash(size_t h) const { m_structuralHash.store(h == 0 ? 1 : h, std::memory_order_relaxed); }

private:
    OpKind m_kind;
    // Caches of pure functions of the op's value; relaxed atomics: racing threads
    // compute and store the same number.
    mutable std::atomic<size_t> m_hash{0};
    mutable std::atomic<size_t> m_structuralHash{0};
};

using OpPtr = std::shared_ptr<const Op>;

} // namespace tl
