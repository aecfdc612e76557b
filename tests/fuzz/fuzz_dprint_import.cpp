// libFuzzer target: the dprint importer (io/DPrintImport.h). Bad text must end in
// FormatError, never a crash or another exception; an imported graph must
// validate, print with the options its text showed, and save and load as JSON.
#include "io/DPrint.h"
#include "io/DPrintImport.h"
#include "io/JsonGraph.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    tl::DPrintImport imp;
    try {
        imp = tl::importDprint(text, "fuzz.txt");
    } catch (const tl::FormatError&) {
        return 0;
    }
    if (!imp.graph->validate().empty()) {
        std::fprintf(stderr, "imported graph does not validate: %s\n", imp.graph->validate().front().c_str());
        std::abort();
    }
    tl::DPrintOptions o = imp.options;
    o.topoIndexOverride = &imp.topoIndex;
    (void)tl::dprint(*imp.graph, o);
    const std::string saved = tl::graphToJsonText(*imp.graph);
    auto again = tl::graphFromJsonText(saved, "imported.json");  // must not throw
    if (tl::graphToJsonText(*again) != saved) {
        std::fprintf(stderr, "imported graph: save -> load -> save differs\n");
        std::abort();
    }
    return 0;
}
