#pragma once
// What `tensorlens missed` and the window's comparison read: a trace recorded in
// PyTensor (both halves of the comparison), a compiled graph saved from PyTensor, or
// dprint text pasted from an issue (the second half only).
#include "ir/Graph.h"
#include "trace/Trace.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tl {

struct PyTensorDocument {
    enum class Kind { Trace, Graph, DPrint } kind = Kind::Graph;
    std::unique_ptr<Trace> trace;     ///< Kind::Trace
    std::unique_ptr<Graph> compiled;  ///< Kind::Graph and Kind::DPrint
    std::vector<std::string> notes;   ///< what the dprint importer inferred
    std::string name;                 ///< the program's name: the file's stem ("seed_rop" for seed_rop.trace.json)
};

/// Reads `text`: JSON ({"format": "tensorlens-trace"} or "tensorlens-graph") or dprint
/// text. `sourceName` names it in errors and gives the program's name. Throws
/// FormatError naming the place on bad input.
PyTensorDocument readPyTensorDocument(std::string_view text, const std::string& sourceName);

/// Reads a file (see readPyTensorDocument); std::runtime_error when it cannot be read.
PyTensorDocument loadPyTensorDocument(const std::string& path);

} // namespace tl
