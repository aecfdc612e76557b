// Printed names of the ops that pass their input through (dprint importer): the
// assertions (Assert{msg='...'}, CheckAndRaise{raises=ValueError, msg='...'}), ViewOp
// and the gradient modifiers, and Print, whose default global_fn prints its address.
#include "io/DPrintImportInternal.h"

#include "ops/Assert.h"
#include "ops/PassThrough.h"

namespace tl::dpimport {

namespace {

// "message='resid', attrs=('shape', 'sum')": Print's parameters.
OpPtr printFrom(std::string_view p) {
    constexpr std::string_view kMessage = "message='", kAttrs = "', attrs=(";
    const size_t at = p.rfind(kAttrs);
    if (p.substr(0, kMessage.size()) != kMessage || at == std::string_view::npos || at < kMessage.size() || p.back() != ')')
        return nullptr;
    std::vector<std::string> attrs;
    std::string_view list = p.substr(at + kAttrs.size(), p.size() - at - kAttrs.size() - 1);
    while (!list.empty()) {
        if (list.front() != '\'') return nullptr;
        const size_t close = list.find('\'', 1);
        if (close == std::string_view::npos) return nullptr;
        attrs.emplace_back(list.substr(1, close - 1));
        list.remove_prefix(close + 1);
        if (list.substr(0, 2) == ", ") list.remove_prefix(2);
        else if (list == ",") list = {};
        else if (!list.empty()) return nullptr;
    }
    return makePrint(std::string(p.substr(kMessage.size(), at - kMessage.size())), std::move(attrs));
}

} // namespace

std::string withoutPrintFunction(const std::string& name) {
    constexpr std::string_view kPrintFn = ", global_fn=<function _print_fn at ";
    const size_t fn = name.find(kPrintFn);
    if (name.rfind("Print{", 0) == 0 && fn != std::string::npos && name.back() == '}' && name.find(">}", fn) == name.size() - 2)
        return name.substr(0, fn) + "}";
    return name;
}

OpPtr passThroughOpFromName(std::string_view base, std::optional<std::string_view> params) {
    if (!params) {
        if (base == "ViewOp" || base == "ZeroGrad" || base == "DisconnectedGrad" || base == "GradClip" || base == "GradScale" ||
            base == "OutputGuard" || base == "UndefinedGrad")
            return makeViewOp(std::string(base));
        if (base == "CpuContiguous") return makeCpuContiguous();
        return nullptr;
    }
    const std::string_view p = *params;
    if (base == "Assert" && p.substr(0, 5) == "msg='" && p.size() >= 6 && p.back() == '\'')
        return makeAssert(std::string(p.substr(5, p.size() - 6)));
    if (base == "CheckAndRaise" && p.substr(0, 7) == "raises=") {
        // "raises=ValueError, msg='...'" (a message over 30 characters is cut in the print).
        const size_t comma = p.find(", msg='");
        if (comma == std::string_view::npos || p.back() != '\'' || comma <= 7) return nullptr;
        return makeCheckAndRaise(std::string(p.substr(7, comma - 7)), std::string(p.substr(comma + 7, p.size() - comma - 8)));
    }
    if (base == "Print") return printFrom(p);
    return nullptr;
}

} // namespace tl::dpimport
