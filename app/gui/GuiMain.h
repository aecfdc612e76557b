#pragma once
// The GUI entry point: `tensorlens` with no subcommand.

namespace tl::gui {

/// Creates the QApplication and the main window and runs the event loop.
/// Arguments: an optional file to open (JSON graph, JSON trace, dprint text)
/// and `--example NAME` for a built-in example. Returns the exit code.
int runGui(int argc, char** argv);

} // namespace tl::gui
