// The JSON graph format: save -> load -> save is byte-identical for every op
// kind (Composite and Scan inner graphs included), numbers are exact, ids stay
// stable, and every kind of bad input is a FormatError naming its JSON path.
#include "TestSuites.h"
#include "DPrintGoldenGraphs.h"
#include "EveryArrayOpKind.h"
#include "TestSupport.h"
#include "io/DPrint.h"
#include "ir/Rewriter.h"
#include "io/JsonFormat.h"
#include "io/JsonGraph.h"
#include "ir/SliceValue.h"
#include "ops/Argmax.h"
#include "ops/CumOp.h"
#include "ops/Softmax.h"
#include "ops/AdvancedIncSubtensor.h"
#include "ops/AdvancedSubtensor.h"
#include "ops/Assert.h"
#include "ops/Dot.h"
#include "ops/IfElse.h"
#include "ops/Join.h"
#include "ops/MakeSlice.h"
#include "ops/MakeVector.h"
#include "ops/OpFromGraph.h"
#include "ops/Opaque.h"
#include "ops/Reshape.h"
#include "ops/Shape.h"
#include "ops/TensorScalar.h"

#include "LinalgTestGraphs.h"

#include <QtTest>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <set>

using namespace tl;
using namespace tl::golden;
using nlohmann::json;

namespace {

// One graph using every op kind of OpKinds.def.
std::unique_ptr<Graph> everyOpKind() {
    G o;
    Variable* x = o.in("x", mat(3, 4));
    Variable* y = o.in("y", mat(4, 2));
    Variable* v = o.in("v", vec(4));
    Variable* s = o.g.addInput(Type::scalar(DType::Float64), "s");
    Variable* one = o.sc(1);
    Variable* ex = o.ap(makeElemwise(ScalarOpCode::Exp), {x});                         // Elemwise
    Variable* sumsq = o.ap(makeScalarOp(ScalarOpCode::Mul), {s, s});                   // Scalar
    Variable* t = o.ap(makeTensorFromScalar(), {sumsq});                               // TensorFromScalar
    Variable* back = o.ap(makeScalarFromTensor(), {t});                                // ScalarFromTensor
    Variable* d = o.ap(makeDot(), {ex, y});                                            // Dot
    Variable* tr = o.ap(makeDimShuffle(2, {1, 0}), {d});                               // DimShuffle
    Variable* shp = o.ap(makeShape(), {tr});                                           // Shape
    Variable* rows = o.ap(makeShapeI(0), {x});                                         // Shape_i
    Variable* mv = o.ap(makeMakeVector(DType::Int64), {rows, o.c(4, DType::Int64)});   // MakeVector
    Variable* re = o.ap(makeReshape(2), {x, mv});                                      // Reshape
    Variable* j = o.ap(makeJoin(), {o.c(0, DType::Int64), re, x});                     // Join
    Variable* sum = o.ap(makeReduce(ReduceKind::Sum, std::vector<int>{1}), {j});      // Reduce
    Variable* sub = o.ap(subStart(), {j, one});                                        // Subtensor
    Variable* set = o.ap(makeIncSubtensor({idx()}, false, false), {sub, v, one});      // IncSubtensor
    Variable* al = o.ap(makeAlloc(), {o.c(0.5, DType::Float64), o.c(2, DType::Int64)});  // Alloc
    Variable* ae = o.ap(allocEmpty(), {o.c(3, DType::Int64)});                         // AllocEmpty
    Variable* dc = o.ap(makeDeepCopy(), {set});                                        // DeepCopyOp
    Variable* as = o.ap(makeAssert("x must be finite"), {dc, o.c(1, DType::Bool)});    // Assert
    Variable* ss = o.ap(makeSpecifyShape(), {as, o.c(5, DType::Int64), o.c(4, DType::Int64)});  // SpecifyShape
    Variable* ub = o.ap(makeUnbroadcast({0}), {o.ap(expandDims0(), {v})});             // Unbroadcast
    Variable* op = o.ap(makeOpaque("Mystery{42}", {vec(U)}), {v});                     // Opaque
    // Advanced indexing and control flow, with a slice and the None constant.
    Variable* picks = o.in("picks", Type::tensor(DType::Int64, {2}));
    Variable* none = o.g.addConstant(noneValue(), Type::none(), "NoneConst");
    Variable* full = o.g.addConstant(sliceValue({}), Type::slice());
    Variable* ms = o.ap(makeMakeSlice(), {o.sc(1), none, none});                        // MakeSlice
    Variable* a1 = o.ap(makeAdvancedSubtensor1(), {x, picks});                           // AdvancedSubtensor1
    Variable* an = o.ap(makeAdvancedSubtensor(), {x, ms, picks});                        // AdvancedSubtensor
    Variable* ai1 = o.ap(makeAdvancedIncSubtensor1(false, true), {x, v, picks});         // AdvancedIncSubtensor1
    Variable* ain = o.ap(makeAdvancedIncSubtensor(true, false), {ai1, o.c(1.5, DType::Float64), full, picks});  // AdvancedIncSubtensor
    Variable* ie = o.ap(makeIfElse(1), {o.c(1, DType::Bool), ain, x});                  // IfElse
    GraphAssembler body;
    Variable* bin = body.addInput(mat(3, 4));
    body.setOutputs({body.addNode(makeElemwise(ScalarOpCode::Exp), {bin})->output(0)});
    Variable* ofg = o.ap(makeOpFromGraph(std::shared_ptr<const Graph>(body.finish()), std::string("layer")), {ie});  // OpFromGraph
    // Argmax, the softmax family and CumOp.
    Variable* am = o.ap(makeArgmax(std::vector<int>{1}), {x});                           // Argmax
    Variable* sm = o.ap(makeSoftmax(-1), {x});                                           // Softmax
    Variable* lsm = o.ap(makeLogSoftmax(std::nullopt), {x});                             // LogSoftmax
    Variable* smg = o.ap(makeSoftmaxGrad(-1), {lsm, sm});                                // SoftmaxGrad
    Variable* cs = o.ap(makeCumOp(0, CumMode::Add), {x});                                // CumOp
    std::vector<Variable*> outs{ss, sum, shp, back, al, ae, ub, op, a1, an, ofg, am, smg, cs};
    for (Variable* v : linalgOpKinds(o)) outs.push_back(v);  // products, BLAS, linear algebra
    addArrayOpNodes(o, x, v, outs);  // ARange ... Pad
    auto g = o.finish(outs);
    return g;
}

std::unique_ptr<Graph> scanWithComposite() { return seedRop(true); }

// The FormatError's message for loading `text`, or "" when it loads.
std::string loadError(const std::string& text) {
    try {
        graphFromJsonText(text);
    } catch (const FormatError& e) {
        return e.what();
    }
    return {};
}

json seedDoc() { return graphToJson(*seedRop(true)); }

QString withEdit(const std::function<void(json&)>& edit, json doc = seedDoc()) {
    edit(doc);
    return QString::fromStdString(doc.dump());
}

// Index in /graph/nodes of the first node of op kind `kind`.
size_t nodeIndex(const json& doc, const std::string& kind) {
    const json& nodes = doc["graph"]["nodes"];
    for (size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i]["op"] == kind) return i;
    return 0;
}

} // namespace

class TestJson : public QObject {
    Q_OBJECT
private slots:
    void roundTrip_data() {
        QTest::addColumn<int>("which");
        QTest::newRow("every op kind") << 0;
        QTest::newRow("scan with composites") << 1;
        QTest::newRow("mit_sot scan") << 2;
        QTest::newRow("nit_sot scan with a sequence") << 3;
    }
    void roundTrip() {
        QFETCH(int, which);
        std::unique_ptr<Graph> g = which == 0 ? everyOpKind()
                                   : which == 1 ? scanWithComposite()
                                   : which == 2 ? dupMitsotFib()
                                                : miscMapNonseq();
        if (which == 0) {
            std::set<OpKind> kinds;
            for (const Node* n : g->nodes()) kinds.insert(n->op().kind());
            QCOMPARE(static_cast<int>(kinds.size()), kNumOpKinds - 1);  // Scan is covered by the other rows
        }
        std::string first = graphToJsonText(*g);
        std::unique_ptr<Graph> loaded = graphFromJsonText(first);
        QVERIFY(loaded->validate().empty());
        std::string second = graphToJsonText(*loaded);
        QCOMPARE(QString::fromStdString(second), QString::fromStdString(first));
        QCOMPARE(QString::fromStdString(graphToJsonText(*graphFromJsonText(second))), QString::fromStdString(first));
        // Same graph: same listing, same ids.
        DPrintOptions all;
        all.printType = all.printDestroyMap = all.printViewMap = all.printOpInfo = all.printTopoIndex = true;
        QCOMPARE(QString::fromStdString(dprint(*loaded, all)), QString::fromStdString(dprint(*g, all)));
        for (const Node* n : g->nodes()) {
            const Node* m = loaded->findNode(n->id());
            QVERIFY(m);
            QCOMPARE(QString::fromStdString(m->op().name()), QString::fromStdString(n->op().name()));
            for (int k = 0; k < n->numOutputs(); ++k) QCOMPARE(m->output(k)->id(), n->output(k)->id());
        }
    }

    // tests/golden/every_op_kind.json: the every-op-kind graph as saved (a readable
    // sample of every op's params; TL_UPDATE_GOLDENS=1 rewrites it). It loads and
    // saves back to the same bytes.
    void everyOpKindGolden() {
        std::string path = tl::test::sourcePath("tests/golden/every_op_kind.json");
        auto g = everyOpKind();
        if (std::getenv("TL_UPDATE_GOLDENS")) saveGraph(path, *g);
        std::ifstream in(path, std::ios::binary);
        std::string stored((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        QVERIFY2(stored == graphToJsonText(*g), "tests/golden/every_op_kind.json is stale; rerun with TL_UPDATE_GOLDENS=1");
        QCOMPARE(QString::fromStdString(graphToJsonText(*loadGraph(path))), QString::fromStdString(stored));
    }

    // The schema lists exactly the op kinds and dtypes the engine knows.
    void schemaMatchesTheEngine() {
        std::ifstream in(tl::test::sourcePath("resources/graph.schema.json"));
        json schema = json::parse(in);
        QCOMPARE(schema["$schema"].get<std::string>(), std::string("https://json-schema.org/draft/2020-12/schema"));
        std::set<std::string> ops, dtypes;
        for (const auto& k : schema["$defs"]["node"]["properties"]["op"]["enum"]) ops.insert(k.get<std::string>());
        for (const auto& k : schema["$defs"]["dtype"]["enum"]) dtypes.insert(k.get<std::string>());
        QCOMPARE(static_cast<int>(ops.size()), kNumOpKinds);
        for (int k = 0; k < kNumOpKinds; ++k) QVERIFY(ops.count(std::string(opKindName(static_cast<OpKind>(k)))));
        QCOMPARE(static_cast<int>(dtypes.size()), kNumDTypes);
        for (const auto& d : dtypes) QVERIFY(parseDType(d).has_value());
        QCOMPARE(schema["properties"]["version"]["const"].get<int>(), kGraphFormatVersion);
    }

    void fileHelpers() {
        auto g = scanWithComposite();
        std::string path = (std::filesystem::temp_directory_path() / "tl_json_roundtrip.json").string();
        saveGraph(path, *g);
        auto loaded = loadGraph(path);
        QCOMPARE(QString::fromStdString(graphToJsonText(*loaded)), QString::fromStdString(graphToJsonText(*g)));
        std::filesystem::remove(path);
        try {
            loadGraph(path);
            QFAIL("loading a missing file must throw");
        } catch (const FormatError& e) {
            QVERIFY(std::string(e.what()).find(path) == 0);
        }
    }

    void errorsNameTheFile() {
        std::string path = (std::filesystem::temp_directory_path() / "tl_json_bad.json").string();
        std::ofstream(path) << "{\"format\": \"tensorlens-graph\",\n \"version\": 1,\n \"graph\": [}";
        try {
            loadGraph(path);
            QFAIL("must throw");
        } catch (const FormatError& e) {
            QCOMPARE(QString::fromStdString(e.file()), QString::fromStdString(path));
            QVERIFY2(std::string(e.what()).find(path + ": line 3, column") == 0, e.what());
        }
        std::filesystem::remove(path);
    }

    // Exact numbers: NaN, infinities, -0.0, subnormals, float32 shortest, int64 extremes.
    void exactConstants() {
        G o;
        const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
        std::vector<double> f64 = {0.1, -0.0, nan, inf, -inf, 5e-324, 1.7976931348623157e308, 1.0 / 3.0};
        Variable* a = o.g.addConstant(NDArray::fromVector(DType::Float64, {8}, f64));
        NDArray f32 = NDArray::empty(DType::Float32, {3});
        f32.data<float>()[0] = 0.1f;
        f32.data<float>()[1] = 1.0f / 3.0f;
        f32.data<float>()[2] = -std::numeric_limits<float>::infinity();
        Variable* b = o.g.addConstant(f32);
        NDArray i64 = NDArray::empty(DType::Int64, {2});
        i64.data<int64_t>()[0] = std::numeric_limits<int64_t>::max();
        i64.data<int64_t>()[1] = std::numeric_limits<int64_t>::min();
        Variable* c = o.g.addConstant(i64, std::nullopt, "extremes");
        NDArray bools = NDArray::empty(DType::Bool, {2});
        bools.data<bool>()[0] = true;
        bools.data<bool>()[1] = false;
        Variable* d = o.g.addConstant(bools);
        Variable* u8 = o.g.addConstant(NDArray::scalar(DType::UInt8, 255));
        auto g = o.finish({a, b, c, d, u8});
        std::string text = graphToJsonText(*g);
        QVERIFY(text.find("\"nan\"") != std::string::npos);
        QVERIFY(text.find("[0.1, 0.33333334, \"-inf\"]") != std::string::npos);  // float32 shortest
        auto back = graphFromJsonText(text);
        for (int k = 0; k < 5; ++k) {
            const NDArray& x = g->output(k)->constantValue();
            const NDArray& y = back->output(k)->constantValue();
            QCOMPARE(y.dtype(), x.dtype());
            QCOMPARE(y.shape(), x.shape());
            QVERIFY(std::memcmp(x.rawData(), y.rawData(), x.nbytes()) == 0);  // bit for bit, -0.0 and NaN included
        }
        QCOMPARE(QString::fromStdString(back->output(2)->name()), "extremes");
        QCOMPARE(QString::fromStdString(graphToJsonText(*back)), QString::fromStdString(text));
    }

    // Ids of deleted nodes are never handed out again after a reload.
    void nextIdsSurvive() {
        auto g = scanWithComposite();
        const VarId before = g->nextVarId();
        {
            // A constant made and erased again: its id is used up.
            Rewriter rw(*g);
            rw.constant(NDArray::scalar(DType::Int64, 1));
            rw.pruneDead();
        }
        QCOMPARE(g->nextVarId(), before + 1);
        auto back = graphFromJsonText(graphToJsonText(*g));
        QCOMPARE(back->nextNodeId(), g->nextNodeId());
        QCOMPARE(back->nextVarId(), g->nextVarId());
    }

    // ---------------------------------------------------------------- bad input
    void badInput_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");  // the message must contain this
        json doc = seedDoc();
        const size_t scan = nodeIndex(doc, "Scan");
        const size_t sub = nodeIndex(doc, "Subtensor");
        const std::string scanPath = "/graph/nodes/" + std::to_string(scan);
        const std::string subPath = "/graph/nodes/" + std::to_string(sub);

        QTest::newRow("malformed text") << R"({"format": "tensorlens-graph", "version": 1,)" << "line 1, column 45: malformed JSON";
        QTest::newRow("malformed, line 2") << "{\n  \"format\" \"x\"}" << "line 2, column 14: malformed JSON";
        QTest::newRow("not an object") << "[1, 2]" << "/: expected an object";
        QTest::newRow("wrong format") << withEdit([](json& d) { d["format"] = "onnx"; }) << "/format: expected \"tensorlens-graph\"";
        QTest::newRow("future version") << withEdit([](json& d) { d["version"] = 2; }) << "/version: unsupported version 2";
        QTest::newRow("missing field") << withEdit([](json& d) { d["graph"].erase("nodes"); })
                                       << "/graph: missing field \"nodes\"";
        QTest::newRow("unknown field") << withEdit([](json& d) { d["graph"]["nodes"][0]["colour"] = "red"; })
                                       << "/graph/nodes/0/colour: unknown field \"colour\"";
        QTest::newRow("unknown op") << withEdit([&](json& d) { d["graph"]["nodes"][sub]["op"] = "Frobnicate"; })
                                    << QString::fromStdString(subPath + "/op: unknown op kind \"Frobnicate\"");
        QTest::newRow("wrong arity") << withEdit([&](json& d) { d["graph"]["nodes"][sub]["inputs"].push_back(0); })
                                     << QString::fromStdString(subPath + ": Subtensor{:stop}#");
        QTest::newRow("dangling id") << withEdit([&](json& d) { d["graph"]["nodes"][sub]["inputs"][1] = 57; })
                                     << QString::fromStdString(subPath + "/inputs/1: unknown variable 57");
        QTest::newRow("used before defined") << withEdit([&](json& d) {
            auto& nodes = d["graph"]["nodes"];
            std::swap(nodes[0], nodes[nodes.size() - 1]);
        }) << "is computed by a later node";
        QTest::newRow("type mismatch") << withEdit([&](json& d) {
            d["graph"]["nodes"][sub]["outputs"][0]["type"]["shape"] = {9};
        }) << QString::fromStdString(subPath + ": Subtensor{:stop}#");
        QTest::newRow("wrong input type") << withEdit([&](json& d) {
            d["graph"]["inputs"][0]["type"]["dtype"] = "int8";
        }) << "/graph/nodes/";
        QTest::newRow("absurd shape") << withEdit([](json& d) {
            d["graph"]["constants"][0]["shape"] = {100000000LL, 100000000LL};
        }) << "/graph/constants/0/data: 1 values for shape";
        QTest::newRow("overflowing shape") << withEdit([](json& d) {
            d["graph"]["constants"][0]["shape"] = {2000000000000000000LL, 2000000000000000000LL, 16};
        }) << "/graph/constants/0/data: shape (2000000000000000000, 2000000000000000000, 16) overflows";
        QTest::newRow("bad dtype") << withEdit([](json& d) { d["graph"]["constants"][0]["dtype"] = "complex128"; })
                                   << "/graph/constants/0/dtype: unknown dtype \"complex128\"";
        QTest::newRow("value out of range") << withEdit([](json& d) { d["graph"]["constants"][0]["data"] = {300}; })
                                            << "/graph/constants/0/data/0: 300 is out of range";
        QTest::newRow("duplicate id") << withEdit([](json& d) { d["graph"]["inputs"][1]["id"] = 0; })
                                      << "/graph/inputs/1/id: variable id 0 is used twice";
        QTest::newRow("bad params") << withEdit([&](json& d) { d["graph"]["nodes"][scan]["params"]["info"]["n_sit_sot"] = "three"; })
                                    << QString::fromStdString(scanPath + "/params: cannot build the Scan op");
        QTest::newRow("inner graph error") << withEdit([&](json& d) { d["graph"]["nodes"][scan]["inner"]["outputs"] = {1234}; })
                                           << QString::fromStdString(scanPath + "/inner/outputs/0: unknown variable 1234");
        QTest::newRow("destroy map disagrees") << withEdit([&](json& d) { d["graph"]["nodes"][scan]["destroy_map"] = {{"0", {2}}}; })
                                               << QString::fromStdString(scanPath + "/destroy_map: says {\"0\":[2]}");
        QTest::newRow("next id too low") << withEdit([](json& d) { d["graph"]["next_node_id"] = 1; })
                                         << "/graph/next_node_id: 1 is not above the largest node id";
        std::string deep = "{\"format\": \"tensorlens-graph\", \"version\": 1, \"graph\": ";
        for (int i = 0; i < 100000; ++i) deep += "[";
        QTest::newRow("absurd nesting") << QString::fromStdString(deep) << "JSON nests deeper than 200 levels";
    }
    void badInput() {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        std::string msg = loadError(text.toStdString());
        QVERIFY2(!msg.empty(), "loading must fail");
        QVERIFY2(msg.find(expected.toStdString()) != std::string::npos, msg.c_str());
    }

    // Never a crash: thousands of random edits of a valid file each load or give a FormatError.
    void mutationsNeverCrash() {
        const std::string base = seedDoc().dump();
        std::mt19937_64 rng(12345);
        const std::string alphabet = "{}[]\",:0123456789-.eEnulltrfa \"op\"id\"";
        int failures = 0, loaded = 0;
        for (int iter = 0; iter < 2000; ++iter) {
            std::string text = base;
            int edits = 1 + static_cast<int>(rng() % 4);
            for (int e = 0; e < edits; ++e) {
                size_t pos = rng() % text.size();
                switch (rng() % 3) {
                case 0: text[pos] = alphabet[rng() % alphabet.size()]; break;
                case 1: text.erase(pos, 1 + rng() % 8); break;
                default: text.insert(pos, 1, alphabet[rng() % alphabet.size()]); break;
                }
                if (text.empty()) text = "{";
            }
            try {
                graphFromJsonText(text);
                ++loaded;
            } catch (const FormatError&) {
                ++failures;
            }
        }
        QCOMPARE(failures + loaded, 2000);
        QVERIFY(failures > 0);
    }

    // Structural edits: any value of a valid document replaced by another kind of value.
    void structuralMutationsNeverCrash() {
        const json doc = seedDoc();
        const json flat = doc.flatten();
        std::vector<std::string> pointers;
        for (auto it = flat.begin(); it != flat.end(); ++it) pointers.push_back(it.key());
        const json replacements[] = {json(-1), json(0), json(1), json(3), json(1LL << 40), json(-1e300), json("x"),
                                     json(nullptr), json::array(), json::object(), json(true), json({1, 2, 3}),
                                     json("nan"), json(999999)};
        std::mt19937_64 rng(99);
        int failures = 0;
        for (int iter = 0; iter < 2000; ++iter) {
            json d = doc;
            for (int e = 0; e < 1 + static_cast<int>(rng() % 3); ++e) {
                json::json_pointer ptr(pointers[rng() % pointers.size()]);
                try {
                    d[ptr] = replacements[rng() % std::size(replacements)];
                } catch (const json::exception&) {
                    // an earlier edit removed the path
                }
            }
            try {
                graphFromJson(d);
            } catch (const FormatError&) {
                ++failures;
            }
        }
        QVERIFY(failures > 100);
    }
};

TL_TEST_SUITE(TestJson)
#include "tst_json.moc"
