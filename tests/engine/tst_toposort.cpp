// The graph's topological order: depth-first post-order from the outputs, remembered
// between edits, iterative on deep chains.
#include "IrTestGraphs.h"
#include "TestSuites.h"
#include "ir/Graph.h"
#include "ir/GraphAssembler.h"
#include "ir/Rewriter.h"

#include <QtTest>

#include <algorithm>
#include <functional>
#include <random>
#include <set>

using namespace tl;
using irtest::Chain;
using irtest::PassOp;

class TestToposort : public QObject {
    Q_OBJECT
private slots:
    void toposortIsIterativeOnDeepChains() {
        Chain c(20000);
        auto order = c.g.toposort();
        QCOMPARE(order.size(), size_t(20000));
        QCOMPARE(order.front(), c.nodes.front());
        QCOMPARE(order.back(), c.nodes.back());
    }

    // The order is the recursive depth-first post-order from the outputs (inputs in
    // order, each producer once), unreachable nodes after it by id: on random graphs
    // where producers are shared, read twice by one node, and reached through earlier
    // inputs, it matches a recursive walk written out here.
    void toposortIsTheRecursivePostOrder() {
        std::mt19937 rng(7);
        auto op = std::make_shared<PassOp>();
        for (int round = 0; round < 40; ++round) {
            GraphAssembler ga;
            std::vector<Variable*> vars{ga.addInput(Type::tensor(DType::Float64, {7}), "x"),
                                        ga.addInput(Type::tensor(DType::Float64, {7}), "y")};
            std::vector<Node*> nodes;
            for (int i = 0; i < 120; ++i) {
                std::vector<Variable*> ins;
                const int arity = 1 + static_cast<int>(rng() % 3);
                for (int k = 0; k < arity; ++k) {
                    // Mostly recent values (long chains), sometimes any earlier one.
                    const size_t back = rng() % 4 == 0 ? rng() % vars.size() : rng() % std::min<size_t>(vars.size(), 3);
                    ins.push_back(vars[vars.size() - 1 - back]);
                }
                nodes.push_back(ga.addNode(op, ins));
                vars.push_back(nodes.back()->output(0));
            }
            std::vector<Variable*> outs;
            for (int k = 0; k < 3; ++k) outs.push_back(nodes[nodes.size() - 1 - rng() % 40]->output(0));
            ga.setOutputs(outs);
            auto g = ga.finish();

            std::vector<Node*> want;
            std::set<const Node*> seen;
            std::function<void(Node*)> visit = [&](Node* n) {
                if (!n || !seen.insert(n).second) return;
                for (Variable* in : n->inputs()) visit(in->owner());
                want.push_back(n);
            };
            for (Variable* o : g->outputs()) visit(o->owner());
            std::vector<Node*> rest;
            for (Node* n : g->nodes())
                if (!seen.count(n)) rest.push_back(n);
            std::sort(rest.begin(), rest.end(), [](const Node* a, const Node* b) { return a->id() < b->id(); });
            for (Node* n : rest) visit(n);
            QCOMPARE(g->toposort(), want);
        }
    }

    void toposortPlacesUnreachableNodesById() {
        GraphAssembler ga;
        auto op = std::make_shared<PassOp>();
        Variable* x = ga.addInput(Type::tensor(DType::Float64, {7}), "x");
        Node* a = ga.addNode(op, {x});
        Node* deadB = ga.addNode(op, {a->output(0)});
        Node* deadC = ga.addNode(op, {x});
        Node* deadD = ga.addNode(op, {deadC->output(0), deadB->output(0)});
        Node* out = ga.addNode(op, {a->output(0)});
        ga.setOutputs({out->output(0)});
        auto g = ga.finish();
        const std::vector<Node*> order = g->toposort();
        const std::vector<Node*> want{a, out, deadB, deadC, deadD};
        QCOMPARE(order, want);
    }

    // toposort() is remembered between edits; every kind of edit shows in the next one.
    void toposortFollowsEveryEdit() {
        Chain c(4);
        auto freshOrder = [&] {
            std::vector<NodeId> ids;
            const auto copy = c.g.clone();
            for (Node* n : copy->toposort()) ids.push_back(n->id());
            return ids;
        };
        auto order = [&] {
            std::vector<NodeId> ids;
            for (Node* n : c.g.toposort()) ids.push_back(n->id());
            return ids;
        };
        QCOMPARE(order(), freshOrder());
        Rewriter rw(c.g);
        Node* side = rw.create(std::make_shared<PassOp>(), {c.x});  // unreachable: last
        QCOMPARE(order().back(), side->id());
        rw.setInput(c.nodes[1], 0, side->output(0));  // now reached through nodes[1]
        QCOMPARE(order(), freshOrder());
        QCOMPARE(order().front(), side->id());
        rw.replace(c.nodes[3]->output(0), c.nodes[2]->output(0));  // nodes[3] pruned
        QCOMPARE(order(), freshOrder());
        QCOMPARE(order().size(), size_t(3));
    }
};

TL_TEST_SUITE(TestToposort)
#include "tst_toposort.moc"
