#include "core/CpuVendorDefault.h"

#include <cstdlib>
#include <cstring>

namespace tl {

bool onIntelUnlessEnvironmentSays(const char* envVar) {
    if (const char* env = std::getenv(envVar)) return std::strcmp(env, "0") != 0;
    __builtin_cpu_init();  // may run while static objects are constructed
    return __builtin_cpu_is("intel") != 0;
}

} // namespace tl
