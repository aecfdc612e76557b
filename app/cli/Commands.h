#pragma once
// The headless subcommands of `tensorlens`, one file each (app/cli/Cmd*.cpp).
#include <string>
#include <vector>

namespace tl::cli {

struct Command {
    const char* name;
    const char* summary;
    const char* usage;  // full --help text
    int (*run)(const std::vector<std::string>& args);
};

/// Every subcommand, in the order `tensorlens --help` lists them.
const std::vector<Command>& commands();
const Command* findCommand(const std::string& name);

int cmdExample(const std::vector<std::string>& args);
int cmdRun(const std::vector<std::string>& args);
int cmdPrint(const std::vector<std::string>& args);
int cmdRewrite(const std::vector<std::string>& args);
int cmdTrace(const std::vector<std::string>& args);
int cmdVerify(const std::vector<std::string>& args);
int cmdExport(const std::vector<std::string>& args);
int cmdImportDprint(const std::vector<std::string>& args);
int cmdMissed(const std::vector<std::string>& args);

} // namespace tl::cli
