#pragma once
// The pipeline options shared by `rewrite` and `verify`.
#include "cli/Args.h"
#include "rewrite/Pipeline.h"

namespace tl::cli {

/// --mode, --exclude, --include, --explain; UsageError for an unknown mode or rewrite name.
PipelineOptions pipelineOptionsFrom(const Args& args, const Pipeline& pipeline);

} // namespace tl::cli
