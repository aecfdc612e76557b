#include "cli/PipelineArgs.h"

namespace tl::cli {

PipelineOptions pipelineOptionsFrom(const Args& args, const Pipeline& pipeline) {
    PipelineOptions opts;
    const std::string mode = args.value("mode").value_or("exact");
    if (mode == "exact") opts.bufferMode = RewriteOptions::BufferMode::Exact;
    else if (mode == "pytensor") opts.bufferMode = RewriteOptions::BufferMode::PyTensor;
    else throw UsageError("--mode must be exact or pytensor, got '" + mode + "'");
    for (const std::string& e : args.values("exclude")) opts.exclude.insert(e);
    for (const std::string& i : args.values("include")) opts.include.insert(i);
    opts.explain = args.has("explain");
    auto unknown = pipeline.unknownNames(opts);
    if (!unknown.empty())
        throw UsageError("unknown rewrite, pass or tag '" + unknown.front() + "' (see `tensorlens rewrite --list`)");
    return opts;
}

} // namespace tl::cli
