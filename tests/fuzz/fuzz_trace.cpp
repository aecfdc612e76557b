// libFuzzer target: the rewrite-trace loader (io/JsonTrace.h), which also replays
// every step. Bad input must end in FormatError, never a crash; a trace that loads
// must save and load again to the same text.
#include "io/JsonTrace.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        tl::Trace t = tl::traceFromJsonText(text, "fuzz-trace.json");
        const std::string saved = tl::traceToJsonText(t);
        tl::Trace again = tl::traceFromJsonText(saved, "saved-trace.json");
        if (tl::traceToJsonText(again) != saved) {
            std::fprintf(stderr, "save -> load -> save differs\n");
            std::abort();
        }
    } catch (const tl::FormatError&) {
    }
    return 0;
}
