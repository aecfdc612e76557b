// tensorlens: the GUI by default, headless subcommands for batch work.
#include "cli/Args.h"
#include "cli/Commands.h"

#ifdef TL_WITH_GUI
#include "gui/GuiMain.h"
#endif

#include <cstring>
#include <filesystem>
#include <iostream>

namespace {

void printOverview() {
    std::cout << "tensorlens - see how a tensor-graph compiler rewrites a program\n\n"
                 "Usage:\n"
                 "  tensorlens [FILE.json | FILE.txt] [--example NAME]   open the GUI\n"
                 "  tensorlens COMMAND [options]                         run headless\n\n"
                 "Commands:\n";
    for (const auto& c : tl::cli::commands())
        std::cout << "  " << c.name << std::string(16 - std::strlen(c.name), ' ') << c.summary << "\n";
    std::cout << "\n`tensorlens COMMAND --help` describes a command. Exit codes: 0 ok, 1 failure, 2 usage error.\n";
}

#ifndef TL_WITH_GUI
// The built-in example written to a temporary JSON file, for the text commands.
std::string exampleFile(const std::string& name) {
    const std::string path = (std::filesystem::temp_directory_path() / ("tensorlens-" + name + ".json")).string();
    tl::cli::cmdExample({name, "-o", path});
    return path;
}
#endif

} // namespace

int main(int argc, char** argv) {
    if (argc >= 2) {
        const std::string first = argv[1];
        if (first == "--help" || first == "-h" || first == "help") {
            printOverview();
            return 0;
        }
        if (const tl::cli::Command* cmd = tl::cli::findCommand(first)) {
            std::vector<std::string> args(argv + 2, argv + argc);
            for (const std::string& a : args)
                if (a == "--help" || a == "-h") {
                    std::cout << cmd->usage;
                    return 0;
                }
            try {
                return cmd->run(args);
            } catch (const tl::cli::UsageError& e) {
                std::cerr << "tensorlens " << cmd->name << ": " << e.what() << "\n\n" << cmd->usage;
                return 2;
            } catch (const std::exception& e) {
                std::cerr << "tensorlens " << cmd->name << ": error: " << e.what() << "\n";
                return 1;
            }
        }
    }
#ifdef TL_WITH_GUI
    return tl::gui::runGui(argc, argv);
#else
    // Without the GUI, `--example NAME` shows the example as text: its dprint and its outputs.
    if (argc == 3 && std::string(argv[1]) == "--example") {
        try {
            const std::string name = argv[2];
            return tl::cli::cmdPrint({"--type", exampleFile(name)}) || tl::cli::cmdRun({exampleFile(name)});
        } catch (const std::exception& e) {
            std::cerr << "tensorlens: error: " << e.what() << "\n";
            return 1;
        }
    }
    if (argc >= 2) {
        std::cerr << "tensorlens: unknown command '" << argv[1] << "' (this build has no GUI)\n";
        return 2;
    }
    printOverview();
    return 0;
#endif
}
