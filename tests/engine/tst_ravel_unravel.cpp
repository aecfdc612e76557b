// RavelMultiIndex and UnravelIndex (numpy's ravel_multi_index / unravel_index as
// PyTensor 2.34's ops): kernels against NumPy's values (numpy 1.24 in
// ../shared/pytensor, printed with tolist()) in C and F order, the three modes,
// broadcast and 0-d indices; NumPy's errors; static types; names, JSON params as the
// exporter writes them; and a graph using both that runs, prints, reads back, folds
// and goes through FAST_RUN.
#include "TestSuites.h"
#include "ArrayOpsTestUtil.h"
#include "RewriteCheck.h"

#include "builder/ArrayOps.h"
#include "io/DPrint.h"
#include "io/DPrintImport.h"
#include "io/JsonGraph.h"
#include "ops/RavelMultiIndex.h"
#include "ops/UnravelIndex.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <limits>

using namespace tl;
using namespace tl::test;

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }

std::vector<Type> infer(const Op& op, const std::vector<Type>& types) {
    std::vector<const Type*> p;
    for (const Type& t : types) p.push_back(&t);
    return op.inferTypes(p);
}

NDArray ints(DType d, const Shape& shape, const std::vector<double>& v) { return arr(d, shape, v); }

struct RavelCase {
    const char* name;
    std::vector<NDArray> indices;
    std::vector<int64_t> dims;
    std::vector<std::string> modes;
    const char* order;
    Shape shape;
    std::vector<double> want;  // np.ravel_multi_index(indices, dims, mode, order).tolist()
};

const std::vector<RavelCase>& ravelCases() {
    static const std::vector<RavelCase> cases = [] {
        const double kMin = static_cast<double>(std::numeric_limits<int64_t>::min());
        std::vector<RavelCase> c;
        c.push_back({"C order", {int64s({1, 2}), int64s({3, 4})}, {3, 5}, {"raise"}, "C", {2}, {8, 14}});
        c.push_back({"F order", {int64s({1, 2}), int64s({3, 4})}, {3, 5}, {"raise"}, "F", {2}, {10, 14}});
        c.push_back({"three dims C", {int64s({1, 0, 2}), int64s({2, 3, 0}), int64s({1, 1, 0})}, {3, 4, 2}, {"raise"}, "C",
                     {3}, {13, 7, 16}});
        c.push_back({"three dims F", {int64s({1, 0, 2}), int64s({2, 3, 0}), int64s({1, 1, 0})}, {3, 4, 2}, {"raise"}, "F",
                     {3}, {19, 21, 2}});
        c.push_back({"wrap", {int64s({1, 7, -4, -16}), int64s({3, 4, -1, 12})}, {3, 5}, {"wrap"}, "C", {4}, {8, 9, 14, 12}});
        c.push_back({"wrap of the extremes", {ints(DType::Int64, {2}, {kMin, 4611686018427387904.0}), int64s({3, -7})},
                     {3, 5}, {"wrap"}, "C", {2}, {8, 8}});
        c.push_back({"clip", {int64s({1, 7, -4, -16}), int64s({3, 4, -1, 12})}, {3, 5}, {"clip"}, "C", {4}, {8, 14, 0, 4}});
        c.push_back({"one mode per index", {int64s({1, 7, -4, -16}), int64s({3, 4, -1, 12})}, {3, 5}, {"clip", "wrap"}, "C",
                     {4}, {8, 14, 4, 2}});
        c.push_back({"column and row broadcast", {ints(DType::Int64, {3, 1}, {0, 1, 2}), int64s({0, 1, 4})}, {3, 5},
                     {"raise"}, "C", {3, 3}, {0, 1, 4, 5, 6, 9, 10, 11, 14}});
        c.push_back({"column and row broadcast F", {ints(DType::Int64, {3, 1}, {0, 1, 2}), int64s({0, 1, 4})}, {3, 5},
                     {"raise"}, "F", {3, 3}, {0, 3, 12, 1, 4, 13, 2, 5, 14}});
        c.push_back({"row and column broadcast", {ints(DType::Int64, {1, 2}, {1, 2}), ints(DType::Int64, {3, 1}, {0, 1, 2})},
                     {3, 5}, {"raise"}, "C", {3, 2}, {5, 10, 6, 11, 7, 12}});
        c.push_back({"0-d indices", {i64(2), i64(3)}, {3, 5}, {"raise"}, "C", {}, {13}});
        c.push_back({"0-d and a vector", {i64(2), int64s({1, 2})}, {3, 5}, {"raise"}, "C", {2}, {11, 12}});
        c.push_back({"uint8 and int8 indices", {ints(DType::UInt8, {1}, {1}), ints(DType::Int8, {1}, {1})}, {3, 5},
                     {"raise"}, "C", {1}, {6}});
        c.push_back({"empty indices and a zero dim", {int64s({}), int64s({})}, {3, 0}, {"raise"}, "C", {0}, {}});
        c.push_back({"one dim", {int64s({0, 5, 11})}, {12}, {"raise"}, "C", {3}, {0, 5, 11}});
        return c;
    }();
    return cases;
}

struct UnravelCase {
    const char* name;
    NDArray indices;
    std::vector<int64_t> dims;
    const char* order;
    Shape shape;
    std::vector<std::vector<double>> want;  // [a.tolist() for a in np.unravel_index(indices, dims, order)]
};

const std::vector<UnravelCase>& unravelCases() {
    static const std::vector<UnravelCase> cases = [] {
        std::vector<UnravelCase> c;
        c.push_back({"C order", int64s({22, 41, 37}), {7, 6}, "C", {3}, {{3, 6, 6}, {4, 5, 1}}});
        c.push_back({"F order", int64s({31, 41, 13}), {7, 6}, "F", {3}, {{3, 6, 6}, {4, 5, 1}}});
        c.push_back({"three dims C", int64s({0, 7, 23}), {2, 3, 4}, "C", {3}, {{0, 0, 1}, {0, 1, 2}, {0, 3, 3}}});
        c.push_back({"three dims F", int64s({0, 7, 23}), {2, 3, 4}, "F", {3}, {{0, 1, 1}, {0, 0, 2}, {0, 1, 3}}});
        c.push_back({"0-d index", i64(1621), {6, 7, 8, 9}, "C", {}, {{3}, {1}, {4}, {1}}});
        c.push_back({"matrix of indices", ints(DType::Int64, {2, 2}, {3, 4, 5, 6}), {2, 4}, "C", {2, 2},
                     {{0, 1, 1, 1}, {3, 0, 1, 2}}});
        c.push_back({"matrix of indices F", ints(DType::Int64, {2, 2}, {3, 4, 5, 6}), {2, 4}, "F", {2, 2},
                     {{1, 0, 1, 0}, {1, 2, 2, 3}}});
        c.push_back({"uint8 indices", ints(DType::UInt8, {2}, {0, 41}), {7, 6}, "C", {2}, {{0, 6}, {0, 5}}});
        c.push_back({"empty indices and a zero dim", int64s({}), {7, 0}, "C", {0}, {{}, {}}});
        return c;
    }();
    return cases;
}

// The ExecError of running `op` on these inputs through a one-node graph, so the
// message carries the node's label as a user sees it.
std::string runError(const OpPtr& op, const std::vector<NDArray>& inputs, int numOutputs = 1) {
    GraphAssembler g;
    std::vector<Variable*> ins;
    for (const NDArray& a : inputs) {
        StaticShape s(a.shape().begin(), a.shape().end());
        ins.push_back(g.addInput(Type::tensor(a.dtype(), s)));
    }
    Node* n = g.addNode(op, ins, NodeId{7});
    std::vector<Variable*> outs;
    for (int k = 0; k < numOutputs; ++k) outs.push_back(n->output(k));
    g.setOutputs(outs);
    auto graph = g.finish();
    return errorMessage([&] { run(*graph, inputs); });
}

// pt.ravel_multi_index((rows, cols), (5, 6)) and pt.unravel_index of it back, as the
// corpus program ravel_slices builds them.
std::unique_ptr<Graph> roundTripGraph() {
    GraphBuilder b;
    Var rows = b.input("rows", DType::Int64, {4});
    Var cols = b.input("cols", DType::Int64, {4});
    Var flat = ravelMultiIndex({rows, cols}, {5, 6});
    auto back = unravelIndex(flat, {5, 6}, "F");
    return b.finish({flat, back[0], back[1]});
}
} // namespace

class TestRavelUnravel : public QObject {
    Q_OBJECT

private slots:
    void ravel_data() {
        QTest::addColumn<int>("which");
        for (size_t i = 0; i < ravelCases().size(); ++i) QTest::newRow(ravelCases()[i].name) << static_cast<int>(i);
    }
    void ravel() {
        QFETCH(int, which);
        const RavelCase& c = ravelCases()[static_cast<size_t>(which)];
        std::vector<NDArray> in = c.indices;
        in.push_back(int64s(c.dims));
        TL_CHECK_VALUES(perform(*makeRavelMultiIndex(c.modes, c.order), in)[0], DType::Int64, c.shape, c.want);
    }

    void unravel_data() {
        QTest::addColumn<int>("which");
        for (size_t i = 0; i < unravelCases().size(); ++i) QTest::newRow(unravelCases()[i].name) << static_cast<int>(i);
    }
    void unravel() {
        QFETCH(int, which);
        const UnravelCase& c = unravelCases()[static_cast<size_t>(which)];
        const int n = static_cast<int>(c.dims.size());
        auto got = perform(*makeUnravelIndex(c.order), {c.indices, int64s(c.dims)}, n);
        for (int d = 0; d < n; ++d) TL_CHECK_VALUES(got[d], DType::Int64, c.shape, c.want[d]);
    }

    // What NumPy raises, raised with the node's label; and int32 dims read as numbers.
    void ravelErrors() {
        const std::string oob = runError(makeRavelMultiIndex(), {int64s({1, 3}), int64s({3, 4}), int64s({3, 5})});
        QVERIFY2(q(oob).startsWith("RavelMultiIndex{mode='raise', order='C'}#7: RavelMultiIndex: invalid entry in "
                                   "coordinates array: index 3 is out of bounds for dimension 0 with size 3"),
                 oob.c_str());
        QVERIFY(errorOf([&] { perform(*makeRavelMultiIndex(), {int64s({1, -1}), int64s({3, 4}), int64s({3, 5})}); })
                    .contains("index -1 is out of bounds for dimension 0 with size 3"));
        // Only the index that is out of its dimension raises, whatever the other modes.
        QVERIFY(errorOf([&] { perform(*makeRavelMultiIndex({"wrap", "raise"}), {int64s({9}), int64s({5}), int64s({3, 5})}); })
                    .contains("index 5 is out of bounds for dimension 1 with size 5"));
        QVERIFY(errorOf([&] { perform(*makeRavelMultiIndex({"clip"}), {int64s({1}), int64s({0}), int64s({3, 0})}); })
                    .contains("cannot unravel if shape has zero entries (is empty)"));
        QVERIFY(errorOf([&] { perform(*makeRavelMultiIndex({"wrap"}), {int64s({1}), int64s({3}), int64s({3, -5})}); })
                    .contains("negative dimensions are not allowed: dims (3, -5)"));
        QVERIFY(errorOf([&] { perform(*makeRavelMultiIndex(), {int64s({1}), int64s({3}), int64s({3, 5, 2})}); })
                    .contains("parameter multi_index must be a sequence of length 3"));
        QVERIFY(errorOf([&] { perform(*makeRavelMultiIndex(), {int64s({1, 2}), int64s({3, 4, 5}), int64s({3, 5})}); })
                    .contains("operands could not be broadcast together with shapes (2,) (3,)"));
        QVERIFY(errorOf([&] { perform(*makeRavelMultiIndex(), {int64s({1}), int64s({1}), int64s({1LL << 40, 1LL << 40})}); })
                    .contains("invalid dims: array size defined by dims is larger than the maximum possible size"));
        TL_CHECK_VALUES(perform(*makeRavelMultiIndex(), {int64s({1, 2}), int64s({3, 4}), ints(DType::Int32, {2}, {3, 5})})[0],
                        DType::Int64, {2}, {8, 14});
        // Bad props, as NumPy's and PyTensor's constructors refuse them.
        QVERIFY(errorOf([&] { makeRavelMultiIndex({"foo"}); }).contains("clipmode must be one of 'clip', 'raise', or 'wrap' (got 'foo')"));
        QVERIFY(errorOf([&] { makeRavelMultiIndex({"raise"}, "A"); }).contains("order must be 'C' or 'F'"));
    }

    void unravelErrors() {
        const std::string oob = runError(makeUnravelIndex(), {int64s({41, 42}), int64s({7, 6})}, 2);
        QVERIFY2(q(oob).startsWith("UnravelIndex{order='C'}#7: UnravelIndex: index 42 is out of bounds for array with size 42"),
                 oob.c_str());
        QVERIFY(errorOf([&] { perform(*makeUnravelIndex(), {i64(-1), int64s({7, 6})}, 2); })
                    .contains("index -1 is out of bounds for array with size 42"));
        QVERIFY(errorOf([&] { perform(*makeUnravelIndex(), {i64(5), int64s({7, 0})}, 2); })
                    .contains("index 5 is out of bounds for array with size 0"));
        QVERIFY(errorOf([&] { perform(*makeUnravelIndex(), {i64(1), int64s({-7, -6})}, 2); })
                    .contains("negative dimensions are not allowed: dims (-7, -6)"));
        QVERIFY(errorOf([&] { perform(*makeUnravelIndex(), {i64(1), int64s({1LL << 31, 1LL << 32})}, 2); })
                    .contains("dimensions are too large; arrays and shapes with a total size greater than 'intp' are not supported"));
        QVERIFY(errorOf([&] { makeUnravelIndex("K"); }).contains("order must be 'C' or 'F'"));
    }

    // PyTensor's make_node: int64 outputs with no static dims; the rank of the broadcast
    // (where PyTensor takes the first index array's); one UnravelIndex output per dim.
    void types() {
        const Type vec = Type::tensor(DType::Int64, {7}), mat = Type::tensor(DType::Int32, {3, 1});
        const Type dims2 = Type::tensor(DType::Int64, {2});
        QCOMPARE(q(infer(*makeRavelMultiIndex(), {vec, vec, dims2})[0].toString()), QString("Vector(int64, shape=(?,))"));
        QCOMPARE(q(infer(*makeRavelMultiIndex(), {vec, mat, dims2})[0].toString()), QString("Matrix(int64, shape=(?, ?))"));
        QCOMPARE(q(infer(*makeRavelMultiIndex(), {Type::tensor(DType::Int8, {}), Type::tensor(DType::UInt8, {}), dims2})[0].toString()),
                 QString("Scalar(int64, shape=())"));
        QVERIFY(errorOf([&] { infer(*makeRavelMultiIndex(), {Type::tensor(DType::Float64, {7}), vec, dims2}); })
                    .contains("'float64' object cannot be interpreted as an index"));
        QVERIFY(errorOf([&] { infer(*makeRavelMultiIndex(), {Type::tensor(DType::Bool, {7}), vec, dims2}); })
                    .contains("'bool' object cannot be interpreted as an index"));
        QVERIFY(errorOf([&] { infer(*makeRavelMultiIndex(), {vec, vec, Type::tensor(DType::Int64, {1, 2})}); })
                    .contains("dims must be a 1D array"));
        QVERIFY(errorOf([&] { infer(*makeRavelMultiIndex(), {dims2}); }).contains("takes the index arrays and then dims"));
        QVERIFY(errorOf([&] { infer(*makeRavelMultiIndex({"clip", "wrap", "raise"}), {vec, vec, dims2}); })
                    .contains("list of clipmodes has wrong length (3 instead of 2)"));

        auto t = infer(*makeUnravelIndex(), {mat, Type::tensor(DType::Int16, {3})});
        QCOMPARE(static_cast<int>(t.size()), 3);
        for (const Type& o : t) QCOMPARE(q(o.toString()), QString("Matrix(int64, shape=(?, ?))"));
        QCOMPARE(q(infer(*makeUnravelIndex(), {Type::tensor(DType::Int32, {}), dims2})[1].toString()), QString("Scalar(int64, shape=())"));
        QVERIFY(errorOf([&] { infer(*makeUnravelIndex(), {vec, Type::tensor(DType::Int64, {kUnknownDim})}); })
                    .contains("the length of dims cannot be determined"));
        QVERIFY(errorOf([&] { infer(*makeUnravelIndex(), {vec, Type::tensor(DType::Int64, {0})}); }).contains("dims is empty"));
        QVERIFY(errorOf([&] { infer(*makeUnravelIndex(), {Type::tensor(DType::Float32, {7}), dims2}); })
                    .contains("'float32' object cannot be interpreted as an index"));
    }

    void namesAndParams() {
        QCOMPARE(q(makeRavelMultiIndex()->name()), QString("RavelMultiIndex{mode='raise', order='C'}"));
        QCOMPARE(q(makeRavelMultiIndex({"wrap"}, "F")->name()), QString("RavelMultiIndex{mode='wrap', order='F'}"));
        QCOMPARE(q(makeRavelMultiIndex({"clip", "wrap"})->name()), QString("RavelMultiIndex{mode=('clip', 'wrap'), order='C'}"));
        QCOMPARE(q(makeUnravelIndex("F")->name()), QString("UnravelIndex{order='F'}"));
        QCOMPARE(q(makeRavelMultiIndex({"clip"}, "F")->params().dump()), QString(R"({"mode":"clip","order":"F"})"));
        QCOMPARE(q(makeRavelMultiIndex({"clip", "raise"})->params().dump()), QString(R"({"mode":["clip","raise"],"order":"C"})"));
        QCOMPARE(q(makeUnravelIndex()->params().dump()), QString(R"({"order":"C"})"));
        for (const OpPtr& op : {makeRavelMultiIndex(), makeRavelMultiIndex({"wrap"}, "F"), makeRavelMultiIndex({"clip", "wrap"}),
                                makeUnravelIndex(), makeUnravelIndex("F")})
            checkJsonRoundTrip(op);
        QVERIFY(!makeRavelMultiIndex({"clip"})->equals(*makeRavelMultiIndex({"wrap"})));
        QVERIFY(!makeUnravelIndex("C")->equals(*makeUnravelIndex("F")));
    }

    // As tools/pytensor_export.py writes them: the class name as the op, __props__ as
    // params, PyTensor's declared types ((?,) dims).
    void exportedJsonLoads() {
        const char* doc = R"({"format": "tensorlens-graph", "version": 1, "graph": {
          "inputs": [{"id": 0, "name": "rows", "type": {"kind": "tensor", "dtype": "int64", "shape": [4]}},
                     {"id": 1, "name": "cols", "type": {"kind": "tensor", "dtype": "int64", "shape": [4]}}],
          "constants": [{"id": 2, "type": {"kind": "tensor", "dtype": "int64", "shape": [2]}, "dtype": "int64", "shape": [2], "data": [5, 6]}],
          "nodes": [{"id": 0, "op": "RavelMultiIndex", "params": {"mode": "raise", "order": "C"}, "inputs": [0, 1, 2],
                     "outputs": [{"id": 3, "type": {"kind": "tensor", "dtype": "int64", "shape": [null]}}]},
                    {"id": 1, "op": "UnravelIndex", "params": {"order": "C"}, "inputs": [3, 2],
                     "outputs": [{"id": 4, "type": {"kind": "tensor", "dtype": "int64", "shape": [null]}},
                                 {"id": 5, "type": {"kind": "tensor", "dtype": "int64", "shape": [null]}}]}],
          "outputs": [3, 4, 5], "next_node_id": 2, "next_var_id": 6}})";
        auto g = graphFromJsonText(doc);
        QVERIFY(g->validate().empty());
        auto out = run(*g, {int64s({0, 4, 2, 3}), int64s({5, 0, 3, 1})});
        TL_CHECK_VALUES(out[0], DType::Int64, {4}, {5, 24, 15, 19});
        TL_CHECK_VALUES(out[1], DType::Int64, {4}, {0, 4, 2, 3});
        TL_CHECK_VALUES(out[2], DType::Int64, {4}, {5, 0, 3, 1});
        QCOMPARE(q(graphToJsonText(*graphFromJsonText(graphToJsonText(*g)))), q(graphToJsonText(*g)));
        std::string bad = doc;
        bad.replace(bad.find(R"("mode": "raise")"), 15, R"("mode": "bogus")");
        const QString e = errorOf([&] { graphFromJsonText(bad); });
        QVERIFY2(e.contains("/graph/nodes/0/params") && e.contains("clipmode must be one of"), qPrintable(e));
        std::string wrongOrder = doc;
        wrongOrder.replace(wrongOrder.find(R"({"order": "C"})"), 14, R"({"order": "X"})");
        QVERIFY(errorOf([&] { graphFromJsonText(wrongOrder); }).contains("/graph/nodes/1/params"));
        std::string extra = doc;
        extra.replace(extra.find(R"({"order": "C"})"), 14, R"({"order": "C", "axis": 0})");
        QVERIFY(errorOf([&] { graphFromJsonText(extra); }).contains("unknown key \"axis\""));
    }

    void graphRunsPrintsAndReadsBack() {
        auto g = roundTripGraph();
        auto out = run(*g, {int64s({0, 4, 2, 3}), int64s({5, 0, 3, 1})});
        TL_CHECK_VALUES(out[0], DType::Int64, {4}, {5, 24, 15, 19});
        // np.unravel_index([5, 24, 15, 19], (5, 6), order='F')
        TL_CHECK_VALUES(out[1], DType::Int64, {4}, {0, 4, 0, 4});
        TL_CHECK_VALUES(out[2], DType::Int64, {4}, {1, 4, 3, 3});
        QVERIFY(errorOf([&] { run(*g, {int64s({0, 5, 2, 3}), int64s({5, 0, 3, 1})}); })
                    .contains("RavelMultiIndex: invalid entry in coordinates array: index 5 is out of bounds for dimension 0 with size 5"));

        DPrintOptions o;
        o.printType = true;
        const std::string text = dprint(*g, o);
        for (const char* name : {"RavelMultiIndex{mode='raise', order='C'}", "UnravelIndex{order='F'}.0", "UnravelIndex{order='F'}.1"})
            QVERIFY2(text.find(name) != std::string::npos, text.c_str());
        DPrintImport imp = importDprint(text);
        QCOMPARE(q(dprint(*imp.graph, o)), q(text));
        QCOMPARE(countOps(*imp.graph, OpKind::RavelMultiIndex), 1);
        QCOMPARE(countOps(*imp.graph, OpKind::UnravelIndex), 1);
        // A tuple of modes reads back too.
        GraphBuilder b;
        Var r = b.input("r", DType::Int64, {3});
        auto g2 = b.finish({ravelMultiIndex({r, r}, std::vector<int64_t>{2, 2}, {"wrap", "clip"})});
        const std::string t2 = dprint(*g2, o);
        QVERIFY2(t2.find("RavelMultiIndex{mode=('wrap', 'clip'), order='C'}") != std::string::npos, t2.c_str());
        QCOMPARE(q(dprint(*importDprint(t2).graph, o)), q(t2));
    }

    void constantFolding_data() {
        QTest::addColumn<bool>("constantInputs");
        QTest::newRow("constant coordinates fold") << true;
        QTest::newRow("input coordinates do not fold") << false;
    }
    void constantFolding() {
        QFETCH(bool, constantInputs);
        GraphBuilder b;
        Var rows = constantInputs ? int64sVar(b, {0, 4, 2}) : b.input("rows", DType::Int64, {3});
        Var flat = ravelMultiIndex({rows, int64sVar(b, {5, 0, 3})}, std::vector<int64_t>{5, 6});
        auto back = unravelIndex(flat, std::vector<int64_t>{5, 6});
        auto g = b.finish({flat, back[1], back[0]});
        std::vector<NDArray> in;
        if (!constantInputs) in.push_back(int64s({0, 4, 2}));
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(tl::constantFolding()), {}, 1, 0.0, 0.0, &in);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        const int left = countOps(*out.after, OpKind::RavelMultiIndex) + countOps(*out.after, OpKind::UnravelIndex);
        QCOMPARE(left, constantInputs ? 0 : 2);
        TL_CHECK_VALUES(out.outputsAfter[0], DType::Int64, {3}, {5, 24, 15});
        TL_CHECK_VALUES(out.outputsAfter[1], DType::Int64, {3}, {5, 0, 3});
        TL_CHECK_VALUES(out.outputsAfter[2], DType::Int64, {3}, {0, 4, 2});
    }

    void fastRunKeepsOutputs() {
        auto g = roundTripGraph();
        std::vector<NDArray> in{int64s({0, 4, 2, 3}), int64s({5, 0, 3, 1})};
        RewriteOutcome out = rewriteAndCompare(*g, Pipeline::fastRun(), {}, 1, 0.0, 0.0, &in);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QVERIFY(out.after->validate().empty());
    }

    // Integer outputs: the forward derivative is zero (no tangent), as for SearchsortedOp.
    void forwardDerivativeIsZero() {
        GraphBuilder b;
        Var x = b.input("x", DType::Int64, {3});
        Var t = b.input("t", DType::Int64, {3});
        Var flat = ravelMultiIndex({x, x}, std::vector<int64_t>{4, 4});
        Var back = unravelIndex(flat, std::vector<int64_t>{4, 4})[0];
        QVERIFY(!forwardTangent(b, {{x.get(), t.get()}}, flat));
        QVERIFY(!forwardTangent(b, {{x.get(), t.get()}}, back));
    }
};

TL_TEST_SUITE(TestRavelUnravel)
#include "tst_ravel_unravel.moc"
