// Large elementwise and reduction kernels split across the thread pool
// (core/ThreadPool.h) give bit-identical results for 1, 2 and 3 threads: the
// fused reduction sum(exp(x) * y) (one CAReduce{Composite} after the fusion
// phase), over all axes and over each kind of axis split, and the fused Composite 2*exp(x) + tanh(y) - x*y, each on a few million
// float64 elements, plus the pool's own contract (every chunk once, errors
// reach the caller, nested calls run inline).
#include "TestSuites.h"
#include "TestSupport.h"

#include "builder/Indexing.h"
#include "builder/Math.h"
#include "core/ThreadPool.h"
#include "exec/Executor.h"
#include "ops/Elemwise.h"
#include "ops/ElemwiseLoop.h"
#include "ops/ScalarProgram.h"
#include "rewrite/EquilibriumDriver.h"
#include "rewrite/Pipeline.h"
#include "rewrite/Rewrites.h"

#include <QtTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <optional>
#include <stdexcept>

using namespace tl;
using namespace tl::test;

namespace {

// Not a multiple of any chunk or block size, so every split has a ragged end.
constexpr int64_t kN = 3'000'017;

NDArray values(double scale, double shift) {
    NDArray a = NDArray::empty(DType::Float64, {kN});
    double* p = a.data<double>();
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (int64_t i = 0; i < kN; ++i) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        p[i] = shift + scale * (static_cast<double>(s >> 11) * 0x1.0p-53);
    }
    return a;
}

/// sum(exp(x) * y) over `axes` (all when unset) rewritten by the fusion phase, and its one Reduce node.
std::unique_ptr<Graph> fusedSum(const Node** reduce, const Shape& shape = {kN},
                                std::optional<std::vector<int>> axes = std::nullopt) {
    GraphBuilder b;
    Var x = b.input("x", DType::Float64, shape), y = b.input("y", DType::Float64, shape);
    auto g = b.finish({axes ? sum(exp(x) * y, *axes) : sum(exp(x) * y)});
    std::vector<std::unique_ptr<GraphPass>> passes;
    passes.push_back(makeElemwiseFusion());
    passes.push_back(std::make_unique<EquilibriumDriver>("local_careduce_fusion", std::vector<std::string>{"fast_run"},
                                                         std::vector<const NodeRewrite*>{&localCareduceFusion()}));
    Pipeline p;
    p.addPhase("fusion", std::move(passes));
    PipelineOptions o;
    o.validate = false;
    p.run(*g, o);
    *reduce = nullptr;
    for (const Node* n : g->toposort())
        if (n->op().kind() == OpKind::Reduce) *reduce = n;
    return g;
}

bool sameBits(const NDArray& a, const NDArray& b) {
    return a.size() == b.size() && std::memcmp(a.rawData(), b.rawData(), static_cast<size_t>(a.size()) * sizeof(double)) == 0;
}

} // namespace

class TestThreadDeterminism : public QObject {
    Q_OBJECT
private slots:
    void fusedReductionIsBitIdenticalForAnyThreadCount() {
        const Node* reduce = nullptr;
        auto g = fusedSum(&reduce);
        QVERIFY(reduce);
        QVERIFY2(reduce->op().name().find("Composite") != std::string::npos, reduce->op().name().c_str());
        const NDArray x = values(4.0, -2.0), y = values(2.0, -1.0);
        const NDArray ins[] = {x, y};
        std::vector<NDArray> results;
        for (int threads : {1, 2, 3}) {
            ThreadCount scope(threads);
            QCOMPARE(ThreadPool::instance().threads(), threads);
            std::vector<NDArray> outs(1);
            reduce->op().perform(ins, outs);
            results.push_back(outs[0]);
            // Through the executor as well: the whole graph, on a fresh context.
            RunResult r = runGraph(*g, ins);
            QVERIFY(sameBits(r.outputs[0], outs[0]));
        }
        QVERIFY(sameBits(results[0], results[1]));
        QVERIFY(sameBits(results[0], results[2]));
        // And it is the sum: against a long double accumulation of libm's products.
        long double want = 0;
        for (int64_t i = 0; i < kN; ++i) want += static_cast<long double>(std::exp(x.data<double>()[i]) * y.data<double>()[i]);
        const double got = results[0].data<double>()[0];
        QVERIFY2(std::fabs(got - static_cast<double>(want)) <= 1e-9 * std::fabs(static_cast<double>(want)) + 1e-9,
                 qPrintable(QString("%1 vs %2").arg(got, 0, 'g', 17).arg(static_cast<double>(want), 0, 'g', 17)));
    }

    void axisReductionsAreBitIdenticalForAnyThreadCount_data() {
        QTest::addColumn<std::vector<int>>("axes");
        // On (301, 7, 997): split by rows (outermost dim kept), by columns (innermost
        // kept, outermost reduced), and not split (both ends reduced).
        QTest::newRow("axis 2: rows") << std::vector<int>{2};
        QTest::newRow("axis 1: rows, inner kept") << std::vector<int>{1};
        QTest::newRow("axis 0: columns") << std::vector<int>{0};
        QTest::newRow("axes 0, 2: one thread") << std::vector<int>{0, 2};
    }
    void axisReductionsAreBitIdenticalForAnyThreadCount() {
        QFETCH(std::vector<int>, axes);
        const Shape shape{301, 7, 997};
        const Node* reduce = nullptr;
        auto g = fusedSum(&reduce, shape, axes);
        QVERIFY(reduce);
        QVERIFY2(reduce->op().name().find("Composite") != std::string::npos, reduce->op().name().c_str());
        const int64_t n = 301 * 7 * 997;
        NDArray x = NDArray::empty(DType::Float64, shape), y = NDArray::empty(DType::Float64, shape);
        std::memcpy(x.rawData(), values(4.0, -2.0).rawData(), n * sizeof(double));
        std::memcpy(y.rawData(), values(2.0, -1.0).rawData(), n * sizeof(double));
        const NDArray ins[] = {x, y};
        std::vector<NDArray> results;
        for (int threads : {1, 2, 3}) {
            ThreadCount scope(threads);
            std::vector<NDArray> outs(1);
            reduce->op().perform(ins, outs);
            results.push_back(outs[0]);
        }
        QVERIFY(sameBits(results[0], results[1]));
        QVERIFY(sameBits(results[0], results[2]));
        // The sums themselves: each output against a long double accumulation.
        std::vector<long double> want(static_cast<size_t>(results[0].size()), 0.0L);
        const Strides outStrides = NDArray::contiguousStrides(results[0].shape());
        for (int64_t i = 0; i < 301; ++i)
            for (int64_t j = 0; j < 7; ++j)
                for (int64_t k = 0; k < 997; ++k) {
                    const int64_t at[3] = {i, j, k};
                    int64_t o = 0, d = 0;
                    for (int a = 0; a < 3; ++a)
                        if (std::find(axes.begin(), axes.end(), a) == axes.end()) o += at[a] * outStrides[d++];
                    const int64_t e = (i * 7 + j) * 997 + k;
                    want[static_cast<size_t>(o)] += static_cast<long double>(std::exp(x.data<double>()[e]) * y.data<double>()[e]);
                }
        for (size_t o = 0; o < want.size(); ++o) {
            const double got = results[0].data<double>()[o], w = static_cast<double>(want[o]);
            QVERIFY2(std::fabs(got - w) <= 1e-10 * (std::fabs(w) + 1.0), qPrintable(QString("output %1: %2 vs %3").arg(o).arg(got).arg(w)));
        }
    }

    void fusedElementwiseIsBitIdenticalForAnyThreadCount() {
        GraphBuilder b;
        Var i0 = b.placeholder(Type::scalar(DType::Float64)), i1 = b.placeholder(Type::scalar(DType::Float64));
        OpPtr op = makeCompositeElemwise(*b.finish({2 * exp(i0) + tanh(i1) - i0 * i1}));
        const NDArray x = values(4.0, -2.0), y = values(6.0, -3.0);
        const NDArray ins[] = {x, y};
        std::vector<NDArray> results;
        for (int threads : {1, 2, 3}) {
            ThreadCount scope(threads);
            std::vector<NDArray> outs(1);
            op->perform(ins, outs);
            results.push_back(outs[0]);
        }
        QVERIFY(sameBits(results[0], results[1]));
        QVERIFY(sameBits(results[0], results[2]));
        // The values themselves, against the C library within the vector functions' bound.
        for (int64_t i = 0; i < kN; i += 997) {
            const double xi = x.data<double>()[i], yi = y.data<double>()[i];
            const double want = 2.0 * std::exp(xi) + std::tanh(yi) - xi * yi;
            QVERIFY(std::fabs(results[0].data<double>()[i] - want) <= 1e-14 * (std::fabs(want) + 16.0));
        }
    }

    void inplaceElementwiseSplitReadsBeforeWriting() {
        // exp(x) - x written over x itself (an inplace Elemwise), split across threads.
        GraphBuilder b;
        Var i0 = b.placeholder(Type::scalar(DType::Float64));
        auto program = ScalarProgram::compile(*b.finish({exp(i0) - i0}));
        const NDArray x = values(2.0, -1.0);
        NDArray want = NDArray::empty(DType::Float64, {kN});
        {
            ThreadCount scope(1);
            NDArray outs[] = {want};
            runElementwise(*program, std::span<const NDArray>(&x, 1), outs);
        }
        ThreadCount scope(2);
        NDArray inplace = x.copy();
        NDArray outs[] = {inplace};
        runElementwise(*program, std::span<const NDArray>(&inplace, 1), outs);
        QVERIFY(sameBits(inplace, want));
    }

    void poolRunsEveryChunkOnce() {
        ThreadCount scope(3);
        std::vector<std::atomic<int>> hits(1000);
        ThreadPool::instance().parallelFor(1000, [&](int64_t k) { hits[static_cast<size_t>(k)]++; });
        for (auto& h : hits) QCOMPARE(h.load(), 1);
    }

    void poolRethrowsAndRunsNestedCallsInline() {
        ThreadCount scope(2);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, ThreadPool::instance().parallelFor(64, [](int64_t k) {
            if (k == 17) throw std::runtime_error("chunk 17");
        }));
        std::atomic<int> inner{0};
        ThreadPool::instance().parallelFor(4, [&](int64_t) {
            ThreadPool::instance().parallelFor(8, [&](int64_t) { inner++; });
        });
        QCOMPARE(inner.load(), 32);
        // The pool still works after an error.
        std::atomic<int> count{0};
        ThreadPool::instance().parallelFor(100, [&](int64_t) { count++; });
        QCOMPARE(count.load(), 100);
    }

    void defaultThreadsNeverExceedTheCores() {
        QVERIFY(ThreadPool::defaultThreads() >= 1);
        QVERIFY(ThreadPool::defaultThreads() <= std::max(1, static_cast<int>(std::thread::hardware_concurrency())));
    }
};

TL_TEST_SUITE(TestThreadDeterminism)
#include "tst_thread_determinism.moc"
