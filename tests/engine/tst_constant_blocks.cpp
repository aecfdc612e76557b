// The constant blocks of compiled scalar programs (ops/ConstantBlocks.h): programs
// reading the same constant value share one block, values that differ in dtype or
// in any bit get their own, blocks go when their last program does, and programs
// sharing a block compute what each would alone, also on several threads at once.
#include "TestSuites.h"
#include "TestSupport.h"

#include "builder/Math.h"
#include "ir/Graph.h"
#include "ops/ConstantBlocks.h"
#include "ops/ScalarProgram.h"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <thread>

using namespace tl;

namespace {

std::shared_ptr<const ConstantBlock> blockOf(double v) { return sharedConstantBlock(DType::Float64, &v, sizeof v); }

// (x + c) * c for a constant c of `dtype`, compiled (no multiply-add to contract).
std::shared_ptr<const ScalarProgram> scaleAndShift(DType dtype, double c) {
    GraphBuilder b;
    Var x = b.placeholder(Type::scalar(dtype));
    Var k = b.scalarConstant(c, dtype);
    auto g = b.finish({(x + k) * k});
    return ScalarProgram::compile(*g);
}

std::vector<double> evaluate(const ScalarProgram& p, DType dtype, std::vector<double> xs) {
    const NDArray x = NDArray::fromVector(dtype, {static_cast<int64_t>(xs.size())}, xs);
    const NDArray ins[] = {x};
    return p.evaluate(ins)[0].toDoubles();
}

} // namespace

class TestConstantBlocks : public QObject {
    Q_OBJECT
private slots:
    void equalValuesShareOneBlockHoldingTheValue() {
        const auto a = blockOf(0.5), b = blockOf(0.5);
        QVERIFY(a == b);
        const auto* values = reinterpret_cast<const double*>(a->data);
        for (int64_t i = 0; i < kBlockSize; ++i) QCOMPARE(values[i], 0.5);
        float f = 0.25f;
        const auto fb = sharedConstantBlock(DType::Float32, &f, sizeof f);
        const auto* floats = reinterpret_cast<const float*>(fb->data);
        for (int64_t i = 0; i < kBlockSize; ++i) QCOMPARE(floats[i], 0.25f);  // a block is kBlockSize elements
    }

    void valuesThatDifferInDTypeOrBitsStayApart() {
        QVERIFY(blockOf(0.0) != blockOf(-0.0));
        const double nan1 = std::nan("1"), nan2 = std::nan("2");
        QVERIFY(blockOf(nan1) != blockOf(nan2));
        // The same eight bytes under two dtypes: int64 0 and float64 0.0.
        const int64_t zero = 0;
        QVERIFY(sharedConstantBlock(DType::Int64, &zero, sizeof zero) != blockOf(0.0));
        const float one = 1.0f;
        QVERIFY(sharedConstantBlock(DType::Float32, &one, sizeof one) != blockOf(1.0));
    }

    void aBlockGoesWithItsLastHolder() {
        const size_t before = liveConstantBlocks();
        {
            const auto a = blockOf(123.456);
            QCOMPARE(liveConstantBlocks(), before + 1);
            const auto b = blockOf(123.456);
            QCOMPARE(liveConstantBlocks(), before + 1);
        }
        QCOMPARE(liveConstantBlocks(), before);
    }

    void badSizesAreRefused() {
        const double v = 1;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sharedConstantBlock(DType::Float64, &v, 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sharedConstantBlock(DType::Float64, &v, 16));
    }

    // A second program with the same constant adds no block, and each program
    // computes its own result; a float32 program gets a float32 block of its own.
    void programsShareTheirConstantsAndComputeAlone() {
        const size_t before = liveConstantBlocks();
        const auto p1 = scaleAndShift(DType::Float64, 0.1);
        QCOMPARE(liveConstantBlocks(), before + 1);  // one block for both reads of 0.1
        const auto p2 = scaleAndShift(DType::Float64, 0.1);
        QCOMPARE(liveConstantBlocks(), before + 1);
        const auto p3 = scaleAndShift(DType::Float32, 0.1);
        QCOMPARE(liveConstantBlocks(), before + 2);
        const std::vector<double> xs{1, 2, -3};
        QCOMPARE(evaluate(*p1, DType::Float64, xs), (std::vector<double>{(1 + 0.1) * 0.1, (2 + 0.1) * 0.1, (-3 + 0.1) * 0.1}));
        QCOMPARE(evaluate(*p2, DType::Float64, xs), evaluate(*p1, DType::Float64, xs));
        const float k = 0.1f;
        QCOMPARE(evaluate(*p3, DType::Float32, xs),
                 (std::vector<double>{double((1 + k) * k), double((2 + k) * k), double((-3 + k) * k)}));
    }

    // Threads compiling programs of the same constants at once all get the one block
    // and correct results.
    void threadsCompilingAtOnceShareCorrectly() {
        auto work = [](double c, std::vector<double>* out) {
            for (int round = 0; round < 100; ++round) {
                const auto p = scaleAndShift(DType::Float64, c);
                *out = evaluate(*p, DType::Float64, {2});
                if (blockOf(c) != blockOf(c)) out->clear();
            }
        };
        std::vector<double> a, b, c;
        std::thread t1(work, 3.0, &a), t2(work, 3.0, &b), t3(work, 5.0, &c);
        t1.join();
        t2.join();
        t3.join();
        QCOMPARE(a, std::vector<double>{15});
        QCOMPARE(b, std::vector<double>{15});
        QCOMPARE(c, std::vector<double>{35});
    }
};

TL_TEST_SUITE(TestConstantBlocks)
#include "tst_constant_blocks.moc"
