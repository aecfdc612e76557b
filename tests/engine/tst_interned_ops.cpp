// Plain Elemwise ops and ScalarOps are one instance per (scalar op, cast dtype)
// (ops/InternedScalarOps.h): equal requests share it, anything that differs does
// not, and a shared op computes correctly for graphs and threads that use it at once.
#include "TestSuites.h"
#include "TestSupport.h"

#include "ops/Elemwise.h"
#include "ops/OpFactory.h"
#include "ops/ScalarOp.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <thread>

using namespace tl;
using C = ScalarOpCode;

class TestInternedOps : public QObject {
    Q_OBJECT

private slots:
    void equalRequestsShareOneInstance() {
        QVERIFY(makeElemwise(C::Add) == makeElemwise(C::Add));
        QVERIFY(makeScalarOp(C::Exp) == makeScalarOp(C::Exp));
        // castTo means nothing but for Cast, as the constructors ignore it.
        QVERIFY(makeElemwise(C::Mul, DType::Int8) == makeElemwise(C::Mul));
        QVERIFY(makeElemwise(C::Cast, DType::Int8) == makeElemwise(C::Cast, DType::Int8));
        // What JSON import and dropping an inplace pattern build is the same instance.
        QVERIFY(makeOp(OpKind::Elemwise, nlohmann::json{{"scalar_op", "add"}}, nullptr) == makeElemwise(C::Add));
        const OpPtr inplace = makeElemwise(C::Add, DType::Float64, {{0, 1}});
        QVERIFY(static_cast<const Elemwise&>(*inplace).withInplace({}) == makeElemwise(C::Add));
    }

    void differentOpsStayApart() {
        QVERIFY(makeElemwise(C::Add) != makeElemwise(C::Sub));
        QVERIFY(makeElemwise(C::Cast, DType::Int8) != makeElemwise(C::Cast, DType::Float32));
        QVERIFY(makeScalarOp(C::Cast, DType::Int8) != makeScalarOp(C::Cast, DType::Int16));
        // An inplace op carries its own pattern: never the shared one, nor shared itself.
        const OpPtr a = makeElemwise(C::Add, DType::Float64, {{0, 0}});
        QVERIFY(a != makeElemwise(C::Add));
        QVERIFY(a != makeElemwise(C::Add, DType::Float64, {{0, 0}}));
        QCOMPARE(static_cast<const Elemwise&>(*a).inplacePattern().size(), size_t{1});
        QVERIFY(static_cast<const Elemwise&>(*makeElemwise(C::Add)).inplacePattern().empty());
        // An Elemwise and a ScalarOp of one code are different classes.
        QVERIFY(makeElemwise(C::Exp).get() != makeScalarOp(C::Exp).get());
        QCOMPARE(makeElemwise(C::Cast, DType::Int8)->name(), std::string("Cast{int8}"));
        QCOMPARE(static_cast<const ScalarOp&>(*makeScalarOp(C::Cast, DType::Int16)).castTo(), DType::Int16);
    }

    // Two threads build graphs of the same ops and run them on different dtypes at
    // once: each gets its own results (the shared op's program cache serves both).
    void sharedOpRunsOnManyThreadsAndDTypes() {
        auto work = [](DType dtype, double scale, std::vector<double>* out) {
            for (int round = 0; round < 200; ++round) {
                const NDArray x = NDArray::fromVector(dtype, {3}, {1 * scale, 2 * scale, 3 * scale});
                std::vector<NDArray> outs(1);
                const NDArray ins[] = {x, x};
                makeElemwise(C::Add)->perform(ins, outs);
                *out = outs[0].toDoubles();
                if (outs[0].dtype() != dtype) out->clear();
            }
        };
        std::vector<double> a, b;
        std::thread t1(work, DType::Float64, 0.5, &a);
        std::thread t2(work, DType::Int32, 10.0, &b);
        t1.join();
        t2.join();
        QCOMPARE(a, (std::vector<double>{1, 2, 3}));
        QCOMPARE(b, (std::vector<double>{20, 40, 60}));
    }
};

TL_TEST_SUITE(TestInternedOps)
#include "tst_interned_ops.moc"
