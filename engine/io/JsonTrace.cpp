#include "io/JsonTrace.h"

#include "io/JsonFormat.h"
#include "io/JsonGraph.h"
#include "ops/OpFactory.h"
#include "trace/TraceReplayer.h"

#include <fstream>
#include <limits>
#include <sstream>

namespace tl {

using nlohmann::json;

namespace {
constexpr int64_t kMaxId = std::numeric_limits<int64_t>::max() / 4;

std::optional<GraphEdit::Kind> parseEditKind(const std::string& s) {
    for (auto k : {GraphEdit::Kind::CreateNode, GraphEdit::Kind::EraseNode, GraphEdit::Kind::AddConstant,
                   GraphEdit::Kind::EraseConstant, GraphEdit::Kind::ReplaceVariable, GraphEdit::Kind::SetInput,
                   GraphEdit::Kind::SetOutput, GraphEdit::Kind::SetOp})
        if (s == graphEditKindName(k)) return k;
    return std::nullopt;
}

json nodeToJson(const NodeSnapshot& n) {
    json j = opToJson(*n.op);
    j["id"] = n.id;
    j["inputs"] = n.inputs;
    json outs = json::array();
    for (size_t i = 0; i < n.outputIds.size(); ++i) {
        json o = {{"id", n.outputIds[i]}, {"type", typeToJson(n.outputTypes[i])}};
        if (!n.outputNames[i].empty()) o["name"] = n.outputNames[i];
        outs.push_back(std::move(o));
    }
    j["outputs"] = std::move(outs);
    return j;
}

NodeSnapshot nodeFromJson(const json& j, const std::string& p) {
    requireObject(j, p);
    NodeSnapshot n;
    n.id = requireInt(requireField(j, "id", p), jsonPath(p, "id"), 0, kMaxId);
    n.op = opFromJson(j, p);
    const json& ins = requireArray(j, "inputs", p);
    for (size_t i = 0; i < ins.size(); ++i) n.inputs.push_back(requireInt(ins[i], jsonPath(jsonPath(p, "inputs"), i), 0, kMaxId));
    const json& outs = requireArray(j, "outputs", p);
    for (size_t i = 0; i < outs.size(); ++i) {
        const std::string op = jsonPath(jsonPath(p, "outputs"), i);
        requireObject(outs[i], op);
        n.outputIds.push_back(requireInt(requireField(outs[i], "id", op), jsonPath(op, "id"), 0, kMaxId));
        n.outputTypes.push_back(typeFromJson(requireField(outs[i], "type", op), jsonPath(op, "type")));
        n.outputNames.push_back(outs[i].contains("name") ? requireString(outs[i]["name"], jsonPath(op, "name")) : "");
    }
    return n;
}

json constantToJson(const ConstantSnapshot& c) {
    json j = {{"id", c.id}, {"type", typeToJson(c.type)}};
    constantValueToJson(c.value, c.type, j);
    return j;
}

ConstantSnapshot constantFromJson(const json& j, const std::string& p) {
    requireObject(j, p);
    ConstantSnapshot c;
    c.id = requireInt(requireField(j, "id", p), jsonPath(p, "id"), 0, kMaxId);
    c.type = typeFromJson(requireField(j, "type", p), jsonPath(p, "type"));
    c.value = constantValueFromJson(j, c.type, p);
    return c;
}

json editToJson(const GraphEdit& e) {
    json j = {{"kind", graphEditKindName(e.kind)}};
    switch (e.kind) {
    case GraphEdit::Kind::CreateNode: j["node"] = nodeToJson(e.node); break;
    // Replay needs only the id (the node's op is in the step that created it, or the original graph).
    case GraphEdit::Kind::EraseNode: j["node"] = {{"id", e.node.id}}; break;
    case GraphEdit::Kind::AddConstant: j["constant"] = constantToJson(e.constant); break;
    case GraphEdit::Kind::EraseConstant: j["constant"] = {{"id", e.constant.id}}; break;
    case GraphEdit::Kind::ReplaceVariable: j["before"] = e.before; j["after"] = e.after; break;
    case GraphEdit::Kind::SetInput:
        j["node"] = e.nodeId;
        j["index"] = e.index;
        j["before"] = e.before;
        j["after"] = e.after;
        break;
    case GraphEdit::Kind::SetOutput: j["index"] = e.index; j["before"] = e.before; j["after"] = e.after; break;
    case GraphEdit::Kind::SetOp:
        j["node"] = e.nodeId;
        j["op_before"] = opToJson(*e.opBefore);
        j["op_after"] = opToJson(*e.opAfter);
        break;
    }
    return j;
}

GraphEdit editFromJson(const json& j, const std::string& p) {
    requireObject(j, p);
    const std::string kind = requireString(requireField(j, "kind", p), jsonPath(p, "kind"));
    auto k = parseEditKind(kind);
    if (!k) throw FormatError(jsonPath(p, "kind"), "unknown edit kind \"" + kind + "\"");
    GraphEdit e;
    e.kind = *k;
    auto id = [&](const char* key) { return requireInt(requireField(j, key, p), jsonPath(p, key), -1, kMaxId); };
    switch (e.kind) {
    case GraphEdit::Kind::CreateNode: e.node = nodeFromJson(requireField(j, "node", p), jsonPath(p, "node")); break;
    case GraphEdit::Kind::EraseNode: {
        const std::string np = jsonPath(p, "node");
        requireObject(requireField(j, "node", p), np);
        e.node.id = requireInt(requireField(j["node"], "id", np), jsonPath(np, "id"), 0, kMaxId);
        break;
    }
    case GraphEdit::Kind::AddConstant: e.constant = constantFromJson(requireField(j, "constant", p), jsonPath(p, "constant")); break;
    case GraphEdit::Kind::EraseConstant: {
        const std::string cp = jsonPath(p, "constant");
        requireObject(requireField(j, "constant", p), cp);
        e.constant.id = requireInt(requireField(j["constant"], "id", cp), jsonPath(cp, "id"), 0, kMaxId);
        break;
    }
    case GraphEdit::Kind::ReplaceVariable: e.before = id("before"); e.after = id("after"); break;
    case GraphEdit::Kind::SetInput:
        e.nodeId = id("node");
        e.index = static_cast<int>(requireInt(requireField(j, "index", p), jsonPath(p, "index"), 0, 1 << 20));
        e.before = id("before");
        e.after = id("after");
        break;
    case GraphEdit::Kind::SetOutput:
        e.index = static_cast<int>(requireInt(requireField(j, "index", p), jsonPath(p, "index"), 0, 1 << 20));
        e.before = id("before");
        e.after = id("after");
        break;
    case GraphEdit::Kind::SetOp:
        e.nodeId = id("node");
        e.opBefore = opFromJson(requireField(j, "op_before", p), jsonPath(p, "op_before"));
        e.opAfter = opFromJson(requireField(j, "op_after", p), jsonPath(p, "op_after"));
        break;
    }
    return e;
}
} // namespace

json opToJson(const Op& op) {
    json j = {{"op", std::string(opKindName(op.kind()))}, {"op_name", op.name()}, {"params", op.params()}};
    if (auto inner = op.innerGraph()) j["inner"] = graphBodyToJson(*inner);
    return j;
}

OpPtr opFromJson(const json& j, const std::string& path) {
    requireObject(j, path);
    const std::string kindName = requireString(requireField(j, "op", path), jsonPath(path, "op"));
    auto kind = parseOpKind(kindName);
    if (!kind) throw FormatError(jsonPath(path, "op"), "unknown op kind \"" + kindName + "\"");
    std::shared_ptr<const Graph> inner;
    if (j.contains("inner")) inner = graphBodyFromJson(j["inner"], jsonPath(path, "inner"));
    try {
        OpPtr op = makeOp(*kind, j.contains("params") ? j["params"] : json::object(), inner);
        if (!op) throw std::invalid_argument("no op");
        return op;
    } catch (const FormatError&) {
        throw;
    } catch (const std::exception& e) {
        throw FormatError(jsonPath(path, "params"), "cannot build the " + kindName + " op: " + e.what());
    }
}

json traceToJson(const Trace& trace) {
    json steps = json::array();
    for (const TraceStep& s : trace.steps()) {
        json j = {{"index", s.index}, {"phase", s.phase}, {"rewrite", s.rewrite}, {"seconds", s.seconds}};
        if (s.root) j["root"] = *s.root;
        json edits = json::array();
        for (const GraphEdit& e : s.edits) edits.push_back(editToJson(e));
        j["edits"] = std::move(edits);
        json attrs = json::array();
        for (const AttributeChange& a : s.attributes)
            attrs.push_back({{"node", a.node}, {"key", a.key}, {"before", a.before}, {"after", a.after}, {"detail", a.detail}});
        j["attributes"] = std::move(attrs);
        json cloned = json::object();
        for (auto [to, from] : s.clonedFrom) cloned[std::to_string(to)] = from;
        j["cloned_from"] = std::move(cloned);
        steps.push_back(std::move(j));
    }
    json failures = json::object();
    for (const auto& [k, list] : trace.failures()) {
        json arr = json::array();
        for (const MatchFailure& f : list) arr.push_back({{"rewrite", f.rewrite}, {"node", f.node}, {"reason", f.reason}});
        failures[std::to_string(k)] = std::move(arr);
    }
    return {{"format", kTraceFormatName}, {"version", kTraceFormatVersion},
            {"original", graphBodyToJson(trace.original())}, {"settings", trace.settings()},
            {"steps", std::move(steps)}, {"failures", std::move(failures)}};
}

Trace traceFromJson(const json& doc) {
    requireObject(doc, "");
    const std::string format = requireString(requireField(doc, "format", ""), "/format");
    if (format != kTraceFormatName)
        throw FormatError("/format", "expected \"" + std::string(kTraceFormatName) + "\", got \"" + format + "\"");
    const int64_t version = requireInt(requireField(doc, "version", ""), "/version", 0, 1 << 20);
    if (version != kTraceFormatVersion)
        throw FormatError("/version", "unsupported trace format version " + std::to_string(version));
    Trace trace(graphBodyFromJson(requireField(doc, "original", ""), "/original"));
    if (doc.contains("settings")) {
        requireObject(doc["settings"], "/settings");
        for (auto it = doc["settings"].begin(); it != doc["settings"].end(); ++it)
            trace.settings()[it.key()] = requireString(it.value(), jsonPath("/settings", it.key()));
    }
    const json& steps = requireArray(doc, "steps", "");
    for (size_t i = 0; i < steps.size(); ++i) {
        const std::string p = jsonPath("/steps", i);
        const json& j = steps[i];
        requireObject(j, p);
        TraceStep s;
        s.index = static_cast<int>(i);
        s.phase = requireString(requireField(j, "phase", p), jsonPath(p, "phase"));
        s.rewrite = requireString(requireField(j, "rewrite", p), jsonPath(p, "rewrite"));
        if (j.contains("root")) s.root = requireInt(j["root"], jsonPath(p, "root"), 0, kMaxId);
        if (j.contains("seconds") && j["seconds"].is_number()) s.seconds = j["seconds"].get<double>();
        const json& edits = requireArray(j, "edits", p);
        for (size_t k = 0; k < edits.size(); ++k) s.edits.push_back(editFromJson(edits[k], jsonPath(jsonPath(p, "edits"), k)));
        if (j.contains("attributes")) {
            const json& attrs = requireArray(j, "attributes", p);
            for (size_t k = 0; k < attrs.size(); ++k) {
                const std::string ap = jsonPath(jsonPath(p, "attributes"), k);
                requireObject(attrs[k], ap);
                AttributeChange a;
                a.node = requireInt(requireField(attrs[k], "node", ap), jsonPath(ap, "node"), -1, kMaxId);
                a.key = requireString(requireField(attrs[k], "key", ap), jsonPath(ap, "key"));
                a.before = requireString(requireField(attrs[k], "before", ap), jsonPath(ap, "before"));
                a.after = requireString(requireField(attrs[k], "after", ap), jsonPath(ap, "after"));
                if (attrs[k].contains("detail")) a.detail = requireString(attrs[k]["detail"], jsonPath(ap, "detail"));
                s.attributes.push_back(std::move(a));
            }
        }
        if (j.contains("cloned_from")) {
            const std::string cp = jsonPath(p, "cloned_from");
            requireObject(j["cloned_from"], cp);
            for (auto it = j["cloned_from"].begin(); it != j["cloned_from"].end(); ++it) {
                NodeId to = 0;
                try {
                    to = std::stoll(it.key());
                } catch (const std::exception&) {
                    throw FormatError(jsonPath(cp, it.key()), "expected a node id as key");
                }
                s.clonedFrom[to] = requireInt(it.value(), jsonPath(cp, it.key()), 0, kMaxId);
            }
        }
        trace.steps().push_back(std::move(s));
    }
    if (doc.contains("failures")) {
        requireObject(doc["failures"], "/failures");
        for (auto it = doc["failures"].begin(); it != doc["failures"].end(); ++it) {
            const std::string fp = jsonPath("/failures", it.key());
            int k = 0;
            try {
                k = std::stoi(it.key());
            } catch (const std::exception&) {
                throw FormatError(fp, "expected a step number as key");
            }
            if (!it.value().is_array()) throw FormatError(fp, "expected a list");
            for (size_t i = 0; i < it.value().size(); ++i) {
                const json& f = it.value()[i];
                const std::string ip = jsonPath(fp, i);
                requireObject(f, ip);
                trace.failures()[k].push_back(MatchFailure{
                    requireString(requireField(f, "rewrite", ip), jsonPath(ip, "rewrite")),
                    requireInt(requireField(f, "node", ip), jsonPath(ip, "node"), -1, kMaxId),
                    requireString(requireField(f, "reason", ip), jsonPath(ip, "reason"))});
            }
        }
    }
    // A trace that does not replay is as bad as a malformed one: find out now.
    TraceReplayer replay(trace, 64);
    for (size_t k = 0; k < trace.size(); ++k) {
        try {
            replay.graphAt(static_cast<int>(k + 1));
        } catch (const std::exception& e) {
            throw FormatError(jsonPath("/steps", k), std::string("does not replay: ") + e.what());
        }
    }
    return trace;
}

std::string traceToJsonText(const Trace& trace) { return canonicalDump(traceToJson(trace)); }

Trace traceFromJsonText(std::string_view text, const std::string& sourceName) {
    try {
        return traceFromJson(parseJsonText(text));
    } catch (const FormatError& e) {
        if (sourceName.empty()) throw;
        throw e.inFile(sourceName);
    }
}

void saveTrace(const std::string& path, const Trace& trace) {
    std::ofstream f(path, std::ios::binary);
    if (!f) throw std::runtime_error(path + ": cannot open for writing");
    f << traceToJsonText(trace);
    if (!f) throw std::runtime_error(path + ": write failed");
}

Trace loadTrace(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw FormatError("", "cannot open the file", path);
    std::stringstream ss;
    ss << f.rdbuf();
    return traceFromJsonText(ss.str(), path);
}

} // namespace tl
