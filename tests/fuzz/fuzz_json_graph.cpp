// libFuzzer target: the JSON graph loader (io/JsonGraph.h). Bad input must end in
// FormatError, never a crash or another exception; a graph that loads must save,
// load again to the same text, validate and print.
#include "io/DPrint.h"
#include "io/JsonGraph.h"

#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    std::unique_ptr<tl::Graph> g;
    try {
        g = tl::graphFromJsonText(text, "fuzz.json");
    } catch (const tl::FormatError&) {
        return 0;
    }
    const std::string saved = tl::graphToJsonText(*g);
    auto again = tl::graphFromJsonText(saved, "saved.json");  // must not throw
    if (tl::graphToJsonText(*again) != saved) {
        std::fprintf(stderr, "save -> load -> save differs\n");
        std::abort();
    }
    tl::DPrintOptions o;
    o.printType = o.printDestroyMap = o.printOpInfo = o.printTopoIndex = true;
    (void)tl::dprint(*g, o);
    return 0;
}
