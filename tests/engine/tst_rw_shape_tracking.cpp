// Dims read off slices and loops: local_track_shape_i through Subtensor (a slice's
// length from its input's) and Scan (a trace's rows from its buffer, a nit_sot's from
// its rows input, never a while loop's), and local_subtensor_make_vector, which takes
// a dim back out of a rebuilt shape vector. Every graph runs before and after.
#include "TestSuites.h"
#include "RewriteCheck.h"
#include "TestSupport.h"
#include "builder/ArrayOps.h"
#include "builder/Indexing.h"
#include "ops/AdvancedSubtensor.h"
#include "builder/Math.h"
#include "builder/Reductions.h"
#include "builder/Scan.h"
#include "exec/Executor.h"
#include "rewrite/InferredLength.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <limits>

using namespace tl;
using namespace tl::test;

namespace {

// Shape_i{0}(x[slice]) for x of unknown length.
std::unique_ptr<Graph> lengthOfSlice(const Slice& s) {
    GraphBuilder b;
    Var x = b.input("x", DType::Float64, {kUnknownDim});
    return b.finish({shapeI(subtensor(x, {s}), 0)});
}

NDArray vectorOf(int64_t n) {
    std::vector<double> v(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<double>(i);
    return NDArray::fromVector(DType::Float64, {n}, v);
}

// A loop of 6 steps: a sit_sot s' = s * 0.5 + 1 and a nit_sot exp(s); the dims of
// both outer outputs (after scan()'s out[1:] for the trace). `until`: a while loop
// that stops once sum(s') > 5, after 3 steps from s0 = 0.
std::unique_ptr<Graph> loopDims(bool until) {
    GraphBuilder b;
    Var s0 = b.input("s0", DType::Float64, {3});
    ScanResult r = scan(b, [&](GraphBuilder&, const std::vector<Var>& a) -> StepResult {
        Var next = a[0] * 0.5 + 1.0;
        StepResult out{.outputs = {next, exp(a[0])}};
        if (until) out.until = gt(sum(next), 5.0);
        return out;
    }, ScanArgs{.outputsInfo = {OutputInfo(s0), OutputInfo::none()}, .nSteps = 6});
    return b.finish({shapeI(r.outputs[0], 0), shapeI(r.outputs[1], 0), shapeI(r.outputs[1], 1)});
}

} // namespace

class TestShapeTracking : public QObject {
    Q_OBJECT
private slots:
    void sliceLength_data() {
        QTest::addColumn<int>("start");  // INT_MIN: absent
        QTest::addColumn<int>("stop");
        const int none = std::numeric_limits<int>::min();
        QTest::newRow("x[1:]") << 1 << none;
        QTest::newRow("x[7:]") << 7 << none;
        QTest::newRow("x[-2:]") << -2 << none;
        QTest::newRow("x[:5]") << none << 5;
        QTest::newRow("x[:-1]") << none << -1;
        QTest::newRow("x[2:5]") << 2 << 5;
        QTest::newRow("x[5:2]") << 5 << 2;
        QTest::newRow("x[-4:-1]") << -4 << -1;
        QTest::newRow("x[0:]") << 0 << none;
    }
    // The slice leaves the graph: its length is arithmetic on Shape_i{0}(x), right for
    // lengths of x below, inside and past the slice's bounds.
    void sliceLength() {
        QFETCH(int, start);
        QFETCH(int, stop);
        const int none = std::numeric_limits<int>::min();
        Slice s(start == none ? std::nullopt : std::optional<IntArg>(start), stop == none ? std::nullopt : std::optional<IntArg>(stop));
        for (int64_t n : {0, 1, 3, 6, 10}) {
            auto g = lengthOfSlice(s);
            std::vector<NDArray> in = {vectorOf(n)};
            RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localTrackShapeI()), {}, 1, 0.0, 0.0, &in);
            QVERIFY2(out.mismatch.empty(), (std::to_string(n) + " rows: " + out.mismatch).c_str());
            QCOMPARE(out.stepsOf("local_track_shape_i"), 1);
            QCOMPARE(countOps(*out.after, OpKind::Subtensor), 0);
        }
    }

    // x[::-1] has every entry of x: its length is Shape_i{0}(x), for any length.
    void reversedSliceLength() {
        for (int64_t n : {0, 1, 4}) {
            auto g = lengthOfSlice(Slice(std::nullopt, std::nullopt, -1));
            std::vector<NDArray> in = {vectorOf(n)};
            RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localTrackShapeI()), {}, 1, 0.0, 0.0, &in);
            QVERIFY2(out.mismatch.empty(), (std::to_string(n) + " rows: " + out.mismatch).c_str());
            QCOMPARE(out.stepsOf("local_track_shape_i"), 1);
            QCOMPARE(countOps(*out.after, OpKind::Subtensor), 0);
        }
    }

    // What the rewrite cannot write as a length stays a Shape_i of the slice.
    void sliceLengthNotTracked_data() {
        QTest::addColumn<int>("kind");
        QTest::newRow("a step") << 0;
        QTest::newRow("from one end to the other") << 1;
        QTest::newRow("a start known at run time") << 2;
        QTest::newRow("a reversed slice with a start") << 3;
    }
    void sliceLengthNotTracked() {
        QFETCH(int, kind);
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {kUnknownDim});
        Var i = b.input("i", DType::Int64, {});
        Var cut = kind == 0   ? slice(x, std::nullopt, std::nullopt, 2)
                  : kind == 1 ? slice(x, 1, -1)
                  : kind == 2 ? slice(x, i, std::nullopt)
                              : slice(x, 2, std::nullopt, -1);
        auto g = b.finish({shapeI(cut, 0)});
        std::vector<NDArray> in = {vectorOf(6), NDArray::scalar(DType::Int64, 2)};
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localTrackShapeI()), {}, 1, 0.0, 0.0, &in);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("local_track_shape_i"), 0);
    }

    // m[2, 1:] keeps m's axis 1, sliced: its length is Shape_i{1}(m) - 1.
    void integerIndexDropsItsAxis() {
        GraphBuilder b;
        Var m = b.input("m", DType::Float64, {kUnknownDim, kUnknownDim});
        auto g = b.finish({shapeI(subtensor(m, {Idx(2), Slice{1}}), 0)});
        std::vector<NDArray> in = {NDArray::fromVector(DType::Float64, {3, 4}, std::vector<double>(12, 1.0))};
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localTrackShapeI()), {}, 1, 0.0, 0.0, &in);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(countOps(*out.after, OpKind::Subtensor), 0);
        bool axisOne = false;
        for (const Node* n : out.after->nodes())
            if (n->op().kind() == OpKind::ShapeI) axisOne = n->op().name() == "Shape_i{1}";
        QVERIFY(axisOne);
    }

    // The trace's rows come from its buffer and the nit_sot's from its rows input: the
    // whole shape phase grounds them to constants (6 and 6) and no loop is left to run.
    void loopRowsFromItsInputs() {
        RewriteOutcome out = rewriteAndCompare(*loopDims(false), Pipeline::fastRun());
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(countOps(*out.after, OpKind::Scan), 0);
        QVERIFY(out.stepsOf("local_track_shape_i") >= 2);
    }

    // A while loop's rows are the steps that ran: only the other dims are tracked.
    void whileLoopRowsStay() {
        std::vector<NDArray> in = {NDArray::fromVector(DType::Float64, {3}, {0.0, 0.0, 0.0})};
        RewriteOutcome out = rewriteAndCompare(*loopDims(true), Pipeline::fastRun(), {}, 1, 0.0, 0.0, &in);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(countOps(*out.after, OpKind::Scan), 1);
        QVERIFY(!out.after->output(0)->isConstant());
        QVERIFY(!out.after->output(1)->isConstant());
    }

    void elementOfMakeVector_data() {
        QTest::addColumn<int>("index");  // 9: an index known only at run time
        QTest::addColumn<bool>("rewritten");
        QTest::newRow("first") << 0 << true;
        QTest::newRow("int8 value, cast to the vector's int64") << 1 << true;
        QTest::newRow("last, counted from the end") << -1 << true;
        QTest::newRow("an index known at run time") << 9 << false;
    }
    // MakeVector(Shape_i{0}(x), n8, 4)[k]: the k-th value, as an int64 0-d tensor.
    void elementOfMakeVector() {
        QFETCH(int, index);
        QFETCH(bool, rewritten);
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {kUnknownDim});
        Var n8 = b.input("n8", DType::Int8, {});
        Var i = b.input("i", DType::Int64, {});
        Var v = makeVector(b, {shapeI(x, 0), n8, b.constant(NDArray::scalar(DType::Int64, 4))});
        auto g = b.finish({index == 9 ? subtensor(v, {Idx(i)}) : subtensor(v, {Idx(index)})});
        std::vector<NDArray> in = {vectorOf(5), NDArray::scalar(DType::Int8, -3), NDArray::scalar(DType::Int64, 1)};
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localSubtensorMakeVector()), {}, 1, 0.0, 0.0, &in);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("local_subtensor_make_vector"), rewritten ? 1 : 0);
        QCOMPARE(countOps(*out.after, OpKind::Subtensor), rewritten ? 0 : 1);
        QCOMPARE(out.after->output(0)->type().dtype, DType::Int64);
    }

    // Constant slices and gathers of MakeVector(Shape_i{0}(x), n8, 4, Shape_i{0}(x) + 1):
    // the vector of the values picked (one value: ExpandDims of it), as in Python; a
    // slice part or an index known only at run time, and an index outside the vector,
    // stay.
    void slicesOfMakeVector_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("length");  // -1: not rewritten
        QTest::newRow("[-2:]") << 0 << 2;
        QTest::newRow("[::2]") << 1 << 2;
        QTest::newRow("[::-1]") << 2 << 4;
        QTest::newRow("[1:2]: one value") << 3 << 1;
        QTest::newRow("[3:1]: none") << 4 << 0;
        QTest::newRow("[i:]") << 5 << -1;
        QTest::newRow("gather [3, -4, 3]") << 6 << 3;
        QTest::newRow("gather [0, 4]: outside") << 7 << -1;
    }
    void slicesOfMakeVector() {
        QFETCH(int, kind);
        QFETCH(int, length);
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {kUnknownDim});
        Var n8 = b.input("n8", DType::Int8, {});
        Var i = b.input("i", DType::Int64, {});
        Var v = makeVector(b, {shapeI(x, 0), n8, b.constant(NDArray::scalar(DType::Int64, 4)), shapeI(x, 0) + 1});
        auto gather = [&](std::vector<double> idx) {
            Var at = b.constant(NDArray::fromVector(DType::Int64, {static_cast<int64_t>(idx.size())}, idx));
            return b.apply1(makeAdvancedSubtensor1(), {v, at});
        };
        const std::vector<Var> picks = {slice(v, -2, std::nullopt), slice(v, std::nullopt, std::nullopt, 2),
                                        slice(v, std::nullopt, std::nullopt, -1), slice(v, 1, 2), slice(v, 3, 1),
                                        slice(v, i, std::nullopt), gather({3, -4, 3}), gather({0, 4})};
        auto g = b.finish({picks[static_cast<size_t>(kind)] * 3});
        std::vector<NDArray> in = {vectorOf(5), NDArray::scalar(DType::Int8, -3), NDArray::scalar(DType::Int64, 1)};
        if (kind == 7) {  // the graph raises at run time, before the rewrite and after: left as it is
            for (int pass = 0; pass < 2; ++pass) {
                std::string error;
                try {
                    runGraph(*g, in);
                } catch (const std::exception& e) {
                    error = e.what();
                }
                QVERIFY2(error.find("out of bounds") != std::string::npos, error.c_str());
                Trace trace(g->clone());
                singleRewrite(localSubtensorMakeVector()).run(*g, {}, &trace);
                QCOMPARE(trace.size(), size_t(0));
            }
            return;
        }
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localSubtensorMakeVector()), {}, 1, 0.0, 0.0, &in);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("local_subtensor_make_vector"), length < 0 ? 0 : 1);
        if (length < 0) return;
        QCOMPARE(countOps(*out.after, OpKind::Subtensor) + countOps(*out.after, OpKind::AdvancedSubtensor1), 0);
        QCOMPARE(out.after->output(0)->type().shape, StaticShape{length});
    }

    // The lengths the graph fixes though the types do not (rw::inferredLength): a loop's
    // trace has its buffer's rows, and slices, transposes and elementwise results of it
    // the lengths those give; a graph input of unknown length has none.
    void inferredLengths() {
        GraphBuilder b;
        Var x0 = b.input("x0", DType::Float64, {3});
        Var y = b.input("y", DType::Float64, {kUnknownDim, 3});
        Var u = b.input("u", DType::Float64, {kUnknownDim});
        ScanResult r = scan(b, [](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {{tanh(a[0])}}; },
                            ScanArgs{.outputsInfo = {OutputInfo(x0)}, .nSteps = 5});
        Var steps = r.outputs[0];  // the buffer's 6 rows without the first
        const std::vector<std::tuple<Var, int, std::optional<int64_t>>> cases = {
            {steps, 0, 5},
            {steps, 1, 3},
            {exp(steps), 0, 5},
            {transpose(steps), 1, 5},
            {slice(steps, std::nullopt, std::nullopt, 2), 0, 3},
            {steps + y, 0, 5},
            {y * 2.0, 0, std::nullopt},
            {u, 0, std::nullopt},
        };
        for (size_t k = 0; k < cases.size(); ++k) {
            const auto& [v, axis, want] = cases[k];
            QVERIFY2(rw::inferredLength(*v.get(), axis) == want, std::to_string(k).c_str());
        }
    }

    // Shape_i of a cumulative sum: its input's dim along an axis; flattened, the input's
    // size when static (PyTensor's infer_shape gives prod(x.shape), folded), nothing
    // when a dim is unknown. The graph then needs no cumsum for its length.
    void cumulativeOpLength_data() {
        QTest::addColumn<bool>("flatten");
        QTest::addColumn<bool>("staticInput");
        QTest::addColumn<int>("steps");
        QTest::newRow("along an axis, unknown dims") << false << false << 1;
        QTest::newRow("flattened, static (5, 3): 15") << true << true << 1;
        QTest::newRow("not flattened of unknown dims") << true << false << 0;
    }
    void cumulativeOpLength() {
        QFETCH(bool, flatten);
        QFETCH(bool, staticInput);
        QFETCH(int, steps);
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, staticInput ? StaticShape{5, 3} : StaticShape{kUnknownDim, kUnknownDim});
        Var c = flatten ? cumsum(x) : cumsum(x, 0);
        auto g = b.finish({shapeI(c, flatten ? 0 : 1) * 2});
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localTrackShapeI()));
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("local_track_shape_i"), steps);
        QCOMPARE(countOps(*out.after, OpKind::CumOp), steps ? 0 : 1);
    }

    // The parts of a Split and a Join, as PyTensor's infer_shape gives them: a part's
    // length on the split axis is its entry of the sizes, the join axis the sum of the
    // inputs' lengths, any other axis the (first) input's. The length no longer reads
    // the Split or the Join. An axis known only at run time stays untracked.
    void splitAndJoinLengths_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("steps");
        QTest::newRow("split part 1, split axis: sizes[1]") << 0 << 1;
        QTest::newRow("split part 2, other axis: x's") << 1 << 1;
        QTest::newRow("join axis 0: the sum of three lengths") << 2 << 1;
        QTest::newRow("join axis -1 (1), other axis 0: the first input's") << 3 << 1;
        QTest::newRow("join axis known at run time") << 4 << 0;
        QTest::newRow("split axis known at run time") << 5 << 0;
    }
    void splitAndJoinLengths() {
        QFETCH(int, kind);
        QFETCH(int, steps);
        GraphBuilder b;
        Var x = b.input("x", DType::Float64, {kUnknownDim, kUnknownDim});
        Var y = b.input("y", DType::Float64, {kUnknownDim, kUnknownDim});
        Var sizes = b.input("sizes", DType::Int32, {3});
        Var axis = b.input("axis", DType::Int64, {});
        Var length;
        if (kind <= 1 || kind == 5) {
            std::vector<Var> parts = split(x, sizes, 3, kind == 5 ? IntArg(axis) : IntArg(0));
            length = kind == 0 ? shapeI(parts[1], 0) : shapeI(parts[2], 1);
        } else {
            Var j = join(kind == 2 ? IntArg(0) : kind == 3 ? IntArg(-1) : IntArg(axis), {x, y, x});
            length = shapeI(j, kind == 3 ? 0 : kind == 2 ? 0 : 1);
        }
        auto g = b.finish({length * 2});
        std::vector<NDArray> in = {NDArray::fromVector(DType::Float64, {6, 2}, std::vector<double>(12, 1.0)),
                                   NDArray::fromVector(DType::Float64, {6, 3}, std::vector<double>(18, 2.0)),
                                   NDArray::fromVector(DType::Int32, {3}, {1, 4, 1}), NDArray::scalar(DType::Int64, kind == 5 ? 0 : 1)};
        if (kind == 2) in[1] = NDArray::fromVector(DType::Float64, {3, 2}, std::vector<double>(6, 2.0));
        RewriteOutcome out = rewriteAndCompare(*g, singleRewrite(localTrackShapeI()), {}, 1, 0.0, 0.0, &in);
        QVERIFY2(out.mismatch.empty(), out.mismatch.c_str());
        QCOMPARE(out.stepsOf("local_track_shape_i"), steps);
        QCOMPARE(countOps(*out.after, OpKind::Split) + countOps(*out.after, OpKind::Join), steps ? 0 : 1);
        QCOMPARE(out.after->output(0)->type().dtype, DType::Int64);
    }
};

TL_TEST_SUITE(TestShapeTracking)
#include "tst_rw_shape_tracking.moc"
