// The builder's advanced indexing builds what PyTensor 2.34 builds: the graphs of
// tests/data/pytensor/{advanced_indexing,scatter_updates} built in C++ print exactly as
// PyTensor printed them (graph.txt) and compute PyTensor's numbers; errors PyTensor
// raises while building; forward derivatives against finite differences.
#include "TestSuites.h"
#include "ShapeOpsTestUtil.h"
#include "TestSupport.h"

#include "builder/AdvancedIndexing.h"
#include "builder/Math.h"
#include "io/DPrint.h"
#include "io/JsonValues.h"

#include <QtTest>

#include <fstream>
#include <sstream>

using namespace tl;
using namespace tl::test;

namespace {

std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

NDArray int64Array(const std::vector<int64_t>& v) {
    NDArray a = NDArray::empty(DType::Int64, {static_cast<int64_t>(v.size())});
    for (size_t i = 0; i < v.size(); ++i) a.data<int64_t>()[i] = v[i];
    return a;
}

std::unique_ptr<Graph> advancedIndexingCase() {
    GraphBuilder b;
    Var M = b.input("M", DType::Float64, {6, 5});
    Var idx = b.input("idx", DType::Int64, {4});
    Var cols = b.input("cols", DType::Int64, {4});
    Var mask = b.input("mask", DType::Bool, {6});
    Var mask2 = b.input("mask2", DType::Bool, {4, 3});
    Var T = b.input("T", DType::Float64, {4, 3, 5});
    Var n = b.input("n", DType::Int64, {});
    auto head = [&](Var v, int64_t stop) { return slice(v, std::nullopt, IntArg(stop)); };
    std::vector<Var> outs = {
        getItem(M, {idx}),
        getItem(M, {idx, cols}),
        getItem(M, {Slice{}, cols}),
        getItem(M, {mask}),
        getItem(M, {gt(M, literalOf(M, 0.5))}),
        getItem(T, {head(idx, 2), Slice{}, slice(cols, IntArg(1), IntArg(3))}),
        getItem(T, {Slice{}, head(idx, 2), slice(cols, IntArg(1), IntArg(3))}),
        getItem(getItem(T, {head(idx, 2)}), {Slice{}, Slice{std::nullopt, std::nullopt, -1}, -2}),
        getItem(M, {kNewAxis, idx}),
        getItem(M, {Slice{1, 3}, idx}),
        getItem(M, {Slice{1, IntArg(n)}, idx}),
        getItem(M, {b.constant(int64Array({0, 1, 2})), -2}),
        getItem(M, {getItem(idx, {Slice{}, kNewAxis}), getItem(cols, {kNewAxis, Slice{std::nullopt, 3}})}),
        getItem(T, {mask2}),
        getItem(T, {mask2, Slice{1, 4}}),
        getItem(T, {index(idx, -1), Slice{}, -1}),
        getItem(M, {neg(idx)}),
        getItem(T, {Slice{}, -1, idx}),
    };
    return b.finish(outs);
}

std::unique_ptr<Graph> scatterCase() {
    GraphBuilder b;
    Var x = b.input("x", DType::Float64, {8});
    Var M = b.input("M", DType::Float64, {5, 4});
    Var idx = b.input("idx", DType::Int64, {6});
    Var vals = b.input("vals", DType::Float64, {6});
    Var ix = b.input("ix", DType::Int32, {6});
    auto part = [&](Var v, std::optional<int64_t> a, std::optional<int64_t> z) {
        return slice(v, a ? std::optional<IntArg>(*a) : std::nullopt, z ? std::optional<IntArg>(*z) : std::nullopt);
    };
    Var one = b.constant(1.0, DType::Float32), zero = b.constant(0.0, DType::Float32);
    std::vector<Var> outs = {
        incSubtensor(getItem(x, {idx}), vals),
        setSubtensor(getItem(x, {idx}), vals),
        advancedIncSubtensor(getItem(x, {idx}), vals, false, true),
        incSubtensor(getItem(M, {part(idx, std::nullopt, 3), Slice{1}}), one),
        setSubtensor(getItem(M, {Slice{}, part(idx, std::nullopt, 2)}), subtensor(M, {Slice{}, Slice{std::nullopt, 2}}) * 2),
        setSubtensor(getItem(x, {lt(x, literalOf(x, 0))}), zero),
        incSubtensor(getItem(M, {part(idx, std::nullopt, 4), part(idx, 2, std::nullopt)}), part(vals, std::nullopt, 4)),
        incSubtensor(getItem(M, {part(ix, std::nullopt, 3)}), part(vals, std::nullopt, 4)),
        setSubtensor(getItem(M, {part(idx, 1, 3)}), getItem(M, {part(idx, std::nullopt, 2)}) - 1.0),
    };
    return b.finish(outs);
}

} // namespace

class TestAdvancedIndexingBuilder : public QObject {
    Q_OBJECT
private slots:
    void buildsPyTensorsGraph_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("advanced_indexing") << "advanced_indexing";
        QTest::newRow("scatter_updates") << "scatter_updates";
    }
    void buildsPyTensorsGraph() {
        QFETCH(QString, name);
        const std::string n = name.toStdString();
        auto g = n == "advanced_indexing" ? advancedIndexingCase() : scatterCase();
        DPrintOptions o;
        o.printType = true;
        const std::string want = readText(sourcePath("tests/data/pytensor/" + n + "/graph.txt"));
        QCOMPARE(QString::fromStdString(dprint(*g, o)), QString::fromStdString(want));
        // And PyTensor's numbers.
        const auto inputs = inputsFromJson(readJsonFile(sourcePath("tests/data/pytensor/" + n + "/inputs.json")), *g, n);
        const auto out = run(*g, inputs);
        const auto expected = readJsonFile(sourcePath("tests/data/pytensor/" + n + "/expected.json"))["outputs"];
        QCOMPARE(out.size(), expected.size());
        for (size_t k = 0; k < out.size(); ++k) {
            const Type t = Type::tensor(out[k].dtype(), StaticShape(out[k].shape().begin(), out[k].shape().end()));
            TL_COMPARE_ARRAYS(out[k], arrayFromJson(expected[k], t, "expected"), 1e-12, 0);
        }
    }

    void basicWhenNoArray() {
        GraphBuilder b;
        Var M = b.input("M", DType::Float64, {6, 5});
        Var i = b.input("i", DType::Int64, {});
        QCOMPARE(getItem(M, {i, Slice{1}})->owner()->op().kind(), OpKind::Subtensor);  // a 0-d index is basic
        QCOMPARE(getItem(M, {kNewAxis, Slice{}}).ndim(), 3);                            // DimShuffle only
        QCOMPARE(getItem(M, {kEllipsis, 0}).type().toString(), std::string("Vector(float64, shape=(6,))"));
        QCOMPARE(getItem(M, {Slice{}, b.input("c", DType::Int64, {2})})->owner()->op().kind(), OpKind::AdvancedSubtensor);
    }

    void refusedAsPyTensor_data() {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("message");
        QTest::newRow("too many") << 0 << "too many indices for tensor: tensor is 2-dimensional, but 3 were indexed";
        QTest::newRow("two Ellipsis") << 1 << "an index can only have a single Ellipsis";
        QTest::newRow("float index") << 2 << "index must be integers or a boolean mask";
        QTest::newRow("value of more dims") << 3 << "Trying to increment a 1-dimensional subtensor with a 2-dimensional value.";
    }
    void refusedAsPyTensor() {
        QFETCH(int, which);
        QFETCH(QString, message);
        GraphBuilder b;
        Var M = b.input("M", DType::Float64, {6, 5});
        Var idx = b.input("idx", DType::Int64, {3});
        std::string e;
        try {
            if (which == 0) getItem(M, {idx, idx, idx});
            if (which == 1) getItem(M, {kEllipsis, kEllipsis});
            if (which == 2) getItem(M, {b.input("f", DType::Float64, {3})});
            if (which == 3) incSubtensor(getItem(M, {idx, idx}), M);
        } catch (const std::invalid_argument& ex) {
            e = ex.what();
        }
        QVERIFY2(QString::fromStdString(e).contains(message), e.c_str());
    }

    void ropOfReadsAndWrites() {
        GraphBuilder b0;
        const Var idx = b0.constant(int64Array({2, 0, 2}));
        (void)idx;
        checkRopByFiniteDifferences({{5, 4}}, [](GraphBuilder& b, const std::vector<Var>& in) {
            return getItem(in[0], {b.constant(int64Array({2, 0, 2})), Slice{1}});
        });
        checkRopByFiniteDifferences({{6}, {3}}, [](GraphBuilder& b, const std::vector<Var>& in) {
            return exp(incSubtensor(getItem(in[0], {b.constant(int64Array({1, 4, 1}))}), mul(in[1], in[1])));
        });
        checkRopByFiniteDifferences({{6}, {}}, [](GraphBuilder&, const std::vector<Var>& in) {
            return setSubtensor(getItem(in[0], {lt(in[0], literalOf(in[0], 0))}), in[1]);
        });
    }
};

TL_TEST_SUITE(TestAdvancedIndexingBuilder)
#include "tst_advanced_indexing_builder.moc"
