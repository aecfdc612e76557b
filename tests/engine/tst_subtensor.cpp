// Subtensor, SetSubtensor and IncSubtensor: kernels on every dtype (negative indices,
// slices with steps), errors, views sharing storage, static types, printed names,
// JSON params and forward derivatives.
#include "TestSuites.h"
#include "ops/OpFactory.h"
#include "ShapeOpsTestUtil.h"
#include "TestSupport.h"

#include "builder/Indexing.h"
#include "ops/Alloc.h"
#include "ops/IncSubtensor.h"
#include "ops/Subtensor.h"

#include <QtTest>

using namespace tl;
using namespace tl::test;

namespace {

constexpr DType kAllDTypes[] = {DType::Bool,  DType::Int8,    DType::Int16,  DType::Int32,
                                DType::Int64, DType::UInt8, DType::Float32, DType::Float64};

/// "3" is an index, "a:b:c" a slice with blank parts absent (the test's own notation).
struct ParsedIndex {
    std::vector<IndexEntry> entries;
    std::vector<NDArray> values;
};

ParsedIndex parseIndex(const QString& spec) {
    ParsedIndex p;
    for (const QString& part : spec.split(',')) {
        if (!part.contains(':')) {
            p.entries.push_back({IndexEntry::Kind::Index});
            p.values.push_back(i64(part.trimmed().toLongLong()));
            continue;
        }
        const QStringList s = part.split(':');
        IndexEntry e{IndexEntry::Kind::Slice};
        bool* has[3] = {&e.hasStart, &e.hasStop, &e.hasStep};
        for (int k = 0; k < s.size(); ++k) {
            if (s[k].trimmed().isEmpty()) continue;
            *has[k] = true;
            p.values.push_back(i64(s[k].trimmed().toLongLong()));
        }
        p.entries.push_back(e);
    }
    return p;
}

/// Rows `rows` of a 2-d array, stacked (the expected result of indexing axis 0).
NDArray takeRows(const NDArray& x, const std::vector<int64_t>& rows) {
    NDArray out = NDArray::empty(x.dtype(), {static_cast<int64_t>(rows.size()), x.dim(1)});
    for (size_t r = 0; r < rows.size(); ++r)
        for (int64_t c = 0; c < x.dim(1); ++c) {
            const int64_t src[] = {rows[r], c};
            const int64_t dst[] = {static_cast<int64_t>(r), c};
            out.set(dst, x.get(src));
        }
    return out;
}

} // namespace

class TestSubtensor : public QObject {
    Q_OBJECT

private slots:
    void names_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("name");
        QTest::newRow("index") << "-1" << "Subtensor{i}";
        QTest::newRow("start") << "1:" << "Subtensor{start:}";
        QTest::newRow("stop") << ":2" << "Subtensor{:stop}";
        QTest::newRow("start stop") << "1:2" << "Subtensor{start:stop}";
        QTest::newRow("all three") << "1:5:2" << "Subtensor{start:stop:step}";
        QTest::newRow("step only") << "::-1" << "Subtensor{::step}";
        QTest::newRow("start step") << "1::2" << "Subtensor{start::step}";
        QTest::newRow("stop step") << ":3:2" << "Subtensor{:stop:step}";
        QTest::newRow("full then index") << ":,0" << "Subtensor{:, i}";
        QTest::newRow("letters") << "0,0,0,0" << "Subtensor{i, j, k, ii}";
    }
    void names() {
        QFETCH(QString, spec);
        QFETCH(QString, name);
        const auto p = parseIndex(spec);
        QCOMPARE(QString::fromStdString(makeSubtensor(p.entries)->name()), name);
        QString set = name;
        set.replace("Subtensor{", "SetSubtensor{");
        QString inc = name;
        inc.replace("Subtensor{", "IncSubtensor{");
        QCOMPARE(QString::fromStdString(makeIncSubtensor(p.entries, true, false)->name()), set);
        // The inplace variant prints the same name; dprint shows d={0: [0]}.
        QCOMPARE(QString::fromStdString(makeIncSubtensor(p.entries, false, true)->name()), inc);
        QVERIFY(makeIncSubtensor(p.entries, false, true)->destroyMap() == (AliasMap{{0, {0}}}));
        QVERIFY(makeIncSubtensor(p.entries, false, false)->destroyMap().empty());
        QVERIFY(makeSubtensor(p.entries)->viewMap() == (AliasMap{{0, {0}}}));
        checkJsonRoundTrip(makeSubtensor(p.entries));
        checkJsonRoundTrip(makeIncSubtensor(p.entries, true, true));
        checkJsonRoundTrip(makeIncSubtensor(p.entries, false, false));
        QVERIFY(!makeIncSubtensor(p.entries, true, true)->equals(*makeIncSubtensor(p.entries, true, false)));
    }

    void rowsOfMatrix_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("rows");  // rows of the 4x3 input, "" for none
        QTest::newRow("start") << "1:" << "1,2,3";
        QTest::newRow("negative stop") << ":-1" << "0,1,2";
        QTest::newRow("reverse") << "::-1" << "3,2,1,0";
        QTest::newRow("negative step bounds") << "3:0:-2" << "3,1";
        QTest::newRow("clamped start") << "-10:2" << "0,1";
        QTest::newRow("start past end") << "5:" << "";
        QTest::newRow("clamped stop, step 2") << "1:100:2" << "1,3";
        QTest::newRow("negative everything") << "-1:-5:-1" << "3,2,1,0";
        QTest::newRow("step -3") << "::-3" << "3,0";
        QTest::newRow("empty reverse") << "0:3:-1" << "";
    }
    void rowsOfMatrix() {
        QFETCH(QString, spec);
        QFETCH(QString, rows);
        std::vector<int64_t> want;
        for (const QString& r : rows.split(',', Qt::SkipEmptyParts)) want.push_back(r.toLongLong());
        const auto p = parseIndex(spec);
        for (DType dt : kAllDTypes) {
            const NDArray x = iota(dt, {4, 3});
            std::vector<NDArray> in{x};
            in.insert(in.end(), p.values.begin(), p.values.end());
            const NDArray got = perform(*makeSubtensor(p.entries), in)[0];
            QCOMPARE(got.dtype(), dt);
            TL_COMPARE_ARRAYS(got, takeRows(x, want), 0, 0);
            QVERIFY(got.sharesStorageWith(x));
        }
    }

    void indicesDropAxes() {
        for (DType dt : kAllDTypes) {
            const NDArray x = iota(dt, {2, 3, 4});
            // x[-1, ::-2, 1] == elements x[1, 2, 1], x[1, 0, 1]
            const auto p = parseIndex("-1, ::-2, 1");
            std::vector<NDArray> in{x};
            in.insert(in.end(), p.values.begin(), p.values.end());
            const NDArray got = perform(*makeSubtensor(p.entries), in)[0];
            QCOMPARE(got.shape(), (Shape{2}));
            const int64_t a[] = {1, 2, 1}, b[] = {1, 0, 1};
            QCOMPARE(got.flatGet(0), x.get(a));
            QCOMPARE(got.flatGet(1), x.get(b));
            // x[:, -1]: trailing axes are kept
            const auto q = parseIndex(":, -1");
            const NDArray col = perform(*makeSubtensor(q.entries), {x, q.values[0]})[0];
            QCOMPARE(col.shape(), (Shape{2, 4}));
            for (int64_t i = 0; i < 2; ++i)
                for (int64_t k = 0; k < 4; ++k) {
                    const int64_t s[] = {i, 2, k}, d[] = {i, k};
                    QCOMPARE(col.get(d), x.get(s));
                }
        }
    }

    void indexTypes() {
        // Any integer dtype works as an index value.
        const NDArray x = iota(DType::Float64, {5});
        for (DType dt : {DType::Int8, DType::Int16, DType::Int32, DType::UInt8, DType::Int64}) {
            const NDArray got = perform(*makeSubtensor({{IndexEntry::Kind::Index}}), {x, NDArray::scalar(dt, 3)})[0];
            QCOMPARE(got.item(), 3.0);
        }
    }

    void outOfRangeErrors_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("message");
        QTest::newRow("past end") << "4" << "index 4 is out of bounds for axis 0 with size 4";
        QTest::newRow("before start") << "-5" << "index -5 is out of bounds for axis 0 with size 4";
        QTest::newRow("second axis") << "0, 3" << "index 3 is out of bounds for axis 1 with size 3";
        QTest::newRow("zero step") << "::0" << "slice step cannot be zero";
        QTest::newRow("too many") << "0,0,0" << "too many indices";
    }
    void outOfRangeErrors() {
        QFETCH(QString, spec);
        QFETCH(QString, message);
        const auto p = parseIndex(spec);
        std::vector<NDArray> in{iota(DType::Int32, {4, 3})};
        in.insert(in.end(), p.values.begin(), p.values.end());
        try {
            perform(*makeSubtensor(p.entries), in);
            QFAIL("no error");
        } catch (const ExecError& e) {
            QVERIFY2(QString(e.what()).contains(message), e.what());
        }
    }

    void setAndIncKernels() {
        for (DType dt : kAllDTypes) {
            const NDArray x = iota(dt, {4, 3});
            const NDArray y = iota(dt, {3}, 1);  // broadcast over the selected rows
            const auto p = parseIndex("::-2");   // rows 3, 1
            for (bool set : {true, false}) {
                std::vector<NDArray> in{x, y, p.values[0]};
                const NDArray got = perform(*makeIncSubtensor(p.entries, set, false), in)[0];
                QVERIFY(!got.sharesStorageWith(x));
                QCOMPARE(got.dtype(), dt);
                for (int64_t r = 0; r < 4; ++r)
                    for (int64_t c = 0; c < 3; ++c) {
                        const int64_t at[] = {r, c}, yc[] = {c};
                        double want = x.get(at);
                        if (r == 3 || r == 1) {
                            const double yv = y.get(yc);
                            // Reference in the dtype: bool adds as logical or; small ints wrap.
                            want = NDArray::scalar(dt, set ? yv : (dt == DType::Bool ? double(want || yv) : want + yv)).item();
                        }
                        QCOMPARE(got.get(at), want);
                    }
                // Not inplace: x is untouched.
                TL_COMPARE_ARRAYS(x, iota(dt, {4, 3}), 0, 0);
            }
        }
    }

    void valueBroadcastErrors() {
        const NDArray x = iota(DType::Float64, {4, 3});
        const auto p = parseIndex("1:");
        try {
            perform(*makeIncSubtensor(p.entries, true, false), {x, iota(DType::Float64, {2}), p.values[0]});
            QFAIL("no error");
        } catch (const ExecError& e) {
            QVERIFY2(QString(e.what()).contains("cannot broadcast shape (2,) to (3, 3)"), e.what());
        }
    }

    void inplaceIsVisibleThroughEarlierView() {
        const NDArray x = iota(DType::Float64, {4, 3});
        const auto tail = parseIndex("1:");
        const NDArray view = perform(*makeSubtensor(tail.entries), {x, tail.values[0]})[0];
        const auto row = parseIndex("2");
        const NDArray y = NDArray::fromVector(DType::Float64, {3}, {-1, -2, -3});
        const NDArray out = perform(*makeIncSubtensor(row.entries, true, true), {x, y, row.values[0]})[0];
        QVERIFY(out.sharesStorageWith(x));
        // view[1] is x[2]: the write is visible through the view taken before it.
        for (int64_t c = 0; c < 3; ++c) {
            const int64_t v[] = {1, c};
            QCOMPARE(view.get(v), -1.0 - double(c));
        }
        // Inplace increment with a value that aliases x (x[1:] += x[:-1]).
        const NDArray z = iota(DType::Int64, {5});
        const auto head = parseIndex(":-1");
        const NDArray prefix = perform(*makeSubtensor(head.entries), {z, head.values[0]})[0];
        perform(*makeIncSubtensor(tail.entries, false, true), {z, prefix, tail.values[0]});
        TL_COMPARE_ARRAYS(z, NDArray::fromVector(DType::Int64, {5}, {0, 1, 3, 5, 7}), 0, 0);
    }

    void staticTypes() {
        GraphBuilder b;
        Var known = b.input("known", DType::Float64, {10, 7});
        Var rows = b.input("rows", DType::Float64, {kUnknownDim, 7});
        QCOMPARE(QString::fromStdString(slice(known, std::nullopt, 2).type().toString()), "Matrix(float64, shape=(2, 7))");
        QCOMPARE(QString::fromStdString(slice(known, -3, std::nullopt).type().toString()), "Matrix(float64, shape=(3, 7))");
        QCOMPARE(QString::fromStdString(slice(known, std::nullopt, std::nullopt, -3).type().toString()),
                 "Matrix(float64, shape=(4, 7))");
        QCOMPARE(QString::fromStdString(slice(rows, 1, std::nullopt).type().toString()), "Matrix(float64, shape=(?, 7))");
        QCOMPARE(QString::fromStdString(index(rows, -1).type().toString()), "Vector(float64, shape=(7,))");
        QCOMPARE(QString::fromStdString(subtensor(known, {Slice{}, 3}).type().toString()), "Vector(float64, shape=(10,))");
        // A variable bound makes the length unknown.
        Var n = b.input("n", DType::Int64, {});
        QCOMPARE(QString::fromStdString(slice(known, std::nullopt, n).type().toString()), "Matrix(float64, shape=(?, 7))");
        // Index constants are int64 ScalarType constants, printed <int64>; tensor indices go through ScalarFromTensor.
        Var s = slice(known, std::nullopt, n);
        QCOMPARE(QString::fromStdString(s->owner()->input(1)->owner()->op().name()), "ScalarFromTensor");
        Var last = index(rows, -1);
        QCOMPARE(QString::fromStdString(last->owner()->input(1)->type().toString()), "int64");
        // All-full slices return x itself, as PyTensor.
        QCOMPARE(subtensor(known, {Slice{}, Slice{}}).get(), known.get());
        // SetSubtensor keeps x's type.
        Var setv = setSubtensor(known, b.input("y", DType::Float64, {7}), {Slice{std::nullopt, 2}});
        QCOMPARE(QString::fromStdString(setv.type().toString()), "Matrix(float64, shape=(10, 7))");
        QCOMPARE(QString::fromStdString(setv->owner()->op().name()), "SetSubtensor{:stop}");
        // set_subtensor(x[...], y) form.
        Var inc = incSubtensor(index(rows, 0), b.input("z", DType::Float64, {7}));
        QCOMPARE(QString::fromStdString(inc->owner()->op().name()), "IncSubtensor{i}");
        QCOMPARE(inc->owner()->input(0), rows.get());
        QVERIFY(b.graph().validate().empty());
    }

    void typeErrorsNameTheNode() {
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {4, 3});
        // Type errors of a node are GraphErrors naming it ("Subtensor{i}#3: ...").
        auto expectError = [&](auto&& build, const QString& what) {
            try {
                build();
                QFAIL("no error");
            } catch (const GraphError& e) {
                QVERIFY2(QString(e.what()).contains(what), e.what());
                QVERIFY2(QString(e.what()).contains('#'), e.what());
            }
        };
        expectError([&] { index(x, 4); }, "Subtensor{i}#");
        expectError([&] { index(x, 4); }, "index 4 is out of bounds for axis 0 with size 4");
        expectError([&] { subtensor(x, {0, 0, 0}); }, "too many indices");
        expectError([&] { slice(x, std::nullopt, std::nullopt, 0); }, "slice step cannot be zero");
        try {
            index(x, b.input("f", DType::Float64, {}));
            QFAIL("no error");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(QString(e.what()).contains("index must be an integer scalar"), e.what());
        }
        expectError([&] { setSubtensor(x, b.input("y", DType::Float64, {2, 2, 3}), {Slice{1}}); }, "SetSubtensor{start:}#");
        expectError([&] { setSubtensor(x, b.input("w", DType::Float64, {2}), {Slice{1}}); }, "does not broadcast");
        try {
            setSubtensor(x, x);
            QFAIL("no error");
        } catch (const std::invalid_argument& e) {
            QVERIFY(QString(e.what()).contains("result of a Subtensor"));
        }
    }

    void seedBufferLayout() {
        // The seed's trace buffer: SetSubtensor{:stop}(AllocEmpty(2, 7), x[None], 1).
        GraphBuilder b;
        Var x = b.input("x_init", DType::Float64, {7});
        Var init = expandDims(x, 0);
        Var buf = allocEmpty(b, DType::Float64, {2, 7});
        QCOMPARE(QString::fromStdString(buf->owner()->op().name()), "AllocEmpty{dtype='float64'}");
        QCOMPARE(QString::fromStdString(buf.type().toString()), "Matrix(float64, shape=(2, 7))");
        Var filled = setSubtensor(buf, init, {Slice{std::nullopt, 1}});
        QCOMPARE(QString::fromStdString(filled.type().toString()), "Matrix(float64, shape=(2, 7))");
        QCOMPARE(QString::fromStdString(filled->owner()->input(2)->type().toString()), "int64");
        auto g = b.finish({index(filled, 0)});
        const NDArray xv = iota(DType::Float64, {7}, 0.5);
        TL_COMPARE_ARRAYS(run(*g, {xv})[0], xv, 0, 0);
    }

    void jsonBadParams() {
        auto bad = [](const nlohmann::json& p, const QString& what) {
            try {
                makeOp(OpKind::Subtensor, p, nullptr);
                QFAIL("no error");
            } catch (const std::invalid_argument& e) {
                QVERIFY2(QString(e.what()).contains(what), e.what());
            }
        };
        bad(nlohmann::json::object(), "missing \"idx_list\"");
        bad({{"idx_list", {"index", "begin:"}}}, "idx_list\"/1");
        bad({{"idx_list", {"index", 3}}}, "must be a string");
        bad({{"idx_list", "index"}}, "must be a list");
        try {
            makeOp(OpKind::IncSubtensor, {{"idx_list", {"index"}}, {"set_instead_of_inc", 1}, {"inplace", false}}, nullptr);
            QFAIL("no error");
        } catch (const std::invalid_argument& e) {
            QVERIFY(QString(e.what()).contains("set_instead_of_inc"));
        }
    }

    void ropSubtensor() {
        checkRopByFiniteDifferences({{5, 3}}, [](GraphBuilder&, const std::vector<Var>& x) {
            return subtensor(x[0], {Slice{-1, 0, -2}, -1});
        });
    }

    void ropIncSubtensor() {
        for (bool set : {true, false}) {
            auto f = [set](GraphBuilder&, const std::vector<Var>& x) {
                return set ? setSubtensor(x[0], x[1], {Slice{1, std::nullopt, 2}})
                           : incSubtensor(x[0], x[1], {Slice{1, std::nullopt, 2}});
            };
            checkRopByFiniteDifferences({{5, 3}, {3}}, f);
            if (QTest::currentTestFailed()) return;
            // Only x varies / only y varies: the missing tangent is zeros.
            checkRopByFiniteDifferences({{5, 3}}, [set](GraphBuilder& b, const std::vector<Var>& x) {
                Var y = b.constant(NDArray::fromVector(DType::Float64, {3}, {1, 2, 3}));
                return set ? setSubtensor(x[0], y, {-1}) : incSubtensor(x[0], y, {-1});
            });
            if (QTest::currentTestFailed()) return;
            checkRopByFiniteDifferences({{3}}, [set](GraphBuilder& b, const std::vector<Var>& x) {
                Var base = b.constant(iota(DType::Float64, {4, 3}));
                return set ? setSubtensor(base, x[0], {0}) : incSubtensor(base, x[0], {0});
            });
        }
    }
};

TL_TEST_SUITE(TestSubtensor)
#include "tst_subtensor.moc"
