// Large results written past the caches (core/StreamStore.h): the copy is exact for
// any alignment and length; an elementwise kernel whose output reaches
// kStreamedOutputBytes gives the bits it gives below that size, streamed or not, on
// one thread and on several, also when the output is an input's own buffer (inplace); large
// arrays start on a page.
#include "TestSuites.h"
#include "TestSupport.h"

#include "builder/GraphBuilder.h"
#include "builder/Math.h"
#include "core/StreamStore.h"
#include "ops/Elemwise.h"

#include <QtTest>

#include <cstring>
#include <numeric>
#include <vector>

using namespace tl;

namespace {

// 2*exp(x) + tanh(x) on n doubles, computed in slices of at most `slice` elements
// (each below the streaming size) or at once.
NDArray fused(const NDArray& x, int64_t slice) {
    GraphBuilder b;
    Var i0 = b.placeholder(Type::scalar(DType::Float64));
    OpPtr op = makeCompositeElemwise(*b.finish({2 * exp(i0) + tanh(i0)}));
    const int64_t n = x.dim(0);
    NDArray out = NDArray::empty(DType::Float64, {n});
    for (int64_t s = 0; s < n; s += slice) {
        const int64_t m = std::min(slice, n - s);
        NDArray in = NDArray::empty(DType::Float64, {m});
        std::memcpy(in.data<double>(), x.data<double>() + s, static_cast<size_t>(m) * 8);
        std::vector<NDArray> outs(1);
        const NDArray ins[] = {in};
        op->perform(ins, outs);
        std::memcpy(out.data<double>() + s, outs[0].data<double>(), static_cast<size_t>(m) * 8);
    }
    return out;
}

} // namespace

class TestStreamStore : public QObject {
    Q_OBJECT
private slots:
    void copiesExactlyAtAnyAlignment() {
        std::vector<unsigned char> src(300), dst(340);
        std::iota(src.begin(), src.end(), 1);
        for (size_t from = 0; from < 20; ++from)
            for (size_t to = 0; to < 20; ++to)
                for (size_t bytes : {size_t{0}, size_t{1}, size_t{15}, size_t{16}, size_t{17}, size_t{63}, size_t{200}, size_t{280}}) {
                    std::fill(dst.begin(), dst.end(), 0);
                    streamBytes(dst.data() + to, src.data() + from, bytes);
                    streamFence();
                    QVERIFY(std::memcmp(dst.data() + to, src.data() + from, bytes) == 0);
                    for (size_t i = 0; i < dst.size(); ++i)
                        if (i < to || i >= to + bytes) QCOMPARE(int(dst[i]), 0);
                }
    }

    // Streamed (as on Intel CPUs) and stored directly (elsewhere), whichever this CPU does.
    void largeOutputsAreTheSameBits() {
        const int64_t n = static_cast<int64_t>(kStreamedOutputBytes / 8) + 12'345;  // past the size, with a tail
        NDArray x = NDArray::empty(DType::Float64, {n});
        for (int64_t i = 0; i < n; ++i) x.data<double>()[i] = -4.0 + 8.0 * static_cast<double>(i % 4099) / 4099.0;
        const NDArray small = fused(x, 100'000);
        const bool previous = streamsLargeOutputs();
        for (bool stream : {true, false}) {
            setStreamsLargeOutputs(stream);
            for (int threads : {1, 2}) {
                test::ThreadCount scope(threads);
                const NDArray whole = fused(x, n);
                QVERIFY2(std::memcmp(whole.data<double>(), small.data<double>(), static_cast<size_t>(n) * 8) == 0,
                         stream ? "streamed" : "stored directly");
            }
            // Inplace: the output is the input's own buffer.
            GraphBuilder b;
            Var i0 = b.placeholder(Type::scalar(DType::Float64));
            OpPtr op = makeCompositeElemwise(*b.finish({2 * exp(i0) + tanh(i0)}), InplacePattern{{0, 0}});
            NDArray y = x.copy();
            std::vector<NDArray> outs(1);
            const NDArray ins[] = {y};
            op->perform(ins, outs);
            QCOMPARE(outs[0].rawData(), y.rawData());
            QVERIFY(std::memcmp(y.data<double>(), small.data<double>(), static_cast<size_t>(n) * 8) == 0);
        }
        setStreamsLargeOutputs(previous);
    }

    void largeArraysStartOnAPage() {
        const NDArray big = NDArray::empty(DType::Float64, {static_cast<int64_t>(Storage::kPageAlignedBytes / 8)});
        QCOMPARE(reinterpret_cast<uintptr_t>(big.rawData()) % 4096, uintptr_t(0));
        const NDArray small = NDArray::empty(DType::Float64, {100});
        QCOMPARE(reinterpret_cast<uintptr_t>(small.rawData()) % 64, uintptr_t(0));
    }
};

TL_TEST_SUITE(TestStreamStore)
#include "tst_stream_store.moc"
