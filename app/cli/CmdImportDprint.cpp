// tensorlens import-dprint FILE.txt [-o OUT.json] [--inputs IN.json]
// Reads PyTensor debugprint text (io/DPrintImport.h) and writes the graph as JSON;
// --inputs gives the types of inputs the listing prints without (their values' dtypes
// and ranks, every dim unknown).
// What was inferred or imported as opaque goes to stderr, one note a line, so the
// JSON on stdout (without -o) stays clean.
#include "cli/Args.h"
#include "cli/Commands.h"
#include "cli/Output.h"

#include "io/DPrintImport.h"
#include "io/JsonGraph.h"
#include "io/JsonValues.h"

#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

namespace tl::cli {

int cmdImportDprint(const std::vector<std::string>& argv) {
    Args args(argv, {"help", "quiet"}, {"output", "inputs"});
    if (args.positional().size() != 1) throw UsageError("give one dprint text file (or - for standard input)");
    const std::string file = args.positional()[0];
    std::string text;
    if (file == "-") {
        text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    } else {
        std::ifstream in(file, std::ios::binary);
        if (!in) throw std::runtime_error("cannot read " + file);
        std::ostringstream ss;
        ss << in.rdbuf();
        text = ss.str();
    }
    DPrintInputTypes types;
    if (auto in = args.value("inputs")) types = valueTypes(readJsonFile(*in), *in);
    DPrintImport imp = importDprint(text, file == "-" ? std::string("<stdin>") : file, types);
    if (!args.has("quiet"))
        for (const std::string& n : imp.notes) std::cerr << "note: " << n << "\n";
    writeTextOutput(args.value("output"), graphToJsonText(*imp.graph));
    return 0;
}

} // namespace tl::cli
