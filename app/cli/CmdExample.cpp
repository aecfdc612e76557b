// tensorlens example --list | NAME -o FILE.json
#include "cli/Args.h"
#include "cli/Commands.h"
#include "cli/Output.h"

#include "builder/Examples.h"
#include "io/JsonGraph.h"

#include <iostream>

namespace tl::cli {

int cmdExample(const std::vector<std::string>& argv) {
    Args args(argv, {"list", "help"}, {"output"});
    if (args.has("list")) {
        for (const Example& e : examples()) std::cout << e.name << "\t" << e.description << "\n";
        return 0;
    }
    if (args.positional().size() != 1) throw UsageError("give one example name (or --list)");
    auto graph = buildExample(args.positional()[0]);
    writeTextOutput(args.value("output"), graphToJsonText(*graph));
    return 0;
}

} // namespace tl::cli
