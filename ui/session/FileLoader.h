#pragma once
// Opening what a user drops on the window: a JSON graph, a JSON trace, or
// (when the importer is built in) PyTensor dprint text. Errors are
// FormatError naming the file and the place (JSON path, line and column).
#include "model/NodeRef.h"
#include "trace/Trace.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <set>
#include <string>

namespace tl {

struct LoadedDocument {
    std::unique_ptr<Trace> trace;  // always set; a plain graph has zero steps
    QString kind;                  // "graph", "trace", "dprint"
    QStringList notes;             // what an importer inferred (dprint text)
    NodeNotes nodeNotes;           // why each opaque node of an imported listing is opaque, short
};

/// From the importer's notes: a short reason on each opaque node of `graph`
/// ("opaque: body not in the text"), for the canvas to write on the node.
NodeNotes opaqueReasons(const Graph& graph, const QStringList& notes);

/// Reads `path`; throws FormatError (or std::runtime_error for I/O) with a message naming the place.
LoadedDocument loadDocument(const QString& path);
/// The same from text already in memory (`name` is used in messages).
LoadedDocument loadDocumentText(const std::string& text, const QString& name);

/// Runs the FAST_RUN pipeline on `graph` (explain data on) and returns the trace;
/// Scan buffers sized as PyTensor's C backend sizes them with `pytensorBuffers`
/// (--mode pytensor), else to the proven-safe minimum (exact).
std::unique_ptr<Trace> rewriteToTrace(const Graph& graph, const std::set<std::string>& exclude = {}, bool pytensorBuffers = false);

} // namespace tl
