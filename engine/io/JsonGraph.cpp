// Reading graphs from JSON (docs/graph-format.md), with errors naming the JSON path;
// writing is in JsonGraphWrite.cpp.
#include "io/JsonGraph.h"
#include "io/JsonValues.h"

#include "io/JsonFormat.h"
#include "io/JsonNestedComposite.h"
#include "ir/GraphAssembler.h"
#include "ops/OpFactory.h"

#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <unordered_map>

namespace tl {

using nlohmann::json;

namespace {

constexpr int64_t kMaxId = std::numeric_limits<int64_t>::max() / 4;

void allowOnly(const json& obj, std::initializer_list<const char*> keys, const std::string& path) {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        bool known = false;
        for (const char* k : keys) known = known || it.key() == k;
        if (!known) throw FormatError(jsonPath(path, it.key()), "unknown field \"" + it.key() + "\"");
    }
}

std::string optionalName(const json& obj, const std::string& path) {
    auto it = obj.find("name");
    if (it == obj.end()) return {};
    return requireString(*it, jsonPath(path, "name"));
}

AliasMap aliasMapFromJson(const json& j, const std::string& path) {
    requireObject(j, path);
    AliasMap m;
    for (auto it = j.begin(); it != j.end(); ++it) {
        std::string p = jsonPath(path, it.key());
        int out = 0;
        try {
            size_t used = 0;
            out = std::stoi(it.key(), &used);
            if (used != it.key().size() || out < 0) throw std::invalid_argument("key");
        } catch (const std::exception&) {
            throw FormatError(p, "expected an output index as key, found \"" + it.key() + "\"");
        }
        if (!it->is_array()) throw FormatError(p, "expected an array of input indices");
        std::vector<int> ins;
        for (size_t i = 0; i < it->size(); ++i)
            ins.push_back(static_cast<int>(requireInt((*it)[i], jsonPath(p, i), 0, std::numeric_limits<int>::max())));
        m[out] = std::move(ins);
    }
    return m;
}

std::string aliasMapText(const AliasMap& m) {
    std::ostringstream os;
    json j = json::object();
    for (const auto& [out, ins] : m) j[std::to_string(out)] = ins;
    os << j.dump();
    return os.str();
}

class Loader {
public:
    std::unique_ptr<Graph> load(const json& body, const std::string& path, int nesting) {
        if (nesting > kMaxInnerGraphNesting)
            throw FormatError(path, "inner graphs nest deeper than " + std::to_string(kMaxInnerGraphNesting) + " levels");
        requireObject(body, path);
        allowOnly(body, {"inputs", "constants", "nodes", "outputs", "next_node_id", "next_var_id"}, path);
        GraphAssembler g;
        // Reserved first: ids the loader itself hands out (a nested Composite's copied
        // nodes) then never collide with ids the file gives later nodes.
        // (Checked only at the end, so that a broken node is reported before them.)
        auto reservable = [&](const char* key) {
            auto it = body.find(key);
            return it != body.end() && it->is_number_integer() && it->get<int64_t>() >= 0 && it->get<int64_t>() <= kMaxId;
        };
        if (reservable("next_node_id") && reservable("next_var_id"))
            g.reserveIds(body["next_node_id"].get<NodeId>(), body["next_var_id"].get<VarId>());
        readInputs(g, body, path);
        readConstants(g, body, path);
        readNodes(g, body, path, nesting);
        readOutputs(g, body, path);
        const auto [nextNode, nextVar] = readNextIds(body, path);
        checkNextIds(body, path, nextNode, nextVar);
        return g.finish();
    }

private:
    static VarId readId(const json& obj, const std::string& path) {
        return requireInt(requireField(obj, "id", path), jsonPath(path, "id"), 0, kMaxId);
    }

    static void readInputs(GraphAssembler& g, const json& body, const std::string& path) {
        const json& inputs = requireArray(body, "inputs", path);
        for (size_t i = 0; i < inputs.size(); ++i) {
            std::string p = jsonPath(jsonPath(path, "inputs"), i);
            const json& in = inputs[i];
            requireObject(in, p);
            allowOnly(in, {"id", "name", "type", "value"}, p);
            VarId id = readId(in, p);
            Type t = typeFromJson(requireField(in, "type", p), jsonPath(p, "type"));
            std::string name = optionalName(in, p);
            Variable* v = nullptr;
            try {
                v = g.addInput(t, std::move(name), id);
            } catch (const GraphError& e) {
                throw FormatError(jsonPath(p, "id"), e.what());
            }
            if (in.contains("value")) {  // a shared variable's value (docs/graph-format.md)
                const std::string vp = jsonPath(p, "value");
                try {
                    g.setSharedValue(v, arrayFromJson(in["value"], t, vp));
                } catch (const ValueError& e) {
                    throw FormatError(vp, e.what());
                } catch (const GraphError& e) {
                    throw FormatError(vp, e.what());
                }
            }
        }
    }

    static void readConstants(GraphAssembler& g, const json& body, const std::string& path) {
        const json& constants = requireArray(body, "constants", path);
        for (size_t i = 0; i < constants.size(); ++i) {
            std::string p = jsonPath(jsonPath(path, "constants"), i);
            const json& c = constants[i];
            requireObject(c, p);
            allowOnly(c, {"id", "name", "type", "dtype", "shape", "data"}, p);
            VarId id = readId(c, p);
            Type t = typeFromJson(requireField(c, "type", p), jsonPath(p, "type"));
            NDArray value = constantValueFromJson(c, t, p);
            std::string name = optionalName(c, p);
            try {
                g.addConstant(std::move(value), std::move(t), std::move(name), id);
            } catch (const GraphError& e) {
                throw FormatError(p, e.what());
            }
        }
    }

    void readNodes(GraphAssembler& g, const json& body, const std::string& path, int nesting) {
        const json& nodes = requireArray(body, "nodes", path);
        std::string nodesPath = jsonPath(path, "nodes");
        // Where each output id is declared, to explain a use before its definition.
        std::unordered_map<VarId, size_t> declaredAt;
        for (size_t i = 0; i < nodes.size(); ++i) {
            if (!nodes[i].is_object()) continue;
            auto outs = nodes[i].find("outputs");
            if (outs == nodes[i].end() || !outs->is_array()) continue;
            for (const json& o : *outs)
                if (o.is_object() && o.contains("id") && o["id"].is_number_integer())
                    declaredAt.emplace(o["id"].get<int64_t>(), i);
        }
        for (size_t i = 0; i < nodes.size(); ++i) readNode(g, nodes[i], jsonPath(nodesPath, i), nesting, declaredAt, nodesPath);
    }

    void readNode(GraphAssembler& g, const json& n, const std::string& p, int nesting,
                  const std::unordered_map<VarId, size_t>& declaredAt, const std::string& nodesPath) {
        requireObject(n, p);
        allowOnly(n, {"id", "op", "op_name", "params", "inner", "inputs", "outputs", "destroy_map", "view_map"}, p);
        NodeId id = requireInt(requireField(n, "id", p), jsonPath(p, "id"), 0, kMaxId);
        if (g.graph().findNode(id)) throw FormatError(jsonPath(p, "id"), "node id " + std::to_string(id) + " is used twice");
        std::string kindName = requireString(requireField(n, "op", p), jsonPath(p, "op"));
        auto kind = parseOpKind(kindName);
        if (!kind) throw FormatError(jsonPath(p, "op"), "unknown op kind \"" + kindName + "\"");
        if (n.contains("op_name")) requireString(n["op_name"], jsonPath(p, "op_name"));
        json params = n.contains("params") ? n["params"] : json::object();
        std::shared_ptr<const Graph> inner;
        if (n.contains("inner")) {
            if (*kind == OpKind::OpFromGraph) {
                // Nodes of one PyTensor OpFromGraph carry the same body: they share one
                // inner graph again, as they shared the op (dprint prints it once).
                std::string key = n["inner"].dump();
                auto it = m_graphOpBodies.find(key);
                if (it == m_graphOpBodies.end())
                    it = m_graphOpBodies.emplace(std::move(key), load(n["inner"], jsonPath(p, "inner"), nesting + 1)).first;
                inner = it->second;
            } else {
                inner = load(n["inner"], jsonPath(p, "inner"), nesting + 1);
            }
        }

        const json& ins = requireArray(n, "inputs", p);
        std::vector<Variable*> inputs;
        for (size_t k = 0; k < ins.size(); ++k) {
            std::string ip = jsonPath(jsonPath(p, "inputs"), k);
            VarId vid = requireInt(ins[k], ip, 0, kMaxId);
            Variable* v = g.graph().findVariable(vid);
            if (!v) {
                auto later = declaredAt.find(vid);
                if (later != declaredAt.end())
                    throw FormatError(ip, "variable " + std::to_string(vid) + " is computed by a later node (" +
                                              jsonPath(nodesPath, later->second) +
                                              "); nodes must come after the nodes they use");
                throw FormatError(ip, "unknown variable " + std::to_string(vid));
            }
            inputs.push_back(v);
        }

        const json& outs = requireArray(n, "outputs", p);
        std::vector<Type> types;
        std::vector<VarId> outIds;
        std::vector<std::string> names;
        std::set<VarId> seen;
        for (size_t k = 0; k < outs.size(); ++k) {
            std::string op = jsonPath(jsonPath(p, "outputs"), k);
            requireObject(outs[k], op);
            allowOnly(outs[k], {"id", "name", "type"}, op);
            VarId vid = readId(outs[k], op);
            if (g.graph().findVariable(vid) || !seen.insert(vid).second)
                throw FormatError(jsonPath(op, "id"), "variable id " + std::to_string(vid) + " is used twice");
            outIds.push_back(vid);
            types.push_back(typeFromJson(requireField(outs[k], "type", op), jsonPath(op, "type")));
            names.push_back(optionalName(outs[k], op));
        }

        if (*kind == OpKind::Scalar && inner && params.is_object() && params.value("scalar_op", json()) == "composite") {
            std::vector<Variable*> made;
            try {
                made = inlineNestedComposite(g, *inner, inputs, types, outIds);
            } catch (const std::exception& e) {
                throw FormatError(p, std::string("cannot copy the nested Composite: ") + e.what());
            }
            for (size_t k = 0; k < names.size(); ++k)
                if (!names[k].empty()) g.setVariableName(made[k], names[k]);
            return;
        }

        OpPtr opPtr;
        try {
            opPtr = makeOp(*kind, params, inner);
        } catch (const FormatError&) {
            throw;
        } catch (const std::exception& e) {
            throw FormatError(n.contains("params") ? jsonPath(p, "params") : p,
                              "cannot build the " + kindName + " op: " + e.what());
        }
        if (!opPtr) throw FormatError(p, "cannot build the " + kindName + " op");
        checkAliasMap(n, "destroy_map", opPtr->destroyMap(), p);
        checkAliasMap(n, "view_map", opPtr->viewMap(), p);

        Node* node = nullptr;
        try {
            node = g.addNode(opPtr, std::move(inputs), id, &types, &outIds);
        } catch (const GraphError& e) {
            throw FormatError(p, e.what());
        } catch (const std::exception& e) {
            // An op's type inference may throw something other than OpTypeError on odd inputs.
            throw FormatError(p, opPtr->name() + "#" + std::to_string(id) + ": " + e.what());
        }
        for (size_t k = 0; k < names.size(); ++k)
            if (!names[k].empty()) g.setVariableName(node->output(static_cast<int>(k)), names[k]);
    }

    static void checkAliasMap(const json& n, const char* key, const AliasMap& actual, const std::string& p) {
        auto it = n.find(key);
        // Optional (derived from the op's params); when stated it must agree.
        if (it == n.end()) return;
        AliasMap stated = aliasMapFromJson(*it, jsonPath(p, key));
        if (stated != actual)
            throw FormatError(jsonPath(p, key), "says " + aliasMapText(stated) + " but the op has " + aliasMapText(actual));
    }

    static void readOutputs(GraphAssembler& g, const json& body, const std::string& path) {
        const json& outs = requireArray(body, "outputs", path);
        std::vector<Variable*> vars;
        for (size_t i = 0; i < outs.size(); ++i) {
            std::string p = jsonPath(jsonPath(path, "outputs"), i);
            VarId vid = requireInt(outs[i], p, 0, kMaxId);
            Variable* v = g.graph().findVariable(vid);
            if (!v) throw FormatError(p, "unknown variable " + std::to_string(vid));
            vars.push_back(v);
        }
        g.setOutputs(std::move(vars));
    }

    static std::pair<NodeId, VarId> readNextIds(const json& body, const std::string& path) {
        return {requireInt(requireField(body, "next_node_id", path), jsonPath(path, "next_node_id"), 0, kMaxId),
                requireInt(requireField(body, "next_var_id", path), jsonPath(path, "next_var_id"), 0, kMaxId)};
    }

    // The next ids must be above every id the file itself uses (read and checked by now).
    static void checkNextIds(const json& body, const std::string& path, NodeId nextNode, VarId nextVar) {
        int64_t node = -1, var = -1;
        for (const char* key : {"inputs", "constants"})
            for (const json& v : body[key]) var = std::max<int64_t>(var, v["id"].get<int64_t>());
        for (const json& n : body["nodes"]) {
            node = std::max<int64_t>(node, n["id"].get<int64_t>());
            for (const json& o : n["outputs"]) var = std::max<int64_t>(var, o["id"].get<int64_t>());
        }
        if (nextNode <= node)
            throw FormatError(jsonPath(path, "next_node_id"), std::to_string(nextNode) + " is not above the largest node id " +
                                                                   std::to_string(node));
        if (nextVar <= var)
            throw FormatError(jsonPath(path, "next_var_id"), std::to_string(nextVar) +
                                                                  " is not above the largest variable id " + std::to_string(var));
    }

    std::unordered_map<std::string, std::shared_ptr<const Graph>> m_graphOpBodies;
};

} // namespace

std::unique_ptr<Graph> graphBodyFromJson(const json& body, const std::string& path) {
    checkJsonDepth(body, path);
    try {
        return Loader().load(body, path, 0);
    } catch (const FormatError&) {
        throw;
    } catch (const std::exception& e) {
        // Safety net: whatever slipped past the checks is still a clean error.
        throw FormatError(path, e.what());
    }
}

std::unique_ptr<Graph> graphFromJson(const json& doc) {
    checkJsonDepth(doc, "");
    requireObject(doc, "/");
    allowOnly(doc, {"format", "version", "graph"}, "");
    std::string format = requireString(requireField(doc, "format", "/"), "/format");
    if (format != kGraphFormatName)
        throw FormatError("/format", "expected \"" + std::string(kGraphFormatName) + "\", found \"" + format + "\"");
    int64_t version = requireInt(requireField(doc, "version", "/"), "/version", 0, std::numeric_limits<int32_t>::max());
    if (version != kGraphFormatVersion)
        throw FormatError("/version", "unsupported version " + std::to_string(version) + " (this build reads version " +
                                          std::to_string(kGraphFormatVersion) + ")");
    return graphBodyFromJson(requireField(doc, "graph", "/"), "/graph");
}

std::unique_ptr<Graph> graphFromJsonText(std::string_view text, const std::string& sourceName) {
    try {
        return graphFromJson(parseJsonText(text));
    } catch (const FormatError& e) {
        if (sourceName.empty()) throw;
        throw e.inFile(sourceName);
    }
}

std::unique_ptr<Graph> loadGraph(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw FormatError("", "cannot open the file", path);
    std::ostringstream ss;
    ss << in.rdbuf();
    return graphFromJsonText(ss.str(), path);
}

} // namespace tl
