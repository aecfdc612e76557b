// Graphviz `dot` in-process: build the graph with cgraph, gvLayout, read
// ND_coord / ED_spl / GD_bb back. Every call is under graphvizMutex().
#include "layout/PartLayout.h"

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <cstdio>
#include <string>

namespace tl {

std::mutex& graphvizMutex() {
    static std::mutex m;
    return m;
}

namespace {
GVC_t* context() {
    // Created once and kept: gvContext loads the plugin configuration, which is slow.
    static GVC_t* gvc = gvContext();
    return gvc;
}

char* cstr(const char* s) { return const_cast<char*>(s); }

std::string inches(double points) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", points / 72.0);
    return buf;
}
} // namespace

PartOutput layoutWithDot(const PartInput& in, const std::atomic<bool>* cancel) {
    PartOutput out;
    std::lock_guard<std::mutex> lock(graphvizMutex());
    if (cancel && cancel->load()) return out;
    GVC_t* gvc = context();
    if (!gvc) return out;
    Agraph_t* g = agopen(cstr("part"), Agdirected, nullptr);
    agattr(g, AGRAPH, cstr("rankdir"), cstr("TB"));
    agattr(g, AGRAPH, cstr("nodesep"), cstr("0.3"));
    agattr(g, AGRAPH, cstr("ranksep"), cstr("0.45"));
    Agsym_t* shape = agattr(g, AGNODE, cstr("shape"), cstr("box"));
    Agsym_t* fixed = agattr(g, AGNODE, cstr("fixedsize"), cstr("true"));
    Agsym_t* label = agattr(g, AGNODE, cstr("label"), cstr(""));
    Agsym_t* width = agattr(g, AGNODE, cstr("width"), cstr("0.75"));
    Agsym_t* height = agattr(g, AGNODE, cstr("height"), cstr("0.5"));
    (void)shape;
    (void)fixed;
    (void)label;
    std::vector<Agnode_t*> nodes(in.sizes.size());
    for (size_t i = 0; i < in.sizes.size(); ++i) {
        const std::string name = "n" + std::to_string(i);
        nodes[i] = agnode(g, cstr(name.c_str()), 1);
        agxset(nodes[i], width, cstr(inches(in.sizes[i].width()).c_str()));
        agxset(nodes[i], height, cstr(inches(in.sizes[i].height()).c_str()));
    }
    // A body's placeholders are not pinned to rank=min/max rows here: dot's
    // mincross (decompose) crashes on such rows in some bodies. The layered
    // layout pins them (PartInput::pins); dot places them by their edges.
    std::vector<Agedge_t*> edges(in.edges.size(), nullptr);
    for (size_t k = 0; k < in.edges.size(); ++k) {
        auto [a, b] = in.edges[k];
        if (a < 0 || b < 0 || a == b) continue;
        const std::string name = "e" + std::to_string(k);
        edges[k] = agedge(g, nodes[a], nodes[b], cstr(name.c_str()), 1);
    }
    if (gvLayout(gvc, g, "dot") != 0) {
        agclose(g);
        return out;
    }
    const boxf bb = GD_bb(g);
    const double top = bb.UR.y;
    auto toQt = [&](pointf p) { return QPointF(p.x - bb.LL.x, top - p.y); };
    out.centers.resize(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i) out.centers[i] = toQt(ND_coord(nodes[i]));
    out.paths.resize(edges.size());
    for (size_t k = 0; k < edges.size(); ++k) {
        Agedge_t* e = edges[k];
        if (!e || !ED_spl(e) || ED_spl(e)->size == 0) {
            if (e) {
                auto [a, b] = in.edges[k];
                out.paths[k] = verticalBezier(out.centers[a] + QPointF(0, in.sizes[a].height() / 2),
                                              out.centers[b] - QPointF(0, in.sizes[b].height() / 2));
            }
            continue;
        }
        QPainterPath path;
        for (int s = 0; s < ED_spl(e)->size; ++s) {
            const bezier& bz = ED_spl(e)->list[s];
            if (bz.size == 0) continue;
            if (bz.sflag) path.moveTo(toQt(bz.sp)), path.lineTo(toQt(bz.list[0]));
            else path.moveTo(toQt(bz.list[0]));
            for (int p = 1; p + 2 < bz.size; p += 3) path.cubicTo(toQt(bz.list[p]), toQt(bz.list[p + 1]), toQt(bz.list[p + 2]));
            if (bz.eflag) path.lineTo(toQt(bz.ep));
        }
        out.paths[k] = path;
    }
    out.size = QSizeF(bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y);
    gvFreeLayout(gvc, g);
    agclose(g);
    out.ok = true;
    return out;
}

} // namespace tl
