// The rewrites that compute a decomposition once, as PyTensor's: slogdet_specialization
// (a determinant read only through its sign and logs becomes one SLogDet) and
// svd_uv_merge (singular values taken from the one SVD that computes them). Each
// case, firing or not, is run before and after on the same inputs.
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/ArrayOps.h"
#include "builder/Linalg.h"
#include "builder/Math.h"
#include "ops/Blockwise.h"
#include "ops/PropsOp.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <functional>
#include <map>

using namespace tl;
using namespace tl::test;

namespace {

using GraphFn = std::function<std::unique_ptr<Graph>()>;
constexpr int64_t N = 4;

Var in(GraphBuilder& b, const char* name, StaticShape s, DType dtype = DType::Float64) {
    return b.input(name, dtype, std::move(s));
}

// The SVD nodes of `g`, by whether they compute u and v.
std::pair<int, int> svdCounts(const Graph& g) {
    int withUv = 0, without = 0;
    for (const Node* n : g.nodes()) {
        if (n->kind() != OpKind::Blockwise) continue;
        const Op& core = static_cast<const BlockwiseOp&>(n->op()).core();
        if (core.kind() != OpKind::SVD) continue;
        (static_cast<const PropsOp&>(core).boolProp("compute_uv") ? withUv : without) += 1;
    }
    return {withUv, without};
}

const std::map<QString, GraphFn>& graphs() {
    using namespace linalg;
    static const std::map<QString, GraphFn> m = {
        {"slogdet", [] {
             GraphBuilder b;
             auto [sign, logAbs] = slogdet(in(b, "X", {N, N}));
             return b.finish({sign, logAbs});
         }},
        {"log(det)", [] {
             GraphBuilder b;
             return b.finish({log(det(in(b, "X", {N, N})))});
         }},
        {"log(det) and sign(det)", [] {
             GraphBuilder b;
             Var d = det(in(b, "X", {N, N}));
             return b.finish({log(d), sign(d)});
         }},
        {"det read as well", [] {
             GraphBuilder b;
             Var d = det(in(b, "X", {N, N}));
             return b.finish({log(d), d * 2.0});
         }},
        {"det an output", [] {
             GraphBuilder b;
             Var d = det(in(b, "X", {N, N}));
             return b.finish({sign(d), d});
         }},
        {"abs(det) not logged", [] {
             GraphBuilder b;
             return b.finish({abs(det(in(b, "X", {N, N}))) * 2.0});
         }},
        {"batched slogdet", [] {
             GraphBuilder b;
             auto [sign, logAbs] = slogdet(in(b, "X", {3, N, N}));
             return b.finish({sign, logAbs});
         }},
        {"float32 log(det)", [] {
             GraphBuilder b;
             return b.finish({log(det(in(b, "X", {N, N}, DType::Float32)))});
         }},
        {"s of a full SVD", [] {
             GraphBuilder b;
             return b.finish({svd(in(b, "X", {N, 3}))[1] * 2.0});
         }},
        {"s of a full SVD, and another s", [] {
             GraphBuilder b;
             Var x = in(b, "X", {N, 3});
             return b.finish({svd(x)[1] * 2.0, svd(x, true, false)[0] + 1.0});
         }},
        {"s alone, u read elsewhere", [] {
             GraphBuilder b;
             Var x = in(b, "X", {N, 3});
             return b.finish({svd(x, true, false)[0] * 2.0, svd(x)[0]});
         }},
        {"u read", [] {
             GraphBuilder b;
             std::vector<Var> usv = svd(in(b, "X", {N, 3}));
             return b.finish({usv[0], usv[1]});
         }},
        {"cholesky(eye)", [] {
             GraphBuilder b;
             return b.finish({cholesky(eye(b, N)) + in(b, "X", {N, N})});
         }},
        {"upper cholesky(eye)", [] {
             GraphBuilder b;
             return b.finish({cholesky(eye(b, N), false) + in(b, "X", {N, N})});
         }},
        {"cholesky(eye + eye with k=1)", [] {
             GraphBuilder b;
             Var e = eye(b, N);
             return b.finish({cholesky(e + 0.25 * (eye(b, N, std::nullopt, 1) + eye(b, N, std::nullopt, -1))) + in(b, "X", {N, N})});
         }},
        {"s alone", [] {
             GraphBuilder b;
             return b.finish({svd(in(b, "X", {N, 3}), true, false)[0] * 2.0});
         }},
    };
    return m;
}

RewriteOutcome checked(const QString& graph, const Pipeline& pipeline) {
    auto g = graphs().at(graph)();
    return rewriteAndCompare(*g, pipeline, {}, 1, 1e-9, 1e-12);
}

} // namespace

class TestRewriteLinalgDecompositions : public QObject {
    Q_OBJECT
private slots:
    void slogdet_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<int>("steps");
        QTest::newRow("sign(det), log(abs(det)) -> SLogDet") << "slogdet" << 1;
        QTest::newRow("log(det) -> switch(sign == -1, nan, log|det|)") << "log(det)" << 1;
        QTest::newRow("log(det) and sign(det)") << "log(det) and sign(det)" << 1;
        QTest::newRow("the determinant read by a mul: kept") << "det read as well" << 0;
        QTest::newRow("the determinant an output: kept") << "det an output" << 0;
        QTest::newRow("abs(det) read by no log: kept") << "abs(det) not logged" << 0;
        QTest::newRow("batched: kept (SLogDet takes a matrix)") << "batched slogdet" << 0;
        QTest::newRow("float32 log(det): kept") << "float32 log(det)" << 0;
    }
    void slogdet() {
        QFETCH(QString, graph);
        QFETCH(int, steps);
        RewriteOutcome out = checked(graph, singleRewrite(slogdetSpecialization()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("slogdet_specialization"), steps);
        QCOMPARE(countOps(*out.after, OpKind::SLogDet), steps);
        QCOMPARE(countOps(*out.after, OpKind::Blockwise), 1 - steps);
    }

    // A negative determinant: log(det) is nan, before and after.
    void logOfNegativeDeterminant() {
        auto g = graphs().at("log(det)")();
        const std::vector<NDArray> inputs{NDArray::fromVector(DType::Float64, {N, N}, {-1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4})};
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(slogdetSpecialization()), {}, 1, 1e-12, 0.0, &inputs);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QVERIFY(std::isnan(out.outputsAfter[0].item()));
    }

    void svdUvMerge_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<int>("steps");
        QTest::addColumn<int>("withUv");
        QTest::addColumn<int>("without");
        QTest::newRow("u, v unread: s from an SVD without them") << "s of a full SVD" << 1 << 0 << 1;
        QTest::newRow("... reusing the one the graph has") << "s of a full SVD, and another s" << 1 << 0 << 1;
        QTest::newRow("s alone gives way to an SVD whose u is read") << "s alone, u read elsewhere" << 1 << 1 << 0;
        QTest::newRow("u read: kept") << "u read" << 0 << 1 << 0;
        QTest::newRow("s alone, no other SVD: kept") << "s alone" << 0 << 0 << 1;
    }
    void svdUvMerge() {
        QFETCH(QString, graph);
        QFETCH(int, steps);
        QFETCH(int, withUv);
        QFETCH(int, without);
        RewriteOutcome out = checked(graph, singleRewrite(tl::svdUvMerge()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("svd_uv_merge"), steps);
        QCOMPARE(svdCounts(*out.after), std::make_pair(withUv, without));
    }

    void uselessCholesky_data() {
        QTest::addColumn<QString>("graph");
        QTest::addColumn<int>("steps");
        QTest::newRow("cholesky(eye(n)) -> eye(n)") << "cholesky(eye)" << 1;
        QTest::newRow("the upper factor too") << "upper cholesky(eye)" << 1;
        QTest::newRow("not an eye: kept") << "cholesky(eye + eye with k=1)" << 0;
    }
    void uselessCholesky() {
        QFETCH(QString, graph);
        QFETCH(int, steps);
        RewriteOutcome out = checked(graph, singleRewrite(rewriteRemoveUselessCholesky()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("rewrite_remove_useless_cholesky"), steps);
        QCOMPARE(countOps(*out.after, OpKind::Blockwise), steps ? 0 : 1);
    }

    // FAST_RUN: pt.linalg.slogdet is one SLogDet, and one SVD serves s and u.
    void pipeline() {
        RewriteOutcome out = checked("slogdet", Pipeline::fastRun());
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(countOps(*out.after, OpKind::SLogDet), 1);
        QCOMPARE(countOps(*out.after, OpKind::Det), 0);

        RewriteOutcome svd = checked("s alone, u read elsewhere", Pipeline::fastRun());
        QVERIFY2(svd.mismatch.empty(), svd.mismatch.c_str());
        QCOMPARE(countOps(*svd.after, OpKind::SVD), 1);
    }
};

TL_TEST_SUITE(TestRewriteLinalgDecompositions)
#include "tst_rw_linalg_decompositions.moc"
