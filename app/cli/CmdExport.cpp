// tensorlens export FILE | --trace T.json | --example NAME [--step N] [--rewrite ...] -o OUT.(svg|png|dot|json|trace.json|txt)
//
// SVG and PNG are the window's own scene (ui/export), rendered offscreen, so
// this command exists only in GUI builds; it needs no display.
#include "cli/Args.h"
#include "cli/Commands.h"

#ifdef TL_WITH_GUI
#include "cli/PipelineArgs.h"

#include "builder/Examples.h"
#include "export/Export.h"
#include "session/FileLoader.h"

#include <QApplication>

#include <iostream>
#include <memory>
#endif

namespace tl::cli {

#ifdef TL_WITH_GUI
namespace {

// The document to export from: a trace as recorded, or a graph (file, example)
// as a trace of zero steps.
LoadedDocument openSource(const Args& args) {
    const int given = static_cast<int>(args.positional().size()) + (args.value("trace") ? 1 : 0) + (args.value("example") ? 1 : 0);
    if (given != 1) throw UsageError("give exactly one of FILE, --trace TRACE.json or --example NAME");
    LoadedDocument doc;
    if (auto name = args.value("example")) {
        doc.trace = std::make_unique<Trace>(buildExample(*name));
        doc.kind = "graph";
        return doc;
    }
    doc = loadDocument(QString::fromStdString(args.value("trace") ? *args.value("trace") : args.positional()[0]));
    if (args.value("trace") && doc.kind != "trace") throw UsageError(*args.value("trace") + " is not a trace file");
    return doc;
}

} // namespace

int cmdExport(const std::vector<std::string>& argv) {
    Args args(argv, {"rewrite", "explain", "types", "no-shapes", "help"},
              {"output", "trace", "example", "step", "mode", "exclude", "include"});
    const auto out = args.value("output");
    if (!out) throw UsageError("give -o OUT.(svg|png|dot|json|trace.json|txt)");
    ExportFormat format;
    try {
        format = exportFormatForPath(*out);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    LoadedDocument doc = openSource(args);
    for (const QString& note : doc.notes) std::cerr << "tensorlens export: " << note.toStdString() << "\n";

    // A graph has no steps to show: --rewrite (or asking for a step) runs the
    // FAST_RUN pipeline first, as the window does when it opens a graph.
    const bool rewrite = args.has("rewrite") || args.value("step") || args.value("mode") || !args.values("exclude").empty() ||
                         !args.values("include").empty();
    if (doc.kind != "trace" && rewrite) {
        const Pipeline pipeline = Pipeline::fastRun();
        const PipelineOptions opts = pipelineOptionsFrom(args, pipeline);
        auto graph = doc.trace->original().clone();
        auto trace = std::make_unique<Trace>(graph->clone());
        pipeline.run(*graph, opts, trace.get());
        doc.trace = std::move(trace);
    } else if (doc.kind == "trace" && (args.has("rewrite") || args.value("mode") || !args.values("exclude").empty() ||
                                       !args.values("include").empty())) {
        throw UsageError("--rewrite, --mode, --exclude and --include rewrite a graph; a trace is exported as recorded");
    }

    const long long n = static_cast<long long>(doc.trace->size());
    const long long step = args.intValue("step", n);
    if (step < 0 || step > n) throw UsageError("--step " + std::to_string(step) + " is out of range: steps 0.." + std::to_string(n));
    ExportOptions options;
    options.dprintTypes = args.has("types");
    options.dprintShapes = !args.has("no-shapes");
    // SVG and PNG draw the scene, which needs a QApplication (fonts); owned here so
    // it is gone before static destructors run. Offscreen unless the caller chose a platform.
    int argc = 1;
    char name[] = "tensorlens";
    char* argvQt[] = {name, nullptr};
    std::unique_ptr<QApplication> app;
    if ((format == ExportFormat::Svg || format == ExportFormat::Png) && !QCoreApplication::instance()) {
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
        app = std::make_unique<QApplication>(argc, argvQt);
    }
    exportScene(*doc.trace, static_cast<int>(step), *out, options);
    std::cerr << "tensorlens export: step " << step << " of " << n << " -> " << *out << "\n";
    return 0;
}
#else
int cmdExport(const std::vector<std::string>&) {
    throw std::runtime_error("export renders the window's scene and needs a GUI build (-DTL_BUILD_GUI=ON); "
                             "`tensorlens print` and `tensorlens rewrite` write dprint text and JSON without one");
}
#endif

} // namespace tl::cli
