#pragma once
// The shapes of a rewrite (STYLE.md pattern 3): a node rewrite has a match()
// that never mutates and returns everything apply() needs, and an apply() that
// never re-matches. A graph pass sees the whole graph at once.
#include "ir/Rewriter.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tl {

/// Options every rewrite may read.
struct RewriteOptions {
    /// ScanSaveMem sizing: "exact" (default, proven-safe minimum) or "pytensor" (C backend's +1 row).
    enum class BufferMode { Exact, PyTensor } bufferMode = BufferMode::Exact;
    /// Record why rewrites did not fire.
    bool explain = false;
    /// Polymorphic so a pass that runs a nested pipeline (scan_inner_rewrites) can
    /// find the PipelineOptions it was given and honour its exclusions.
    virtual ~RewriteOptions() = default;
};

/// What match() found; each rewrite derives its own.
struct RewriteMatch {
    virtual ~RewriteMatch() = default;
};

/// Result of match(): a match, or the reason there is none.
struct MatchResult {
    std::unique_ptr<RewriteMatch> match;
    std::string whyNot;
    static MatchResult fail(std::string why) { return MatchResult{nullptr, std::move(why)}; }
    template <typename M> static MatchResult ok(std::unique_ptr<M> m) { return MatchResult{std::move(m), {}}; }
    explicit operator bool() const { return match != nullptr; }
};

class NodeRewrite {
public:
    virtual ~NodeRewrite() = default;
    /// The name users know it by (PyTensor's name where it has one).
    virtual std::string_view name() const = 0;
    virtual std::vector<std::string> tags() const { return {}; }
    /// The op kinds this rewrite can fire on; the driver only offers those nodes.
    virtual std::vector<OpKind> rootKinds() const = 0;
    /// Never mutates the graph.
    virtual MatchResult match(const Node& node, const RewriteOptions& options) const = 0;
    /// Applies a match found on `node` by this rewrite's match().
    virtual void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions& options) const = 0;
};

class GraphPass {
public:
    virtual ~GraphPass() = default;
    virtual std::string_view name() const = 0;
    virtual std::vector<std::string> tags() const { return {}; }
    /// Runs over the graph; returns true when it changed anything. Each change
    /// is wrapped in rewriter.beginRewrite/endRewrite so the trace sees one step per change.
    virtual bool run(Rewriter& rewriter, const RewriteOptions& options) = 0;
};

} // namespace tl
