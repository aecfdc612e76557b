#pragma once
// Opening what a user drops on the window: a JSON graph, a JSON trace, or
// (when the importer is built in) PyTensor dprint text. Errors are
// FormatError naming the file and the place (JSON path, line and column).
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
};

/// Reads `path`; throws FormatError (or std::runtime_error for I/O) with a message naming the place.
LoadedDocument loadDocument(const QString& path);
/// The same from text already in memory (`name` is used in messages).
LoadedDocument loadDocumentText(const std::string& text, const QString& name);

/// Runs the FAST_RUN pipeline on `graph` (explain data on) and returns the trace.
std::unique_ptr<Trace> rewriteToTrace(const Graph& graph, const std::set<std::string>& exclude = {});

} // namespace tl
