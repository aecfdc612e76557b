#pragma once
// A step's diff mapped onto the visual graph: which boxes are new, which are
// ghosts, which edges were rewired, where the badges go, and the banner text.
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
        enum Kind : uint8_t { Shape, Merged, Fused } kind = Shape;
        int node = -1;   // visual node it sits on
        QString text;    // "sit_sot-0: (11, 7) → (1, 7)"
        QString tooltip;
    };
    std::vector<Badge> badges;
    QStringList banner;  // title, buffer bytes before -> after, merged states
};

/// Highlights of `diff` (null: position 0, nothing to highlight) on `vg`.
/// `stepCount` is used for the banner ("step 3 / 12").
Highlights computeHighlights(const VisualGraph& vg, const StepDiff* diff, int stepCount, const QString& source = {});

} // namespace tl
