#pragma once
// The picture of every position the canvas has shown, so going back (or jumping
// to a step seen before) shows exactly what was shown there, whatever was seen
// in between. Each picture is stored as what differs from the picture it was
// derived from (the one on screen when it was made): a step moves a handful of
// boxes, so hundreds of steps of a 5,000-node graph cost little more than one.
#include "layout/GraphLayout.h"

#include <map>
#include <optional>

namespace tl {

class LayoutHistory {
public:
    /// Records `layout` of `vg` as the picture of `position`, derived from the
    /// picture of `parent` (-1: none, a fresh layout). `parentPicture` is
    /// picture(parent) when the caller has it (it is not looked up again).
    void store(int position, int parent, const VisualGraph& vg, const GraphLayout& layout, const PositionCache* parentPicture = nullptr);
    bool has(int position) const { return m_records.count(position) != 0; }
    /// Every rect and route drawn at `position` (and, harmlessly, those of the
    /// pictures it derives from under keys it does not draw).
    PositionCache picture(int position) const;
    /// Turns `shown`, a picture that agrees with picture(shownAt) on every key
    /// that has, into one that agrees with picture(position), when one position
    /// was derived from the other (a step either way between pictures shown
    /// before): only what that step changed is touched. False (and `shown`
    /// untouched) when they are not neighbours.
    bool stepPicture(int position, int shownAt, PositionCache& shown) const;
    /// The position `position` was derived from (-1: a fresh layout, or unknown).
    int parentOf(int position) const;
    void clear() { m_records.clear(); }
    size_t size() const { return m_records.size(); }
    /// Stored entries (rects and routes) over all pictures: what the history costs.
    size_t entries() const;

private:
    struct Record {
        int parent = -1;
        // By interned key (keyIdOf).
        std::unordered_map<int, QRectF> rects;
        std::unordered_map<int, QPainterPath> paths;
        // What the parent's picture had under the keys above (none: it had nothing).
        std::unordered_map<int, std::optional<QRectF>> rectsBefore;
        std::unordered_map<int, std::optional<QPainterPath>> pathsBefore;
    };
    std::map<int, Record> m_records;
};

/// The layout of `vg` as `picture` drew it: every node and route where the
/// picture has it (the picture of a position stored for this very graph holds
/// them all; a route it lacks is drawn between the boxes).
GraphLayout layoutFromPicture(const VisualGraph& vg, const PositionCache& picture);

/// True when `picture` has a rect for every node of `vg`.
bool pictureCovers(const VisualGraph& vg, const PositionCache& picture);

} // namespace tl
