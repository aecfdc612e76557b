// A variable's readers (ir/ClientList.h) through the edits that change them: readers
// leave from the front, the back and anywhere between, in the order they came, also
// when a long list leaves holes behind; and a node with many outputs is pruned when
// its last used output is released, whatever the order.
#include "TestSuites.h"
#include "ir/GraphAssembler.h"
#include "ir/Graph.h"
#include "ir/Rewriter.h"

#include <QtTest>

#include <algorithm>
#include <random>

using namespace tl;

namespace {
// `outputs` outputs of the first input's type, each the first input.
class FanOutOp : public Op {
public:
    explicit FanOutOp(int outputs) : Op(OpKind::Opaque), m_outputs(outputs) {}
    std::string name() const override { return "FanOut" + std::to_string(m_outputs); }
    std::vector<Type> inferTypes(std::span<const Type* const> in) const override {
        if (in.empty()) throw OpTypeError("needs an input");
        return std::vector<Type>(static_cast<size_t>(m_outputs), *in[0]);
    }
    void perform(std::span<const NDArray> in, std::span<NDArray> out) const override {
        for (auto& o : out) o = in[0];
    }

private:
    int m_outputs;
};

// `readers` nodes reading x (then graph outputs 0.. of theirs), y unread; x is also graph output `readers`.
struct Readers {
    Variable* x = nullptr;
    Variable* y = nullptr;
    std::vector<Node*> nodes;
    std::unique_ptr<Graph> g;
    explicit Readers(int readers) {
        GraphAssembler ga;
        auto op = std::make_shared<FanOutOp>(1);
        x = ga.addInput(Type::tensor(DType::Float64, {3}), "x");
        y = ga.addInput(Type::tensor(DType::Float64, {3}), "y");
        std::vector<Variable*> outs;
        for (int i = 0; i < readers; ++i) {
            nodes.push_back(ga.addNode(op, {x}));
            outs.push_back(nodes.back()->output(0));
        }
        outs.push_back(x);
        ga.setOutputs(outs);
        g = ga.finish();
    }
};

// The readers of v, walked, indexed and counted, against `want`.
bool sameReaders(const Variable& v, const std::vector<Client>& want, std::string& why) {
    const ClientList& c = v.clients();
    if (c.size() != want.size()) {
        why = "size " + std::to_string(c.size()) + ", want " + std::to_string(want.size());
        return false;
    }
    std::vector<Client> walked(c.begin(), c.end());
    if (walked != want) {
        why = "walk differs";
        return false;
    }
    for (size_t i = 0; i < want.size(); ++i)
        if (!(c[i] == want[i])) {
            why = "entry " + std::to_string(i) + " differs";
            return false;
        }
    if (!want.empty() && (!(c.front() == want.front()) || !(c.back() == want.back()))) {
        why = "front or back differs";
        return false;
    }
    return true;
}
} // namespace

class TestClientList : public QObject {
    Q_OBJECT
private slots:
    // Readers of a long list leave in a shuffled order (most from between the ends);
    // after every removal the rest keep their order. New readers join at the back
    // while holes are open, and the graph stays valid throughout.
    void readersLeaveFromAnywhereInOrder_data() {
        QTest::addColumn<int>("readers");
        QTest::newRow("short list (shifted)") << int(ClientList::kTableFrom - 2);
        QTest::newRow("long list (holes)") << 700;
    }
    void readersLeaveFromAnywhereInOrder() {
        QFETCH(int, readers);
        Readers r(readers);
        Rewriter rw(*r.g);
        std::vector<Client> want;
        for (Node* n : r.nodes) want.push_back({n, 0});
        want.push_back({nullptr, readers});
        std::vector<Node*> order = r.nodes;
        std::mt19937 random(7);
        std::shuffle(order.begin(), order.end(), random);
        std::string why;
        for (size_t k = 0; k < order.size(); ++k) {
            rw.setInput(order[k], 0, r.y);
            want.erase(std::find(want.begin(), want.end(), Client{order[k], 0}));
            if (k % 5 == 0) {
                // A reader comes back: it joins at the back.
                rw.setInput(order[k], 0, r.x);
                want.push_back({order[k], 0});
                rw.setInput(order[k], 0, r.y);
                want.pop_back();
            }
            QVERIFY2(sameReaders(*r.x, want, why), (std::to_string(k) + ": " + why).c_str());
        }
        QVERIFY2(sameReaders(*r.x, {{nullptr, readers}}, why), why.c_str());
        QCOMPARE(r.y->clients().size(), size_t(readers));
        QVERIFY(r.g->validate().empty());
    }

    // A clone and a moved list keep the readers (not the holes) in order.
    void listsWithHolesCloneAndMove() {
        Readers r(300);
        Rewriter rw(*r.g);
        std::vector<Client> want;
        for (size_t i = 0; i < r.nodes.size(); ++i)
            if (i % 3 == 1) rw.setInput(r.nodes[i], 0, r.y);
            else want.push_back({r.nodes[i], 0});
        want.push_back({nullptr, 300});
        std::string why;
        QVERIFY2(sameReaders(*r.x, want, why), why.c_str());
        auto copy = r.g->clone();
        const Variable* cx = copy->findVariable(r.x->id());
        QCOMPARE(cx->clients().size(), want.size());
        size_t i = 0;
        for (const Client& c : cx->clients()) {
            QCOMPARE(c.index, want[i].index);
            QCOMPARE(c.node ? c.node->id() : -1, want[i].node ? want[i].node->id() : -1);
            ++i;
        }
        QVERIFY(copy->validate().empty());
        // Every reader of x moves to y at once, after y's own, in x's order.
        std::vector<Client> onY(r.y->clients().begin(), r.y->clients().end());
        rw.replace(r.x, r.y);
        QVERIFY(r.x->clients().empty());
        onY.insert(onY.end(), want.begin(), want.end());
        QVERIFY2(sameReaders(*r.y, onY, why), why.c_str());
        QVERIFY(r.g->validate().empty());
    }

    // A node of 400 outputs, each read by one node: releasing its outputs one at a time,
    // in order, in reverse or shuffled, erases it exactly when the last one goes.
    void manyOutputsPruneWithTheLast_data() {
        QTest::addColumn<int>("order");
        QTest::newRow("in order") << 0;
        QTest::newRow("reverse") << 1;
        QTest::newRow("shuffled") << 2;
    }
    void manyOutputsPruneWithTheLast() {
        QFETCH(int, order);
        constexpr int kOutputs = 400;
        GraphAssembler ga;
        Variable* x = ga.addInput(Type::tensor(DType::Float64, {2}), "x");
        Variable* y = ga.addInput(Type::tensor(DType::Float64, {2}), "y");
        Node* fan = ga.addNode(std::make_shared<FanOutOp>(kOutputs), {x});
        auto one = std::make_shared<FanOutOp>(1);
        std::vector<Node*> readers;
        std::vector<Variable*> outs;
        for (int i = 0; i < kOutputs; ++i) {
            readers.push_back(ga.addNode(one, {fan->output(i)}));
            outs.push_back(readers.back()->output(0));
        }
        ga.setOutputs(outs);
        auto g = ga.finish();
        const NodeId fanId = fan->id();
        std::vector<int> which(kOutputs);
        for (int i = 0; i < kOutputs; ++i) which[i] = i;
        if (order == 1) std::reverse(which.begin(), which.end());
        if (order == 2) std::shuffle(which.begin(), which.end(), std::mt19937(11));
        Rewriter rw(*g);
        for (int k = 0; k < kOutputs; ++k) {
            QVERIFY2(g->findNode(fanId), std::to_string(k).c_str());
            rw.setInput(readers[which[k]], 0, y);
        }
        QVERIFY(!g->findNode(fanId));
        QCOMPARE(g->numNodes(), size_t(kOutputs));
        QVERIFY(g->validate().empty());
    }
};

TL_TEST_SUITE(TestClientList)
#include "tst_client_list.moc"
