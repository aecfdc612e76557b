#pragma once
// Factories of every rewrite and pass, one per file under rewrite/ (STYLE.md
// pattern 3). The pipelines in FastRunPipeline.cpp list them in order.
#include "rewrite/RewriteBase.h"

#include <memory>

namespace tl {

} // namespace tl
