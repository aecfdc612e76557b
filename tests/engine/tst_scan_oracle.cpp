// The seed programs' numbers as a real PyTensor 2.34 computes them, and every
// PyTensor reference case in tests/oracle/ that the builder expresses, run
// unrewritten through the executor.
#include "TestSuites.h"
#include "builder/Indexing.h"
#include "builder/Math.h"
#include "builder/Rop.h"
#include "builder/Scan.h"
#include "exec/Executor.h"
#include "io/JsonValues.h"

#include "TestSupport.h"

#include <QtTest>

#include <functional>
#include <map>

using namespace tl;

namespace {

using Inputs = std::map<std::string, Var>;
using BuildFn = std::function<std::vector<Var>(GraphBuilder&, Inputs&)>;

StepFn steps(std::function<std::vector<Var>(const std::vector<Var>&)> f) {
    return [f](GraphBuilder&, const std::vector<Var>& a) -> StepResult { return {f(a)}; };
}

// One sit_sot loop v' = f(v) from `init`.
Var loop1(GraphBuilder& b, Var init, int n, std::function<Var(Var)> f) {
    return scan(b, steps([f](const std::vector<Var>& a) { return std::vector<Var>{f(a[0])}; }),
                ScanArgs{.outputsInfo = {OutputInfo(init)}, .nSteps = n})
        .outputs[0];
}

// Two sit_sot states from the same init in one loop.
std::vector<Var> loop2(GraphBuilder& b, Var init, int n, std::function<Var(Var)> f, std::function<Var(Var)> g) {
    return scan(b, steps([f, g](const std::vector<Var>& a) { return std::vector<Var>{f(a[0]), g(a[1])}; }),
                ScanArgs{.outputsInfo = {OutputInfo(init), OutputInfo(init)}, .nSteps = n})
        .outputs;
}

Var affine2(Var v) { return v * 2 + 1; }
Var half(Var v) { return v * 0.5 + 1; }
Var quad(Var v) { return v * v * 0.25 - 1; }
Var seedStep(Var v) { return exp(v) - 5; }

const std::map<std::string, BuildFn>& cases() {
    static const std::map<std::string, BuildFn> table = {
        {"dup_affine", [](GraphBuilder& b, Inputs& in) { return loop2(b, in["a0"], 6, affine2, affine2); }},
        {"dup_diff_update",
         [](GraphBuilder& b, Inputs& in) { return loop2(b, in["a0"], 6, affine2, [](Var v) { return v * 3 + 1; }); }},
        {"dup_last_only",
         [](GraphBuilder& b, Inputs& in) {
             auto s = loop2(b, in["a0"], 6, affine2, affine2);
             return std::vector<Var>{index(s[0], -1), index(s[1], -1)};
         }},
        {"dup_mitsot_fib",
         [](GraphBuilder& b, Inputs& in) {
             return scan(b, steps([](const std::vector<Var>& a) { return std::vector<Var>{a[1] + a[0], a[3] + a[2]}; }),
                         ScanArgs{.outputsInfo = {OutputInfo(in["x0"], {-2, -1}), OutputInfo(in["x0"], {-2, -1})}, .nSteps = 8})
                 .outputs;
         }},
        {"merge_same_nsteps",
         [](GraphBuilder& b, Inputs& in) { return std::vector<Var>{loop1(b, in["a0"], 6, half), loop1(b, in["b0"], 6, quad)}; }},
        {"merge_diff_nsteps",
         [](GraphBuilder& b, Inputs& in) { return std::vector<Var>{loop1(b, in["a0"], 6, half), loop1(b, in["b0"], 4, quad)}; }},
        {"misc_map_elemwise",
         [](GraphBuilder& b, Inputs& in) {
             return scan(b, steps([](const std::vector<Var>& a) { return std::vector<Var>{a[0] * a[1] + 1}; }),
                         ScanArgs{.sequences = {in["xs"]}, .outputsInfo = {OutputInfo::none()}, .nonSequences = {in["w"]}})
                 .outputs;
         }},
        {"misc_map_nonseq",
         [](GraphBuilder& b, Inputs& in) {
             return scan(b, steps([](const std::vector<Var>& a) { return std::vector<Var>{sum(a[0] * a[1])}; }),
                         ScanArgs{.sequences = {in["xs"]}, .outputsInfo = {OutputInfo::none()}, .nonSequences = {in["w"]}})
                 .outputs;
         }},
        {"misc_running_sum",
         [](GraphBuilder& b, Inputs& in) {
             return scan(b, steps([](const std::vector<Var>& a) { return std::vector<Var>{a[1] + a[0]}; }),
                         ScanArgs{.sequences = {in["M"]}, .outputsInfo = {OutputInfo(in["s0"])}})
                 .outputs;
         }},
        {"pushout_seq",
         [](GraphBuilder& b, Inputs& in) {
             return scan(b, steps([](const std::vector<Var>& a) { return std::vector<Var>{a[1] * 0.5 + exp(a[0]) * 2}; }),
                         ScanArgs{.sequences = {in["xs"]}, .outputsInfo = {OutputInfo(in["h0"])}})
                 .outputs;
         }},
        {"savemem_mitsot_fib_last",
         [](GraphBuilder& b, Inputs& in) {
             auto fib = scan(b, steps([](const std::vector<Var>& a) { return std::vector<Var>{a[1] + a[0]}; }),
                             ScanArgs{.outputsInfo = {OutputInfo(in["x0"], {-2, -1})}, .nSteps = 10});
             return std::vector<Var>{index(fib.outputs[0], -1)};
         }},
        {"savemem_sitsot_first5",
         [](GraphBuilder& b, Inputs& in) { return std::vector<Var>{slice(loop1(b, in["x0"], 10, half), std::nullopt, 5)}; }},
        {"savemem_sitsot_full", [](GraphBuilder& b, Inputs& in) { return std::vector<Var>{loop1(b, in["x0"], 10, half)}; }},
        {"savemem_sitsot_last",
         [](GraphBuilder& b, Inputs& in) { return std::vector<Var>{index(loop1(b, in["x0"], 10, half), -1)}; }},
        {"savemem_sitsot_last2",
         [](GraphBuilder& b, Inputs& in) { return std::vector<Var>{slice(loop1(b, in["x0"], 10, half), -2, std::nullopt)}; }},
        {"seed_dup", [](GraphBuilder& b, Inputs& in) { return loop2(b, in["x_init"], 10, seedStep, seedStep); }},
        {"seed_rop",
         [](GraphBuilder& b, Inputs& in) {
             Var out = index(loop1(b, in["x_init"], 10, seedStep), -1);
             return std::vector<Var>{out, rop(out, in["x_init"], in["x_init_tangent"])};
         }},
    };
    return table;
}

NDArray f64(Shape shape, std::vector<double> v) { return NDArray::fromVector(DType::Float64, shape, v); }

NDArray seedInit() {
    std::vector<double> v;
    for (int i = 0; i < 7; ++i) v.push_back((-1.0 + 2.0 * i / 6.0) * 0.1);  // numpy.linspace(-1, 1, 7) * 0.1
    return f64({7}, v);
}

} // namespace

class TestScanOracle : public QObject {
    Q_OBJECT
private slots:
    // Seed example 1: seq[-1] and its Rop.
    void seedExample1() {
        GraphBuilder b;
        Var x = b.input("x_init", DType::Float64, {7});
        Var t = b.input("x_init_tangent", DType::Float64, {7});
        Var out = index(loop1(b, x, 10, seedStep), -1);
        auto g = b.finish({out, rop(out, x, t)});
        RunResult r = runGraph(*g, std::vector<NDArray>{seedInit(), f64({7}, std::vector<double>(7, 1.0))});
        TL_COMPARE_ARRAYS(r.outputs[0], f64({7}, std::vector<double>(7, -4.993216188647903)), 1e-13, 0);
        TL_COMPARE_ARRAYS(r.outputs[1],
                          f64({7}, {6.8260538401706609e-20, 7.2810266172858716e-20, 7.7746727176156749e-20,
                                    8.3110287531612892e-20, 8.8946294422551726e-20, 9.5305784474505571e-20,
                                    1.022463063810696e-19}),
                          1e-13, 0);
    }

    // Seed example 2: two identical traces.
    void seedExample2() {
        GraphBuilder b;
        Var x = b.input("x_init", DType::Float64, {7});
        auto s = loop2(b, x, 10, seedStep, seedStep);
        auto g = b.finish(s);
        RunResult r = runGraph(*g, std::vector<NDArray>{seedInit()});
        QCOMPARE(r.outputs[0].shape(), (Shape{10, 7}));
        TL_COMPARE_ARRAYS(r.outputs[0], r.outputs[1], 0, 0);
        const NDArray row0 = f64({7}, {-4.0951625819640407, -4.0644930149683827, -4.0327838995179945, -4,
                                       -3.9661048864864261, -3.9310608942527536, -3.8948290819243523});
        const NDArray row1 = f64({7}, {-4.9833469614209172, -4.9828283071416308, -4.9822750831824152, -4.9816843611112658,
                                       -4.9810529093413161, -4.980377156255714, -4.9796531482032638});
        const std::vector<double> all = r.outputs[0].toDoubles();
        auto row = [&](int i) { return f64({7}, std::vector<double>(all.begin() + 7 * i, all.begin() + 7 * i + 7)); };
        TL_COMPARE_ARRAYS(row(0), row0, 1e-13, 0);
        TL_COMPARE_ARRAYS(row(1), row1, 1e-13, 0);
    }

    void oracleCase_data() {
        QTest::addColumn<QString>("name");
        for (const auto& [name, fn] : cases()) QTest::newRow(name.c_str()) << QString::fromStdString(name);
    }
    void oracleCase() {
        QFETCH(QString, name);
        const std::string file = test::oracleCaseFile(name.toStdString());
        QVERIFY2(!file.empty(), qPrintable("no case " + name + " in " + QString::fromStdString(test::oracleDir())));
        const nlohmann::json j = readJsonFile(file);
        GraphBuilder b;
        Inputs in;
        std::vector<NDArray> values;
        for (const auto& inputName : j["input_order"]) {
            const auto& spec = j["inputs"][inputName.get<std::string>()];
            StaticShape shape = spec["shape"].get<StaticShape>();
            DType dt = *parseDType(spec["dtype"].get<std::string>());
            Var v = b.input(inputName.get<std::string>(), dt, shape);
            in[inputName.get<std::string>()] = v;
            values.push_back(arrayFromJson(spec, v.type(), "/inputs/" + inputName.get<std::string>()));
        }
        auto g = b.finish(cases().at(name.toStdString())(b, in));
        RunResult r = runGraph(*g, values);
        QCOMPARE(r.outputs.size(), j["outputs"].size());
        for (size_t i = 0; i < r.outputs.size(); ++i) {
            const auto& spec = j["outputs"][i];
            Type t = Type::tensor(*parseDType(spec["dtype"].get<std::string>()), spec["shape"].get<StaticShape>());
            const NDArray want = arrayFromJson(spec, t, "/outputs/" + std::to_string(i));
            TL_COMPARE_ARRAYS(r.outputs[i], want, 1e-13, 0);
        }
    }

    // Every case folder is covered by a row above (a new case fails here until it is added).
    void everyCaseIsCovered() {
        const std::vector<std::string> names = test::oracleCaseNames();
        QVERIFY2(!names.empty(), qPrintable("no cases in " + QString::fromStdString(test::oracleDir())));
        for (const std::string& name : names)
            QVERIFY2(cases().count(name), ("no builder for oracle case " + name).c_str());
    }
};

TL_TEST_SUITE(TestScanOracle)
#include "tst_scan_oracle.moc"
