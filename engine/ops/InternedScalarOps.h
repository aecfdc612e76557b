#pragma once
// One shared instance per scalar op and cast dtype, for the op classes that hold
// nothing else: a plain Elemwise (no inplace pattern) and a ScalarOp. A graph of
// 50,000 `add` nodes then points at one Elemwise{add} instead of 50,000 copies of
// 176 bytes each: the graph is smaller, and a pass that asks every node for its
// op reads one object the caches keep instead of one per node
// (docs/performance.md#shared-op-instances). Sharing is safe because an op is
// immutable once built and its program cache takes concurrent lookups
// (core/DTypeSignatureCache.h); nodes already share ops whenever a graph is copied.
#include "ir/Op.h"
#include "ops/ScalarOps.h"

#include <map>
#include <mutex>
#include <utility>

namespace tl {

class InternedScalarOps {
public:
    /// The instance for (code, castTo), made by `make(code, castTo)` on first use.
    /// castTo counts only for Cast, as both op classes' constructors ignore it otherwise.
    template <class Make> OpPtr get(ScalarOpCode code, DType castTo, Make&& make) {
        const DType key = code == ScalarOpCode::Cast ? castTo : DType::Float64;
        std::lock_guard<std::mutex> lock(m_mutex);
        OpPtr& op = m_ops[{code, key}];
        if (!op) op = make(code, key);
        return op;
    }

private:
    std::mutex m_mutex;
    std::map<std::pair<ScalarOpCode, DType>, OpPtr> m_ops;
};

} // namespace tl
