// The trace file: save -> load -> save is byte-identical, a loaded trace replays
// to the same graphs, and bad files name the JSON path.
#include "TestSuites.h"
#include "trace/TraceReplayer.h"
#include "builder/Math.h"
#include "io/FormatError.h"
#include "io/JsonTrace.h"
#include "ir/Fingerprint.h"
#include "ops/Elemwise.h"
#include "rewrite/EquilibriumDriver.h"
#include "rewrite/Pipeline.h"

#include <QtTest>

using namespace tl;

namespace {
// identity(x) -> x, and a constant added on the way (exercises add_constant edits):
// identity(x) -> x * 1.0 -> ... keeps it simple: x + 0.0 with a fresh constant.
class DropIdentity : public NodeRewrite {
public:
    std::string_view name() const override { return "drop_identity"; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }
    MatchResult match(const Node& n, const RewriteOptions&) const override {
        const auto& e = static_cast<const Elemwise&>(n.op());
        if (e.isComposite() || e.scalarOp() != ScalarOpCode::Identity) return MatchResult::fail("not identity");
        return MatchResult::ok(std::make_unique<RewriteMatch>());
    }
    void apply(Rewriter& rw, Node& n, const RewriteMatch&, const RewriteOptions&) const override {
        Variable* zero = rw.constant(NDArray::scalar(DType::Float64, 0.0));
        Node* add = rw.create(makeElemwise(ScalarOpCode::Add), {n.input(0), zero});
        rw.attribute(add->id(), "replaced", "identity", "add 0");
        rw.cloned(add->id(), n.id());
        rw.replace(n.output(0), add->output(0));
    }
};

std::unique_ptr<Graph> chain() {
    GraphBuilder b;
    Var x = b.input("x", DType::Float64, {});
    Var y = identity(exp(identity(x)));
    return b.finish({y});
}

Trace record() {
    static DropIdentity rewrite;
    Pipeline p;
    std::vector<std::unique_ptr<GraphPass>> passes;
    passes.push_back(std::make_unique<EquilibriumDriver>("d", std::vector<std::string>{},
                                                         std::vector<const NodeRewrite*>{&rewrite}));
    p.addPhase("test", std::move(passes));
    auto g = chain();
    Trace t(g->clone());
    PipelineOptions opts;
    opts.explain = true;
    p.run(*g, opts, &t);
    return t;
}
} // namespace

class TestTraceJson : public QObject {
    Q_OBJECT
private slots:
    void roundTripIsByteIdentical() {
        Trace t = record();
        QCOMPARE(t.size(), size_t(2));
        const std::string text = traceToJsonText(t);
        Trace back = traceFromJsonText(text);
        QCOMPARE(QString::fromStdString(traceToJsonText(back)), QString::fromStdString(text));
        QCOMPARE(back.steps()[0].attributes.size(), size_t(1));
        QCOMPARE(back.steps()[0].clonedFrom.size(), size_t(1));
    }

    void loadedTraceReplaysTheSameGraphs() {
        Trace t = record();
        Trace back = traceFromJsonText(traceToJsonText(t));
        TraceReplayer a(t), b(back);
        for (int k = 0; k <= static_cast<int>(t.size()); ++k) QCOMPARE(fingerprint(b.graphAt(k)), fingerprint(a.graphAt(k)));
    }

    void badFilesNameThePath_data() {
        QTest::addColumn<QString>("edit");
        QTest::addColumn<QString>("path");
        QTest::newRow("wrong format") << R"(/format|"x")" << "/format";
        QTest::newRow("unknown edit kind") << R"(/steps/0/edits/0/kind|"teleport")" << "/steps/0/edits/0/kind";
        QTest::newRow("dangling variable") << R"(/steps/0/edits/0/node/inputs/0|99999)" << "/steps/0";
        QTest::newRow("bad step list") << R"(/steps|7)" << "/steps";
    }
    void badFilesNameThePath() {
        QFETCH(QString, edit);
        QFETCH(QString, path);
        nlohmann::json doc = traceToJson(record());
        const auto parts = edit.split('|');
        // The first create_node edit of step 0 is the constant or the add node; find a create_node.
        std::string pointer = parts[0].toStdString();
        if (pointer.find("/edits/0/node") != std::string::npos) {
            auto& edits = doc["steps"][0]["edits"];
            for (size_t i = 0; i < edits.size(); ++i)
                if (edits[i]["kind"] == "create_node") {
                    pointer.replace(pointer.find("/edits/0/"), 9, "/edits/" + std::to_string(i) + "/");
                    break;
                }
        }
        doc[nlohmann::json::json_pointer(pointer)] = nlohmann::json::parse(parts[1].toStdString());
        try {
            traceFromJson(doc);
            QFAIL("expected a FormatError");
        } catch (const FormatError& e) {
            QVERIFY2(std::string(e.what()).find(path.toStdString()) != std::string::npos, e.what());
        }
    }
};

TL_TEST_SUITE(TestTraceJson)
#include "tst_trace_json.moc"
