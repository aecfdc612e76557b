#pragma once
// Export: SVG and PNG render the canvas scene itself (QSvgGenerator / QImage),
// so the file shows exactly what the window shows, highlights included; DOT,
// JSON and dprint text come from the engine. `exportScene` does the same
// without a window for `tensorlens export`.
#include "layout/GraphLayout.h"
#include "trace/Trace.h"

#include <QString>

#include <string>

namespace tl {

class GraphScene;

enum class ExportFormat : uint8_t { Svg, Png, Dot, JsonGraph, JsonTrace, DPrint };

/// From the file name: .svg, .png, .dot/.gv, .json (graph; "*.trace.json": trace), .txt (dprint).
/// Throws std::invalid_argument naming the extension when unknown.
ExportFormat exportFormatForPath(const std::string& path);

/// Renders the whole scene (graph, badges, banner) into an SVG file. Throws std::runtime_error on I/O errors.
void exportSceneToSvg(GraphScene& scene, const QString& path, const QString& title = {});
/// Renders the scene into a PNG at `scale` (clamped so no side exceeds 16384 px).
void exportSceneToPng(GraphScene& scene, const QString& path, double scale = 2.0);

struct ExportOptions {
    ExpansionState expansion;
    LayoutSettings layout;
    /// Text of the dprint export.
    bool dprintTypes = false;
    bool dprintShapes = true;
};

/// Headless export of position `step` of `trace` (0 = original graph, -1 = the last
/// step) to `path`, format from the extension. SVG/PNG lay the graph out
/// synchronously and render the same scene the window would, with the highlights
/// of step `step`. Needs a QApplication for fonts: when there is no
/// QCoreApplication yet, one is created on the "offscreen" platform (so no display
/// is needed); a plain QCoreApplication created by the caller is not enough.
/// Throws std::invalid_argument (bad step / extension) or std::runtime_error (I/O).
void exportScene(const Trace& trace, int step, const std::string& path, const ExportOptions& options = {});

/// Makes sure a QApplication exists (see exportScene); returns false when a
/// non-GUI QCoreApplication is in the way.
bool ensureGuiApplication();

} // namespace tl
