// local_track_shape_i through the ops whose output dims are input dims
// (rw::outputDimSource): matrix products, a Blockwise by its gufunc signature (core
// dims by name, batch dims from the one input that has them), eigendecompositions,
// joins beside their axis, sets into a tensor, and a Kronecker product of static
// factors. Inputs of unknown shape, so only the rewrite knows the dim; each graph runs
// before and after on the arrays given.
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/Indexing.h"
#include "builder/Linalg.h"
#include "builder/Math.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <functional>
#include <map>

using namespace tl;
using namespace tl::test;
using namespace tl::linalg;

namespace {

constexpr int64_t U = kUnknownDim;

NDArray filled(Shape shape, double diagonal) {
    NDArray a = NDArray::zeros(DType::Float64, shape);
    std::vector<double> v(static_cast<size_t>(a.size()));
    for (size_t k = 0; k < v.size(); ++k) v[k] = 0.1 * static_cast<double>(k % 7);
    // A dominant diagonal in every trailing square block keeps solves and factors defined.
    const int64_t n = shape.back();
    if (shape.size() >= 2 && shape[shape.size() - 2] == n)
        for (size_t k = 0; k < v.size(); ++k)
            if (static_cast<int64_t>(k) % (n * n) % (n + 1) == 0) v[k] += diagonal;
    return NDArray::fromVector(DType::Float64, shape, v);
}

struct Case {
    std::function<Var(const std::vector<Var>&)> shapeI;  // Shape_i of some op's output of the inputs
    std::vector<std::pair<StaticShape, Shape>> inputs;  // declared and run shapes, inputs a, b, ...
    bool fires;
};

const std::map<QString, Case>& cases() {
    static const std::map<QString, Case> m = {
        {"rows of a @ b", {[](const std::vector<Var>& x) { return shapeI(dot(x[0], x[1]), 0); }, {{{U, U}, {3, 4}}, {{U, U}, {4, 2}}}, true}},
        {"columns of a @ b", {[](const std::vector<Var>& x) { return shapeI(dot(x[0], x[1]), 1); }, {{{U, U}, {3, 4}}, {{U, U}, {4, 2}}}, true}},
        {"length of a @ v", {[](const std::vector<Var>& x) { return shapeI(dot(x[0], x[1]), 0); }, {{{U, U}, {3, 4}}, {{U}, {4}}}, true}},
        {"length of v @ a", {[](const std::vector<Var>& x) { return shapeI(dot(x[0], x[1]), 0); }, {{{U}, {3}}, {{U, U}, {3, 5}}}, true}},
        {"batch of cholesky", {[](const std::vector<Var>& x) { return shapeI(cholesky(x[0]), 0); }, {{{U, U, U}, {2, 3, 3}}}, true}},
        {"core dim of cholesky", {[](const std::vector<Var>& x) { return shapeI(cholesky(x[0]), 2); }, {{{U, U, U}, {2, 3, 3}}}, true}},
        {"batch of solve, one batched input",
         {[](const std::vector<Var>& x) { return shapeI(solve(x[0], x[1]), 0); }, {{{U, U, U}, {2, 3, 3}}, {{U}, {3}}}, true}},
        {"batch of solve, both batched",
         {[](const std::vector<Var>& x) { return shapeI(solve(x[0], x[1], "gen", false, false, 1), 0); }, {{{U, U, U}, {2, 3, 3}}, {{U, U}, {1, 3}}}, false}},
        {"batch of solve, the other's batch statically 1",
         {[](const std::vector<Var>& x) { return shapeI(solve(x[0], x[1], "gen", false, false, 1), 0); }, {{{U, U, U}, {2, 3, 3}}, {{1, U}, {1, 3}}}, true}},
        {"eigenvalues of eigh", {[](const std::vector<Var>& x) { return shapeI(eigh(x[0]).first, 0); }, {{{U, U}, {3, 3}}}, true}},
        {"singular values of svd", {[](const std::vector<Var>& x) { return shapeI(svd(x[0], false, false)[0], 0); }, {{{U, U}, {3, 2}}}, false}},
        {"rows of a pinv", {[](const std::vector<Var>& x) { return shapeI(pinv(x[0]), 0); }, {{{U, U}, {3, 2}}}, true}},
        {"beside the joined axis", {[](const std::vector<Var>& x) { return shapeI(join(0, {x[0], x[1]}), 1); }, {{{U, U}, {2, 3}}, {{U, U}, {4, 3}}}, true}},
        {"the joined axis (a sum)", {[](const std::vector<Var>& x) { return shapeI(join(0, {x[0], x[1]}), 0); }, {{{U, U}, {2, 3}}, {{U, U}, {4, 3}}}, true}},
        {"a set into a slice", {[](const std::vector<Var>& x) { return shapeI(setSubtensor(x[0], x[1], {Slice(1, std::nullopt)}), 0); }, {{{U}, {5}}, {{U}, {4}}}, true}},
        {"kron of static factors", {[](const std::vector<Var>& x) { return shapeI(kron(x[0], x[1]), 1); }, {{{3, 3}, {3, 3}}, {{2, 2}, {2, 2}}}, true}},
    };
    return m;
}

} // namespace

class TestShapeThroughOps : public QObject {
    Q_OBJECT
private slots:
    void track_data() {
        QTest::addColumn<QString>("name");
        for (const auto& [name, c] : cases()) QTest::newRow(qPrintable(name)) << name;
    }
    void track() {
        QFETCH(QString, name);
        const Case& c = cases().at(name);
        GraphBuilder b;
        std::vector<NDArray> values;
        const char* names[] = {"a", "b", "c"};
        std::vector<Var> inputs;
        for (size_t k = 0; k < c.inputs.size(); ++k) {
            inputs.push_back(b.input(names[k], DType::Float64, c.inputs[k].first));
            values.push_back(filled(c.inputs[k].second, 4.0));
        }
        auto g = b.finish({c.shapeI(inputs)});
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localTrackShapeI()), {}, 1, 0.0, 0.0, &values);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("local_track_shape_i"), c.fires ? 1 : 0);
    }
};

TL_TEST_SUITE(TestShapeThroughOps)
#include "tst_rw_shape_through_ops.moc"
