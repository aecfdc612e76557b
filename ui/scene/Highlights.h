#pragma once
// A step's diff mapped onto the visual graph: which boxes are new, which are
// ghosts, which edges were rewired, where the badges go, and the banner text,
// in the outer graph and inside every expanded body alike.
#include "layout/VisualGraph.h"
#include "trace/StepDiff.h"

#include <QString>
#include <QStringList>

#include <unordered_set>
#include <vector>

namespace tl {

struct Highlights {
    std::unordered_set<int> added, ghosts, opChanged, fused;  // visual node indices
    std::unordered_set<int> rewiredEdges;                     // visual edge indices
    struct Badge {
        enum Kind : uint8_t { Shape, Merged, Fused, Fact } kind = Shape;
        int node = -1;   // visual node it sits on
        QString text;    // "sit_sot-0: (11, 7) → (1, 7)"
        QString tooltip;
    };
    std::vector<Badge> badges;
    QStringList banner;  // title, buffer bytes before -> after, merged states
    /// The step changed something inside a body (drawn or collapsed).
    int bodyChanges = 0;
    bool empty() const { return added.empty() && ghosts.empty() && opChanged.empty() && rewiredEdges.empty() && badges.empty(); }
};

/// Highlights of `diff` and its body `changes` (null diff: position 0, nothing to
/// highlight) on `vg`. `stepCount` is used for the banner ("step 3 / 12");
/// `comparedWith` >= 0 titles the banner as the changes since that position.
Highlights computeHighlights(const VisualGraph& vg, const StepDiff* diff, int stepCount, const QString& source = {},
                             const StepChanges* changes = nullptr, int comparedWith = -1);

} // namespace tl
