#include "export/Export.h"

#include "io/DPrint.h"
#include "io/GraphvizDot.h"
#include "io/JsonGraph.h"
#include "io/JsonTrace.h"
#include "scene/GraphScene.h"
#include "trace/StepDiff.h"
#include "trace/TraceReplayer.h"

#include <QApplication>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>

#include <algorithm>
#include <fstream>
#include <set>

namespace tl {

namespace {
bool endsWith(const std::string& s, const std::string& suffix) {
    if (s.size() < suffix.size()) return false;
    return std::equal(suffix.rbegin(), suffix.rend(), s.rbegin(), [](char a, char b) { return std::tolower(a) == std::tolower(b); });
}

void writeText(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    if (!out) throw std::runtime_error(path + ": cannot write");
    out << text;
    if (!out) throw std::runtime_error(path + ": write failed");
}
} // namespace

ExportFormat exportFormatForPath(const std::string& path) {
    if (endsWith(path, ".svg")) return ExportFormat::Svg;
    if (endsWith(path, ".png")) return ExportFormat::Png;
    if (endsWith(path, ".dot") || endsWith(path, ".gv")) return ExportFormat::Dot;
    if (endsWith(path, ".trace.json")) return ExportFormat::JsonTrace;
    if (endsWith(path, ".json")) return ExportFormat::JsonGraph;
    if (endsWith(path, ".txt")) return ExportFormat::DPrint;
    const auto dot = path.find_last_of('.');
    throw std::invalid_argument(path + ": unknown export format \"" + (dot == std::string::npos ? std::string() : path.substr(dot)) +
                                "\" (use .svg, .png, .dot, .json, .trace.json or .txt)");
}

void exportSceneToSvg(GraphScene& scene, const QString& path, const QString& title) {
    const QRectF source = scene.sceneRect();
    QSvgGenerator gen;
    gen.setFileName(path);
    gen.setSize(source.size().toSize());
    gen.setViewBox(QRectF(QPointF(0, 0), source.size()));
    gen.setTitle(title.isEmpty() ? "tensorlens" : title);
    gen.setDescription("Exported by tensorlens: the canvas as shown, with the step's highlights");
    QPainter p;
    if (!p.begin(&gen)) throw std::runtime_error(path.toStdString() + ": cannot write");
    p.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    scene.render(&p, QRectF(QPointF(0, 0), source.size()), source);
    p.end();
    if (!QFile::exists(path)) throw std::runtime_error(path.toStdString() + ": cannot write");
}

void exportSceneToPng(GraphScene& scene, const QString& path, double scale) {
    const QRectF source = scene.sceneRect();
    const double maxSide = std::max(source.width(), source.height());
    if (maxSide * scale > 16384) scale = 16384 / maxSide;
    QImage img((source.size() * scale).toSize().expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::white);
    QPainter p(&img);
    p.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    scene.render(&p, QRectF(QPointF(0, 0), QSizeF(img.size())), source);
    p.end();
    if (!img.save(path, "PNG")) throw std::runtime_error(path.toStdString() + ": cannot write");
}

bool ensureGuiApplication() {
    if (qobject_cast<QApplication*>(QCoreApplication::instance())) return true;
    if (QCoreApplication::instance()) return false;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    // Lives until exit: Qt keeps pointers to argc/argv.
    static int argc = 1;
    static char name[] = "tensorlens";
    static char* argv[] = {name, nullptr};
    static QApplication* app = new QApplication(argc, argv);
    (void)app;
    return true;
}

void exportScene(const Trace& trace, int step, const std::string& path, const ExportOptions& options) {
    const ExportFormat format = exportFormatForPath(path);
    const int n = static_cast<int>(trace.size());
    if (step < 0) step = n;
    if (step > n) throw std::invalid_argument("step " + std::to_string(step) + " is out of range: the trace has " + std::to_string(n) + " steps");
    if (format == ExportFormat::JsonTrace) {
        saveTrace(path, trace);
        return;
    }
    TraceReplayer replayer(trace);
    std::optional<StepDiff> diff;
    StepChanges changes;
    if (step > 0) {
        StepDiffBuilder builder(trace.steps()[step - 1], step);
        builder.collectBefore(replayer.graphAt(step - 1));
        diff = builder.finish(replayer.graphAt(step));
        // The bodies the step rewrote are highlighted in the picture as in the window.
        changes.inner = innerGraphDiffs(trace.steps()[step - 1], *diff, replayer.graphAt(step));
        changes.sameNameOpChanged = sameNameOpChanges(trace.steps()[step - 1], *diff, replayer.graphAt(step));
    }
    const Graph& g = replayer.graphAt(step);
    switch (format) {
    case ExportFormat::JsonGraph: saveGraph(path, g); return;
    case ExportFormat::DPrint: {
        DPrintOptions o;
        o.printType = options.dprintTypes;
        o.printShape = options.dprintShapes;
        o.printDestroyMap = true;
        o.printOpInfo = true;
        writeText(path, dprint(g, o));
        return;
    }
    case ExportFormat::Dot: {
        DotOptions o;
        std::set<NodeId> added;
        if (diff) added.insert(diff->added.begin(), diff->added.end());
        o.nodeAttributes = [added](const Node& node) -> std::string {
            return added.count(node.id()) ? "color=\"#1a9e3f\", penwidth=3" : std::string();
        };
        writeText(path, toDot(g, o));
        return;
    }
    default: break;
    }
    if (!ensureGuiApplication()) throw std::runtime_error("SVG/PNG export needs a QApplication, but a QCoreApplication already exists");
    auto vg = std::make_shared<VisualGraph>(buildVisualGraph(g, options.expansion, diff ? &*diff : nullptr, diff ? &changes : nullptr));
    const GraphLayout layout = layoutVisualGraph(*vg, options.layout);
    if (!layout.ok) throw std::runtime_error("layout failed");
    const Highlights h = computeHighlights(*vg, diff ? &*diff : nullptr, n, {}, diff ? &changes : nullptr);
    GraphScene scene;
    scene.setContent(vg, layout, h);
    const QString qpath = QString::fromStdString(path);
    if (format == ExportFormat::Svg) exportSceneToSvg(scene, qpath, QString("tensorlens step %1").arg(step));
    else exportSceneToPng(scene, qpath);
}

} // namespace tl
