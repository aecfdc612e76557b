// tensorlens missed PT_TRACE.json | COMPILED.json | LISTING.txt [--markdown | --json] [-o OUT]
//                   [--mode exact|pytensor] [--exclude X]... [--include X]... [--inputs IN.json | --seed N]
//                   [--no-run] [--source MODULE.py] [--name NAME]
#include "cli/Args.h"
#include "cli/Commands.h"
#include "cli/Output.h"
#include "cli/PipelineArgs.h"

#include "compare/Comparison.h"
#include "compare/PyTensorDocument.h"
#include "compare/Report.h"
#include "io/JsonFormat.h"
#include "io/JsonValues.h"
#include "rewrite/Pipeline.h"

#include <fstream>
#include <iostream>
#include <sstream>

namespace tl::cli {

namespace {

std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path + ": cannot open the file");
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

} // namespace

int cmdMissed(const std::vector<std::string>& argv) {
    Args args(argv, {"markdown", "json", "no-run", "help"},
              {"output", "mode", "exclude", "include", "inputs", "seed", "source", "name"});
    if (args.positional().size() != 1) throw UsageError("give one PyTensor trace, compiled graph or dprint listing");
    if (args.has("markdown") && args.has("json")) throw UsageError("give --markdown or --json, not both");
    if (args.value("inputs") && args.value("seed")) throw UsageError("give --inputs or --seed, not both");
    const PipelineOptions po = pipelineOptionsFrom(args, Pipeline::fastRun());

    PyTensorDocument doc = loadPyTensorDocument(args.positional()[0]);
    for (const std::string& n : doc.notes) std::cerr << "tensorlens missed: " << n << "\n";

    CompareOptions opts;
    opts.bufferMode = po.bufferMode;
    opts.exclude = po.exclude;
    opts.include = po.include;
    opts.run = !args.has("no-run");
    opts.seed = static_cast<uint64_t>(args.intValue("seed", 0));
    const Graph& inputsOf = doc.trace ? doc.trace->original() : *doc.compiled;
    if (auto in = args.value("inputs")) opts.inputs = inputsFromJson(readJsonFile(*in), inputsOf, *in);

    Comparison c = doc.trace ? compareWithPyTensor(*doc.trace, opts) : compareCompiledGraph(*doc.compiled, opts);
    c.program = args.value("name").value_or(doc.name);

    std::string text;
    if (args.has("json")) {
        text = canonicalDump(comparisonJson(c));
    } else if (args.has("markdown")) {
        MarkdownOptions mo;
        if (auto src = args.value("source")) mo.source = readText(*src);
        text = comparisonMarkdown(c, mo);
    } else {
        text = comparisonText(c);
    }
    writeTextOutput(args.value("output"), text);
    // A report is still written, but a script must not take it for a clean comparison.
    if (c.outputsCompared && !c.outputsAgree) {
        std::cerr << "tensorlens missed: the two compiled graphs compute different outputs (largest difference "
                  << c.maxAbsDifference << ", " << c.differenceNote << ")\n";
        return 1;
    }
    return 0;
}

} // namespace tl::cli
