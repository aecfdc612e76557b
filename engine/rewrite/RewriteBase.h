#pragma once
// The shapes of a rewrite (docs/conventions.md#rewrites): a node rewrite has a match()
// that never mutates and returns everything apply() needs, and an apply() that
// never re-matches. A graph pass sees the whole graph at once.
#include "ir/Rewriter.h"

#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
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

/// Result of match(): a match, or the reason there is none. Most nodes a rewrite
/// is offered do not match, so a reason costs nothing unless it is recorded: a
/// literal is kept as a pointer, and a composed reason is built by a callback
/// only when the options ask for explanations.
class MatchResult {
public:
    std::unique_ptr<RewriteMatch> match;

    static MatchResult fail(const char* why) {
        MatchResult r;
        r.m_literal = why;
        return r;
    }
    template <typename ReasonFn>
        requires std::is_invocable_v<ReasonFn>
    static MatchResult fail(const RewriteOptions& options, ReasonFn&& why) {
        MatchResult r;
        if (options.explain) r.m_built = why();
        return r;
    }
    template <typename M> static MatchResult ok(std::unique_ptr<M> m) {
        MatchResult r;
        r.match = std::move(m);
        return r;
    }
    explicit operator bool() const { return match != nullptr; }
    /// Why there is no match (empty when it was not built, or for a match).
    std::string_view whyNot() const { return m_literal ? std::string_view(m_literal) : std::string_view(m_built); }

private:
    const char* m_literal = nullptr;
    std::string m_built;
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
    /// True when match() looks at the other readers of the node's inputs (a Cholesky
    /// factor of a determinant's matrix): a worklist driver then offers the node again
    /// when a rewrite gives one of its inputs a new reader, as PyTensor's repeated
    /// sweeps over the whole graph would meet it again.
    virtual bool matchReadsSiblings() const { return false; }
};

class GraphPass {
public:
    virtual ~GraphPass() = default;
    virtual std::string_view name() const = 0;
    virtual std::vector<std::string> tags() const { return {}; }
    /// Runs over the graph; returns true when it changed anything. Each change is
    /// one RewriteScope, so the trace sees one step per change; each candidate it
    /// leaves alone is reported with Rewriter::notifyMatchFailure.
    virtual bool run(Rewriter& rewriter, const RewriteOptions& options) = 0;
};

} // namespace tl
