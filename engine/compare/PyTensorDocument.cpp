#include "compare/PyTensorDocument.h"

#include "io/DPrintImport.h"
#include "io/JsonFormat.h"
#include "io/JsonGraph.h"
#include "io/JsonTrace.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace tl {

namespace {

// "seed_rop" for ".../seed_rop.trace.json", "listing" for "listing.txt".
std::string programName(const std::string& source) {
    std::string stem = std::filesystem::path(source).filename().string();
    for (const char* suffix : {".trace.json", ".json", ".txt"})
        if (stem.size() > std::string(suffix).size() && stem.ends_with(suffix)) {
            stem.resize(stem.size() - std::string(suffix).size());
            break;
        }
    return stem;
}

} // namespace

PyTensorDocument readPyTensorDocument(std::string_view text, const std::string& sourceName) {
    PyTensorDocument d;
    d.name = programName(sourceName);
    const size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && text[first] == '{') {
        try {
            const nlohmann::json doc = parseJsonText(text);
            const std::string format = doc.is_object() && doc.contains("format") && doc["format"].is_string()
                                           ? doc["format"].get<std::string>()
                                           : std::string();
            if (format == kTraceFormatName) {
                d.kind = PyTensorDocument::Kind::Trace;
                d.trace = std::make_unique<Trace>(traceFromJson(doc));
            } else if (format == kGraphFormatName) {
                d.kind = PyTensorDocument::Kind::Graph;
                d.compiled = graphFromJson(doc);
            } else {
                throw FormatError("/format", "expected \"" + std::string(kTraceFormatName) + "\" or \"" +
                                                 kGraphFormatName + "\"");
            }
        } catch (const FormatError& e) {
            if (sourceName.empty()) throw;
            throw e.inFile(sourceName);
        }
        return d;
    }
    DPrintImport imp = importDprint(text, sourceName);
    d.kind = PyTensorDocument::Kind::DPrint;
    d.compiled = std::move(imp.graph);
    d.notes = std::move(imp.notes);
    return d;
}

PyTensorDocument loadPyTensorDocument(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path + ": cannot open the file");
    std::stringstream ss;
    ss << in.rdbuf();
    return readPyTensorDocument(ss.str(), path);
}

} // namespace tl
