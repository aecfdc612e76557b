#include "session/FileLoader.h"

#include "io/FormatError.h"
#include "io/JsonGraph.h"
#include "io/JsonTrace.h"
#include "rewrite/Pipeline.h"

#include "io/DPrintImport.h"

#include <QFile>
#include <QFileInfo>

#include <nlohmann/json.hpp>

namespace tl {

LoadedDocument loadDocument(const QString& path) {
    QFile f(path);
    if (!f.exists()) throw std::runtime_error(path.toStdString() + ": no such file");
    if (!f.open(QIODevice::ReadOnly)) throw std::runtime_error(path.toStdString() + ": cannot read: " + f.errorString().toStdString());
    // Bigger than any graph a person would open; refusing keeps an accidental drop of a video harmless.
    if (f.size() > (int64_t(1) << 30)) throw std::runtime_error(path.toStdString() + ": file too large (over 1 GiB)");
    const QByteArray bytes = f.readAll();
    return loadDocumentText(bytes.toStdString(), QFileInfo(path).fileName());
}

LoadedDocument loadDocumentText(const std::string& text, const QString& qname) {
    const std::string name = qname.toStdString();
    LoadedDocument doc;
    size_t first = text.find_first_not_of(" \t\r\n\xef\xbb\xbf");
    if (first != std::string::npos && text[first] == '{') {
        // JSON: the "format" field says graph or trace; parse errors come from the graph
        // reader so they name line and column the same way.
        nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
        if (j.is_discarded()) graphFromJsonText(text, name);  // throws FormatError with line/column
        const std::string format = j.is_object() && j.contains("format") && j["format"].is_string() ? j["format"].get<std::string>() : "";
        if (format == kTraceFormatName) {
            doc.trace = std::make_unique<Trace>(traceFromJsonText(text, name));
            doc.kind = "trace";
        } else if (format == kGraphFormatName || format.empty()) {
            doc.trace = std::make_unique<Trace>(graphFromJsonText(text, name));
            doc.kind = "graph";
        } else {
            throw FormatError("/format", "unknown format \"" + format + "\" (expected \"" + kGraphFormatName + "\" or \"" +
                                             kTraceFormatName + "\")",
                              name);
        }
        return doc;
    }
    DPrintImport imported = importDprint(text, name);
    doc.trace = std::make_unique<Trace>(std::move(imported.graph));
    doc.kind = "dprint";
    for (const std::string& n : imported.notes) doc.notes << QString::fromStdString(n);
    doc.nodeNotes = opaqueReasons(doc.trace->original(), doc.notes);
    return doc;
}

NodeNotes opaqueReasons(const Graph& graph, const QStringList& notes) {
    // "line 2: [id B] Scan{...}: imported as an opaque node (drawn, not executed): its inner graph is not printed; ..."
    static const QString kMarker = ": imported as an opaque node (drawn, not executed): ";
    std::vector<std::pair<QString, QString>> byName;  // printed name -> short reason
    for (const QString& n : notes) {
        const int at = n.indexOf(kMarker);
        if (at < 0) continue;
        const int idEnd = n.indexOf("] ");
        const QString name = idEnd >= 0 && idEnd < at ? n.mid(idEnd + 2, at - idEnd - 2) : QString();
        QString why = n.mid(at + kMarker.size()).section(';', 0, 0).trimmed();
        if (why.contains("inner graph is not printed") || why.contains("body is not printed")) why = "body not in the text";
        else if (why.contains("inputs are not printed")) why = "inputs not in the text";
        else if (why.startsWith("tensorlens has no ")) why = "unknown to tensorlens: " + why.mid(18);
        if (why.size() > 48) why = why.left(45) + "\u2026";
        byName.emplace_back(name, "opaque: " + why);
    }
    NodeNotes out;
    if (byName.empty()) return out;
    for (const Node* node : graph.nodes()) {
        if (node->op().kind() != OpKind::Opaque) continue;
        const QString name = QString::fromStdString(node->op().name());
        for (const auto& [n, why] : byName)
            if (n == name || name.startsWith(n)) {
                out[node->id()] = why.toStdString();
                break;
            }
        if (!out.count(node->id())) out[node->id()] = "opaque: not executed";
    }
    return out;
}

std::unique_ptr<Trace> rewriteToTrace(const Graph& graph, const std::set<std::string>& exclude, bool pytensorBuffers) {
    PipelineOptions options;
    options.explain = true;
    options.exclude = exclude;
    options.bufferMode = pytensorBuffers ? RewriteOptions::BufferMode::PyTensor : RewriteOptions::BufferMode::Exact;
    auto trace = std::make_unique<Trace>(rewriteWithTrace(graph, options));
    return trace;
}

} // namespace tl
