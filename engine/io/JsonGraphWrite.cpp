// Writing graphs as JSON (docs/graph-format.md); reading is in JsonGraph.cpp.
#include "io/JsonGraph.h"
#include "io/JsonValues.h"

#include "io/JsonFormat.h"

#include <fstream>

namespace tl {

using nlohmann::json;

namespace {

json aliasMapToJson(const AliasMap& m) {
    json j = json::object();
    for (const auto& [out, ins] : m) j[std::to_string(out)] = ins;
    return j;
}

json variableRef(const Variable* v) {
    json j = json::object();
    j["id"] = v->id();
    j["type"] = typeToJson(v->type());
    if (!v->name().empty()) j["name"] = v->name();
    return j;
}

} // namespace

json graphBodyToJson(const Graph& g) {
    json body = json::object();
    json inputs = json::array();
    for (const Variable* in : g.inputs()) {
        json ref = variableRef(in);
        if (in->sharedValue().valid()) ref["value"] = arrayToJson(in->sharedValue());
        inputs.push_back(std::move(ref));
    }
    body["inputs"] = std::move(inputs);

    json constants = json::array();
    for (const Variable* c : g.constants()) {
        json j = variableRef(c);
        constantValueToJson(c->constantValue(), c->type(), j);
        constants.push_back(std::move(j));
    }
    body["constants"] = std::move(constants);

    // Topological order, so a reader can build nodes in one pass.
    json nodes = json::array();
    for (const Node* n : g.toposort()) {
        json j = json::object();
        j["id"] = n->id();
        j["op"] = std::string(opKindName(n->op().kind()));
        j["op_name"] = n->op().name();
        j["params"] = n->op().params();
        if (auto inner = n->op().innerGraph()) j["inner"] = graphBodyToJson(*inner);
        json ins = json::array();
        for (const Variable* v : n->inputs()) ins.push_back(v->id());
        j["inputs"] = std::move(ins);
        json outs = json::array();
        for (const Variable* v : n->outputs()) outs.push_back(variableRef(v));
        j["outputs"] = std::move(outs);
        AliasMap d = n->op().destroyMap(), vm = n->op().viewMap();
        if (!d.empty()) j["destroy_map"] = aliasMapToJson(d);
        if (!vm.empty()) j["view_map"] = aliasMapToJson(vm);
        nodes.push_back(std::move(j));
    }
    body["nodes"] = std::move(nodes);

    json outputs = json::array();
    for (const Variable* v : g.outputs()) outputs.push_back(v->id());
    body["outputs"] = std::move(outputs);
    body["next_node_id"] = g.nextNodeId();
    body["next_var_id"] = g.nextVarId();
    return body;
}

json graphToJson(const Graph& g) {
    json doc = json::object();
    doc["format"] = kGraphFormatName;
    doc["version"] = kGraphFormatVersion;
    doc["graph"] = graphBodyToJson(g);
    return doc;
}

std::string graphToJsonText(const Graph& g) { return canonicalDump(graphToJson(g)); }

void saveGraph(const std::string& path, const Graph& g) {
    std::string text = graphToJsonText(g);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error(path + ": cannot open the file for writing");
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) throw std::runtime_error(path + ": writing the file failed");
}

} // namespace tl
