#include "layout/LayoutHistory.h"

namespace tl {

void LayoutHistory::store(int position, int parent, const VisualGraph& vg, const GraphLayout& layout, const PositionCache* parentPicture) {
    if (parent == position || (parent >= 0 && !has(parent))) parent = -1;
    PositionCache looked;
    const PositionCache* base = nullptr;
    if (parent >= 0) {
        if (!parentPicture) {
            looked = picture(parent);
            parentPicture = &looked;
        }
        base = parentPicture;
    }
    Record r;
    r.parent = parent;
    for (size_t i = 0; i < vg.nodes.size() && i < layout.rects.size(); ++i) {
        const int key = vg.nodes[i].keyId;
        const QRectF* was = base ? base->rect(key) : nullptr;
        if (!was || *was != layout.rects[i]) {
            r.rects[key] = layout.rects[i];
            r.rectsBefore[key] = was ? std::optional<QRectF>(*was) : std::nullopt;
        }
    }
    for (size_t e = 0; e < vg.edges.size() && e < layout.paths.size(); ++e) {
        const int key = edgeKeyId(vg.edges[e]);
        const QPainterPath* was = base ? base->path(key) : nullptr;
        if (!was || *was != layout.paths[e]) {
            r.paths[key] = layout.paths[e];
            r.pathsBefore[key] = was ? std::optional<QPainterPath>(*was) : std::nullopt;
        }
    }
    // A stored picture derived from this position's old picture would now rest on
    // a different one: it goes too (it is made again when shown).
    if (has(position))
        for (auto it = m_records.begin(); it != m_records.end();) {
            if (it->second.parent == position) it = m_records.erase(it);
            else ++it;
        }
    m_records[position] = std::move(r);
}

PositionCache LayoutHistory::picture(int position) const {
    std::vector<const Record*> chain;
    for (int p = position; p >= 0;) {
        auto it = m_records.find(p);
        if (it == m_records.end()) break;
        chain.push_back(&it->second);
        p = it->second.parent;
        if (chain.size() > m_records.size()) break;  // never loops, whatever was stored
    }
    PositionCache out;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        for (const auto& [k, r] : (*it)->rects) out.setRect(k, r);
        for (const auto& [k, p] : (*it)->paths) out.setPath(k, p);
    }
    return out;
}

bool LayoutHistory::stepPicture(int position, int shownAt, PositionCache& shown) const {
    auto at = m_records.find(position), from = m_records.find(shownAt);
    if (at == m_records.end() || from == m_records.end() || position == shownAt) return false;
    if (at->second.parent == shownAt) {
        // Forward: what `position` changed, on top.
        for (const auto& [k, r] : at->second.rects) shown.setRect(k, r);
        for (const auto& [k, p] : at->second.paths) shown.setPath(k, p);
        return true;
    }
    if (from->second.parent == position) {
        // Back: what `shownAt` changed, undone.
        for (const auto& [k, r] : from->second.rectsBefore) {
            if (r) shown.setRect(k, *r);
            else shown.eraseRect(k);
        }
        for (const auto& [k, p] : from->second.pathsBefore) {
            if (p) shown.setPath(k, *p);
            else shown.erasePath(k);
        }
        return true;
    }
    return false;
}

int LayoutHistory::parentOf(int position) const {
    auto it = m_records.find(position);
    return it == m_records.end() ? -1 : it->second.parent;
}

size_t LayoutHistory::entries() const {
    size_t n = 0;
    for (const auto& [k, r] : m_records) n += r.rects.size() + r.paths.size();
    return n;
}

namespace {
// Whether a route's end `p` touches the box `r` (a few points of slack).
bool endsOn(const QRectF& r, QPointF p) { return r.adjusted(-4, -4, 4, 4).contains(p); }
} // namespace

GraphLayout layoutFromPicture(const VisualGraph& vg, const PositionCache& picture) {
    GraphLayout out;
    out.rects.assign(vg.nodes.size(), QRectF());
    for (size_t i = 0; i < vg.nodes.size(); ++i)
        if (const QRectF* r = picture.rect(vg.nodes[i].keyId)) out.rects[i] = *r;
    out.paths.resize(vg.edges.size());
    for (size_t e = 0; e < vg.edges.size(); ++e) {
        const VEdge& ve = vg.edges[e];
        const QPainterPath* p = picture.path(edgeKeyId(ve));
        // A route kept from a picture where its ends stood elsewhere (the picture
        // this one derives from) is drawn again between the boxes where they are.
        if (p && !p->isEmpty() && endsOn(out.rects[ve.from], p->elementAt(0)) && endsOn(out.rects[ve.to], p->currentPosition())) out.paths[e] = *p;
        else out.paths[e] = routeEdge(vg, out.rects, ve);
    }
    QRectF bounds;
    for (const QRectF& r : out.rects) bounds = bounds.united(r);
    out.bounds = bounds;
    out.ok = true;
    return out;
}

bool pictureCovers(const VisualGraph& vg, const PositionCache& picture) {
    for (const VNode& n : vg.nodes)
        if (!picture.rect(n.keyId)) return false;
    return true;
}

} // namespace tl
