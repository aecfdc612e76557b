// TEMPORARY during the first build-out: factories of op families whose file is
// not written yet. Whoever implements a family deletes its line here and
// defines makeOp<Kind> in ops/<Family>.cpp. This file goes away when empty.
#include "ops/Op.h"

#include <nlohmann/json.hpp>

namespace tl {
#define TL_PENDING(kind)                                                                \
    OpPtr makeOp##kind(const nlohmann::json&, std::shared_ptr<const Graph>) {           \
        throw std::invalid_argument("op family " #kind " is not implemented yet");      \
    }
} // namespace tl
