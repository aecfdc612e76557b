// TEMPORARY while the engine pieces land: commands not wired yet say so.
#include "cli/Commands.h"

#include <stdexcept>

namespace tl::cli {
#define TL_PENDING_CMD(fn, name) \
    int fn(const std::vector<std::string>&) { throw std::runtime_error(name " is not wired up yet"); }
TL_PENDING_CMD(cmdExport, "export")
} // namespace tl::cli
