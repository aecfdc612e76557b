// The graph IR on its own: ids, clients, clone, validation, rewriter edits
// (the topological order: tst_toposort.cpp).
#include "TestSuites.h"
#include "IrTestGraphs.h"
#include "ir/GraphAssembler.h"
#include "ir/Graph.h"
#include "ir/IdIndex.h"
#include "ir/Rewriter.h"
#include "rewrite/ConvertVariable.h"

#include <QtTest>

#include <algorithm>
#include <limits>

using namespace tl;

namespace {
using irtest::Chain;
using irtest::PassOp;

// Two outputs of its input's type: ids of several outputs.
class SplitOp : public Op {
public:
    SplitOp() : Op(OpKind::Opaque) {}
    std::string name() const override { return "Split"; }
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override { return {*in[0], *in[0]}; }
    void perform(std::span<const NDArray> in, std::span<NDArray> out) const override { out[0] = out[1] = in[0]; }
};

class Recorder : public RewriteListener {
public:
    std::vector<NodeId> erased;
    void nodeErased(const Node& n) override { erased.push_back(n.id()); }
};
} // namespace

class TestGraph : public QObject {
    Q_OBJECT
private slots:
    void typePrinting_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("expected");
        QTest::newRow("vector") << 0 << "Vector(float64, shape=(7,))";
        QTest::newRow("matrix unknown rows") << 1 << "Matrix(float64, shape=(?, 7))";
        QTest::newRow("0-d tensor") << 2 << "Scalar(int8, shape=())";
        QTest::newRow("scalar type") << 3 << "int64";
        QTest::newRow("tensor3") << 4 << "Tensor3(float32, shape=(1, 2, 3))";
    }
    void typePrinting() {
        QFETCH(int, kind);
        QFETCH(QString, expected);
        const Type types[] = {Type::tensor(DType::Float64, {7}), Type::tensor(DType::Float64, {kUnknownDim, 7}),
                              Type::tensor(DType::Int8, {}), Type::scalar(DType::Int64),
                              Type::tensor(DType::Float32, {1, 2, 3})};
        QCOMPARE(QString::fromStdString(types[kind].toString()), expected);
    }

    void clientsAreExact() {
        Chain c(3);
        QCOMPARE(c.x->clients().size(), size_t(1));
        QCOMPARE(c.nodes[2]->output(0)->clients().front().isGraphOutput(), true);
        QVERIFY(c.g.validate().empty());
    }

    void cloneKeepsIds() {
        Chain c(4);
        auto copy = c.g.clone();
        QCOMPARE(copy->numNodes(), size_t(4));
        for (Node* n : c.nodes) QVERIFY(copy->findNode(n->id()) != nullptr);
        QCOMPARE(copy->nextNodeId(), c.g.nextNodeId());
        QVERIFY(copy->validate().empty());
    }

    void replacePrunesDeadNodesAndNotifies() {
        Chain c(5);
        Rewriter rw(c.g);
        Recorder rec;
        rw.addListener(&rec);
        // Skip nodes 1..3: node 4 now reads node 0.
        rw.setInput(c.nodes[4], 0, c.nodes[0]->output(0));
        QCOMPARE(c.g.numNodes(), size_t(2));
        QCOMPARE(rec.erased.size(), size_t(3));
        QVERIFY(c.g.validate().empty());
        // Ids are never reused.
        Node* fresh = rw.create(std::make_shared<PassOp>(), {c.x});
        QCOMPARE(fresh->id(), NodeId(5));
    }

    void replaceRejectsIncompatibleTypes() {
        Chain c(2);
        Rewriter rw(c.g);
        Variable* other = rw.constant(NDArray::zeros(DType::Float64, {3}));
        QVERIFY_THROWS_EXCEPTION(GraphError, rw.replace(c.nodes[0]->output(0), other));
        // With the rewrite layer's converter, what it cannot convert still fails,
        // naming the replaced value's producer.
        rw::convertLessSpecificReplacements(rw);
        try {
            rw.replace(c.nodes[0]->output(0), other);
            QFAIL("replaced a scalar with a vector");
        } catch (const GraphError& e) {
            QVERIFY2(std::string(e.what()).find("output of") != std::string::npos, e.what());
        }
    }

    // Passes walk client lists in order (worklists, fusion), so replace and pruning keep
    // the order one setInput per client would give: the replacement's own clients
    // first, then the moved ones in their old order.
    void replaceAndPruneKeepClientOrder() {
        GraphAssembler ga;
        auto op = std::make_shared<PassOp>();
        Variable* x = ga.addInput(Type::tensor(DType::Float64, {7}), "x");
        Variable* y = ga.addInput(Type::tensor(DType::Float64, {7}), "y");
        Node* onY = ga.addNode(op, {y});
        std::vector<Node*> onX;
        for (int i = 0; i < 5; ++i) onX.push_back(ga.addNode(op, {x, x}));
        std::vector<Variable*> outs{onY->output(0), x};
        for (Node* n : onX) outs.push_back(n->output(0));
        outs.pop_back();  // the last reader of x feeds nothing: pruned below
        ga.setOutputs(outs);
        auto g = ga.finish();
        Rewriter rw(*g);
        rw.pruneDead();
        QCOMPARE(g->numNodes(), size_t(5));
        // x: (onX[k], 0), (onX[k], 1) for k < 4, then graph output 1.
        QCOMPARE(x->clients().size(), size_t(9));
        QVERIFY(x->clients().back().isGraphOutput());
        rw.replace(x, y);
        QVERIFY(x->clients().empty());
        std::vector<Client> want{{onY, 0}};
        for (int k = 0; k < 4; ++k) {
            want.push_back({onX[k], 0});
            want.push_back({onX[k], 1});
        }
        want.push_back({nullptr, 1});
        QCOMPARE(y->clients().size(), want.size());
        for (size_t i = 0; i < want.size(); ++i) QVERIFY2(y->clients()[i] == want[i], std::to_string(i).c_str());
        QCOMPARE(g->output(1), y);
        QVERIFY(g->validate().empty());
        // Output 3 now reads y, which erases onX[1]; the other clients keep their order.
        rw.setOutput(3, y);
        want.erase(want.begin() + 3, want.begin() + 5);
        want.push_back({nullptr, 3});
        QCOMPARE(g->numNodes(), size_t(4));
        QCOMPARE(y->clients().size(), want.size());
        for (size_t i = 0; i < want.size(); ++i) QVERIFY2(y->clients()[i] == want[i], std::to_string(i).c_str());
        QVERIFY(g->validate().empty());
    }

    // Nodes no output needs come after the reachable ones, by id, inputs first.
    // A client list drops readers from its front, its back and between (a hole there,
    // closed later): either way the readers left keep their order, through many
    // removals from both ends and the middle (tst_client_list has more).
    void clientListRemovalsKeepOrder() {
        GraphAssembler ga;
        auto op = std::make_shared<PassOp>();
        Variable* x = ga.addInput(Type::tensor(DType::Float64, {3}), "x");
        Variable* y = ga.addInput(Type::tensor(DType::Float64, {3}), "y");
        std::vector<Node*> readers;
        std::vector<Variable*> outs;
        for (int i = 0; i < 200; ++i) {
            readers.push_back(ga.addNode(op, {x}));
            outs.push_back(readers.back()->output(0));
        }
        ga.setOutputs(outs);
        auto g = ga.finish();
        Rewriter rw(*g);
        std::vector<Client> want;
        for (Node* n : readers) want.push_back({n, 0});
        // Front, back, middle, in turn: each reader moves from x to y.
        size_t step = 0;
        while (!want.empty()) {
            const size_t k = step % 3 == 0 ? 0 : step % 3 == 1 ? want.size() - 1 : want.size() / 2;
            rw.setInput(want[k].node, 0, y);
            want.erase(want.begin() + static_cast<std::ptrdiff_t>(k));
            ++step;
            QCOMPARE(x->clients().size(), want.size());
            for (size_t i = 0; i < want.size(); ++i) QVERIFY2(x->clients()[i] == want[i], std::to_string(i).c_str());
            if (!want.empty()) {
                QVERIFY(x->clients().front() == want.front());
                QVERIFY(x->clients().back() == want.back());
            }
        }
        QVERIFY(x->clients().empty());
        QCOMPARE(y->clients().size(), readers.size());
        QVERIFY(g->validate().empty());
        // Readers added after removals go to the back.
        rw.setInput(readers[5], 0, x);
        rw.setInput(readers[2], 0, x);
        QCOMPARE(x->clients().size(), size_t(2));
        QVERIFY((x->clients()[0] == Client{readers[5], 0}));
        QVERIFY((x->clients()[1] == Client{readers[2], 0}));
        QVERIFY(g->validate().empty());
    }

    // Ids from a file may be far apart or negative: lookups, duplicates and erasure
    // work the same as for the dense ids a graph hands out itself.
    void idsFarApartAreFound() {
        GraphAssembler ga;
        auto op = std::make_shared<PassOp>();
        Variable* x = ga.addInput(Type::tensor(DType::Float64, {7}), "x", VarId(1'000'000'000'000'000));
        Variable* c = ga.addConstant(NDArray::zeros(DType::Float64, {7}), {}, "c", VarId(-3));
        Node* a = ga.addNode(op, {x, c}, NodeId(7'000'000'000'000));
        Node* b = ga.addNode(op, {a->output(0)}, NodeId(-12));
        Node* d = ga.addNode(op, {b->output(0)}, NodeId(3));
        QVERIFY_THROWS_EXCEPTION(GraphError, ga.addNode(op, {x}, NodeId(-12)));
        QVERIFY_THROWS_EXCEPTION(GraphError, ga.addInput(Type::tensor(DType::Float64, {7}), "y", VarId(-3)));
        ga.setOutputs({d->output(0)});
        auto g = ga.finish();
        QCOMPARE(g->findVariable(1'000'000'000'000'000), x);
        QCOMPARE(g->findVariable(-3), c);
        QCOMPARE(g->findNode(7'000'000'000'000), a);
        QCOMPARE(g->findNode(-12), b);
        QCOMPARE(g->findNode(3), d);
        QCOMPARE(g->findNode(4), nullptr);
        QCOMPARE(g->findVariable(-2), nullptr);
        // Fresh ids continue after the largest.
        QCOMPARE(g->nextNodeId(), NodeId(7'000'000'000'001));
        auto copy = g->clone();
        QCOMPARE(copy->findNode(-12)->id(), NodeId(-12));
        QVERIFY(copy->validate().empty());
        Rewriter rw(*g);
        rw.setInput(d, 0, a->output(0));  // b is dead and pruned
        QCOMPARE(g->findNode(-12), nullptr);
        QCOMPARE(g->numNodes(), size_t(2));
        QVERIFY(g->validate().empty());
    }

    // Both ends of the id range in one index: their difference overflows a signed int64.
    void idIndexTakesIdsAtBothExtremes() {
        IdIndex<int> index;
        int a = 1, b = 2, c = 3;
        const int64_t lowest = std::numeric_limits<int64_t>::min() + 1;
        const int64_t highest = std::numeric_limits<int64_t>::max() - 1;
        QVERIFY(index.insert(lowest, &a));
        QVERIFY(index.insert(highest, &b));
        QVERIFY(index.insert(lowest + 2, &c));
        QVERIFY(!index.insert(highest, &c));
        QCOMPARE(index.find(lowest), &a);
        QCOMPARE(index.find(highest), &b);
        QCOMPARE(index.find(lowest + 2), &c);
        QCOMPARE(index.find(0), nullptr);
        index.erase(highest);
        QCOMPARE(index.find(highest), nullptr);
        QCOMPARE(index.size(), size_t(2));
    }

    // An id far past the others goes to the map; when the array later grows over it
    // (the ids in between filled in), it is still found, and can be erased.
    void idIndexArrayGrowingOverMappedIds() {
        IdIndex<int> index;
        std::vector<int> values(10000);
        QVERIFY(index.insert(0, &values[0]));
        QVERIFY(index.insert(6000, &values[1]));  // beyond 4 * 1 + 4096: mapped
        for (int id = 1; id < 5000; ++id) QVERIFY(index.insert(id, &values[static_cast<size_t>(id) + 1]));
        QCOMPARE(index.find(6000), &values[1]);
        QVERIFY(!index.insert(6000, &values[2]));
        QCOMPARE(index.size(), size_t(5001));
        index.erase(6000);
        QCOMPARE(index.find(6000), nullptr);
        QCOMPARE(index.size(), size_t(5000));
        QVERIFY(index.insert(6000, &values[3]));
        QCOMPARE(index.find(6000), &values[3]);
    }

    void countsNodesByKind() {
        Chain c(3);
        QCOMPARE(c.g.countOfKind(OpKind::Opaque), size_t(3));
        QCOMPARE(c.g.countOfKind(OpKind::Scan), size_t(0));
        Rewriter rw(c.g);
        rw.replace(c.nodes[2]->output(0), c.nodes[1]->output(0));
        QCOMPARE(c.g.countOfKind(OpKind::Opaque), size_t(2));
        QCOMPARE(c.nodes[0]->kind(), OpKind::Opaque);
    }

    // Node and variable slots number each kind 0 .. count - 1 without gaps, and stay
    // so after erasures (an erased entry's slot goes to another): per-node and
    // per-variable arrays of a walk are indexed by them.
    void slotsAreDenseAfterErasures() {
        Chain c(5);
        auto dense = [&] {
            std::vector<int> nodeSeen(c.g.numNodes()), varSeen(c.g.numVariables());
            for (const Node* n : c.g.nodes()) {
                if (n->slot() >= nodeSeen.size() || nodeSeen[n->slot()]++) return false;
                for (const Variable* v : n->outputs())
                    if (v->slot() >= varSeen.size() || varSeen[v->slot()]++) return false;
            }
            for (const Variable* v : c.g.inputs())
                if (v->slot() >= varSeen.size() || varSeen[v->slot()]++) return false;
            return std::count(varSeen.begin(), varSeen.end(), 1) == static_cast<long>(varSeen.size());
        };
        QCOMPARE(c.g.numVariables(), size_t(6));  // x and one output per node
        QVERIFY(dense());
        Rewriter rw(c.g);
        rw.replace(c.nodes[2]->output(0), c.nodes[0]->output(0));  // nodes[1] and [2] pruned
        QCOMPARE(c.g.numNodes(), size_t(3));
        QCOMPARE(c.g.numVariables(), size_t(4));
        QVERIFY(dense());
    }

    void constantsAreListedInIdOrderAfterErasure() {
        GraphAssembler ga;
        auto op = std::make_shared<PassOp>();
        Variable* x = ga.addInput(Type::tensor(DType::Float64, {7}), "x");
        std::vector<Variable*> cs;
        for (int i = 0; i < 4; ++i) cs.push_back(ga.addConstant(NDArray::zeros(DType::Float64, {7})));
        Node* n = ga.addNode(op, {x, cs[0], cs[1], cs[2], cs[3]});
        ga.setOutputs({n->output(0)});
        auto g = ga.finish();
        QCOMPARE(g->constants(), cs);
        Rewriter rw(*g);
        rw.setInput(n, 1, x);  // cs[0] loses its last client and is erased
        QCOMPARE(g->constants(), (std::vector<Variable*>{cs[1], cs[2], cs[3]}));
        QCOMPARE(g->findVariable(cs[1]->id()), cs[1]);
        QVERIFY(g->validate().empty());
    }

    // Constants come in id order whether their ids are dense (a graph built here)
    // or far apart, negative or at both ends of int64 (a file's), and whatever order
    // they were added in.
    void constantsAreListedInIdOrderForAnyIds() {
        for (const std::vector<VarId>& ids : {std::vector<VarId>{9, 3, 7, 4, 12, 5}, std::vector<VarId>{40'000'000'000, -3, 17, -90'000, 5},
                                           std::vector<VarId>{std::numeric_limits<VarId>::max(), std::numeric_limits<VarId>::min()}}) {
            GraphAssembler ga;
            auto op = std::make_shared<PassOp>();
            std::vector<Variable*> ins{ga.addInput(Type::tensor(DType::Float64, {7}), "x", VarId(1'000'000))};
            for (VarId id : ids) ins.push_back(ga.addConstant(NDArray::zeros(DType::Float64, {7}), {}, {}, id));
            const std::vector<VarId> outputId{VarId(1'000'001)};  // no fresh id after the largest
            Node* n = ga.addNode(op, ins, NodeId(0), nullptr, &outputId);
            ga.setOutputs({n->output(0)});
            auto g = ga.finish();
            std::vector<VarId> got;
            for (Variable* c : g->constants()) got.push_back(c->id());
            std::vector<VarId> want = ids;
            std::sort(want.begin(), want.end());
            QCOMPARE(got, want);
        }
    }

    // An output id that is taken fails before anything is made: the graph keeps no
    // half-added node or variable (a file's duplicate ids end here).
    void aNodeWhoseOutputIdIsTakenLeavesTheGraphAsItWas() {
        GraphAssembler ga;
        auto op = std::make_shared<PassOp>();
        Variable* x = ga.addInput(Type::tensor(DType::Float64, {7}), "x", VarId(5));
        Node* a = ga.addNode(op, {x}, NodeId(1));
        const std::vector<VarId> taken{VarId(5)};
        try {
            ga.addNode(op, {a->output(0)}, NodeId(2), nullptr, &taken);
            QFAIL("expected an error");
        } catch (const GraphError& e) {
            QVERIFY2(std::string(e.what()).find("Pass#2: variable id 5 is used twice") != std::string::npos, e.what());
        }
        // Two outputs given one id: found before either exists.
        const std::vector<VarId> twice{VarId(8), VarId(8)};
        QVERIFY_THROWS_EXCEPTION(GraphError, ga.addNode(std::make_shared<SplitOp>(), {a->output(0)}, NodeId(3), nullptr, &twice));
        ga.setOutputs({a->output(0)});
        auto g = ga.finish();
        QCOMPARE(g->numNodes(), size_t(1));
        QCOMPARE(g->numVariables(), size_t(2));
        QCOMPARE(g->findVariable(8), nullptr);
        QCOMPARE(a->output(0)->clients().size(), size_t(1));  // the graph output only
        QCOMPARE(g->findNode(2), nullptr);
        QVERIFY(g->validate().empty());
    }

    // A file may use the largest id; a fresh id after it is refused with an error
    // (no signed overflow, no id handed out twice).
    void theLargestIdLeavesNoFreshOne() {
        GraphAssembler ga;
        auto op = std::make_shared<PassOp>();
        Variable* x = ga.addInput(Type::tensor(DType::Float64, {7}), "x", std::numeric_limits<VarId>::max());
        try {
            ga.addNode(op, {x}, std::numeric_limits<NodeId>::max());
            QFAIL("expected an error");
        } catch (const GraphError& e) {
            QVERIFY2(std::string(e.what()).find("is used twice") != std::string::npos, e.what());
        }
        QCOMPARE(ga.addInput(Type::tensor(DType::Float64, {7}), "y", VarId(0))->id(), VarId(0));
    }

    void addNodeErrorNamesTheNode() {
        GraphAssembler ga;
        try {
            ga.addNode(std::make_shared<PassOp>(), {});
            QFAIL("expected an error");
        } catch (const GraphError& e) {
            QVERIFY2(std::string(e.what()).find("Pass#0") != std::string::npos, e.what());
        }
    }
};

TL_TEST_SUITE(TestGraph)
#include "tst_graph.moc"
