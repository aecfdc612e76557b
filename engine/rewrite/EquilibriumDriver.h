#pragma once
// Applies a set of node rewrites until none fires (PyTensor's EquilibriumGraphRewriter,
// MLIR's greedy driver): a deduplicated worklist seeded with every node; after a
// rewrite fires, the nodes it created and the clients of what it rewired are
// offered again.
#include "rewrite/RewriteBase.h"

#include <string>
#include <vector>

namespace tl {

class EquilibriumDriver : public GraphPass {
public:
    EquilibriumDriver(std::string name, std::vector<std::string> tags, std::vector<const NodeRewrite*> rewrites,
                      int maxRewrites = 1000000);
    std::string_view name() const override { return m_name; }
    std::vector<std::string> tags() const override { return m_tags; }
    bool run(Rewriter& rewriter, const RewriteOptions& options) override;

    /// Rewrites this driver applies (a pipeline disables them by name or tag).
    const std::vector<const NodeRewrite*>& rewrites() const { return m_rewrites; }
    void setEnabled(std::vector<const NodeRewrite*> enabled) { m_enabled = std::move(enabled); }
    /// True when the last run stopped because nothing fired (not by hitting the cap).
    bool converged() const { return m_converged; }
    int firedCount() const { return m_fired; }

private:
    std::string m_name;
    std::vector<std::string> m_tags;
    std::vector<const NodeRewrite*> m_rewrites;
    std::vector<const NodeRewrite*> m_enabled;
    int m_maxRewrites;
    bool m_converged = true;
    int m_fired = 0;
};

} // namespace tl
