#include "compare/PyTensorReasons.h"

#include <cctype>
#include <cstdlib>
#include <optional>

namespace tl {

namespace {

// The first dimension of a shape text "(2, 7)", or nullopt for "?" and "removed".
std::optional<long> firstDim(const std::string& shape) {
    if (shape.size() < 2 || shape[0] != '(' || !std::isdigit(static_cast<unsigned char>(shape[1]))) return std::nullopt;
    return std::strtol(shape.c_str() + 1, nullptr, 10);
}

bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

} // namespace

std::string pytensorReason(const TraceStep& step, const AttributeChange& fact, RewriteOptions::BufferMode mode) {
    if (fact.key == "merged_state") {
        std::string why =
            "PyTensor has no rewrite that finds two states computing one sequence: scan_merge_inouts "
            "(pytensor/scan/rewriting.py) means to merge duplicate outputs, but for sit_sots it pairs the outer "
            "initial values with the inner inputs (make_equiv(outer_in_sit_sot, inner_in_sit_sot)), so the "
            "updates never compare equal; mit_sots are paired correctly and do merge";
        if (contains(fact.detail, "Composites were opened"))
            why += ". PyTensor's fusion then put the two copies of the update in different Composites, which its "
                   "merge cannot see into";
        return why;
    }
    if (fact.key == "buffer_shape") {
        const auto before = firstDim(fact.before), after = firstDim(fact.after);
        if (before && after && *before == *after + 1 && mode == RewriteOptions::BufferMode::Exact &&
            contains(fact.detail, "exact:"))
            return "PyTensor's scan_save_mem_prealloc (FAST_RUN, the C backend) keeps init_l + 1 rows so that its "
                   "loop can write a new state straight into the buffer while the step still reads the oldest tap "
                   "(pytensor/scan/rewriting.py, scan_save_mem_rewrite: \"The + 1 is because of the memory "
                   "pre-allocation mechanism\"; pytensor/scan/op.py's module docstring); it never checks whether the "
                   "step reads that tap after writing. Its JIT backends (scan_save_mem_no_prealloc) keep init_l rows";
    }
    (void)step;
    return "";
}

} // namespace tl
