// The products, BLAS and linear-algebra ops in files: every op's printed name reads
// back (dprint importer) as the same op, real PyTensor 2.34 listings of compiled
// graphs holding them (tests/golden/dprint/*_compiled.txt) import without opaque
// nodes and print back line for line, and JSON keeps every op.
#include "TestSuites.h"
#include "DPrintGoldenGraphs.h"
#include "LinalgTestGraphs.h"
#include "TestSupport.h"
#include "ShapeOpsTestUtil.h"

#include "io/DPrint.h"
#include "io/DPrintImport.h"
#include "io/JsonGraph.h"

#include <QtTest>

#include <cmath>
#include <fstream>
#include <sstream>

using namespace tl;
using namespace tl::golden;

namespace {
std::string readGolden(const std::string& name) {
    std::ifstream in(tl::test::sourcePath("tests/golden/dprint/" + name));
    if (!in) throw std::runtime_error("missing tests/golden/dprint/" + name);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}
} // namespace

class TestLinalgIo : public QObject {
    Q_OBJECT
private slots:
    // Each op's listing, imported, is a graph with the same ops.
    void everyNameReadsBack() {
        G o;
        const std::vector<Variable*> outs = linalgOpKinds(o);
        auto g = o.finish(outs);
        DPrintOptions opts;
        opts.printType = opts.printDestroyMap = true;
        const std::string text = dprint(*g, opts);
        DPrintImport imp = importDprint(text);
        std::string notes;
        for (const std::string& n : imp.notes) notes += n + "\n";
        for (const Node* n : imp.graph->nodes())
            QVERIFY2(n->op().kind() != OpKind::Opaque, (n->op().name() + " stayed opaque:\n" + notes).c_str());
        QCOMPARE(QString::fromStdString(dprint(*imp.graph, opts)), QString::fromStdString(text));
    }

    void pytensorListings_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("blas_patterns (Dot22, Dot22Scalar, CGemv, CGer)") << "blas_patterns_compiled.txt";
        QTest::newRow("batched linear algebra (Blockwise, BatchedDot, inplace Cholesky)") << "batched_linalg_compiled.txt";
    }
    void pytensorListings() {
        QFETCH(QString, file);
        const std::string text = readGolden(file.toStdString());
        DPrintImport imp = importDprint(text, file.toStdString());
        for (const Node* n : imp.graph->nodes()) QVERIFY2(n->op().kind() != OpKind::Opaque, n->op().name().c_str());
        DPrintOptions back = imp.options;
        back.topoIndexOverride = &imp.topoIndex;
        QCOMPARE(QString::fromStdString(dprint(*imp.graph, back)), QString::fromStdString(text));
        // And through JSON.
        auto again = graphFromJsonText(graphToJsonText(*imp.graph));
        QCOMPARE(QString::fromStdString(dprint(*again, imp.options)), QString::fromStdString(dprint(*imp.graph, imp.options)));
    }

    // PyTensor's graph has Cholesky{overwrite_a=True} destroy the matrix a Solve also
    // reads: run as imported, the Solve must still see the matrix (the destroy handler
    // orders it first), so its result solves the original system.
    void destroyOrderingInAPyTensorGraph() {
        DPrintImport imp = importDprint(readGolden("batched_linalg_compiled.txt"));
        const Graph& g = *imp.graph;
        std::vector<NDArray> ins;
        for (const Variable* v : g.inputs()) {
            Shape s(v->type().shape.begin(), v->type().shape.end());
            NDArray a = NDArray::empty(DType::Float64, s);
            for (int64_t i = 0; i < a.size(); ++i) a.data<double>()[i] = std::sin(1.0 + 0.7 * static_cast<double>(i)) + (i % 5 == 0 ? 2.0 : 0.0);
            ins.push_back(a);
        }
        const auto out = tl::test::run(g, ins);
        // Output 3: Solve(As As^T, Bs) per batch element; check As As^T X = Bs.
        const NDArray& as = ins[0];
        const NDArray& bs = ins[2];
        const NDArray& x = out[3];
        for (int64_t k = 0; k < 3; ++k)
            for (int64_t i = 0; i < 4; ++i)
                for (int64_t c = 0; c < 2; ++c) {
                    double lhs = 0;
                    for (int64_t j = 0; j < 4; ++j) {
                        double sij = 0;
                        for (int64_t p = 0; p < 4; ++p)
                            sij += as.get(std::vector<int64_t>{k, i, p}) * as.get(std::vector<int64_t>{k, j, p});
                        lhs += sij * x.get(std::vector<int64_t>{k, j, c});
                    }
                    QVERIFY2(std::fabs(lhs - bs.get(std::vector<int64_t>{k, i, c})) < 1e-9, "the Solve read a destroyed matrix");
                }
    }

    void importerErrors() {
        // A prop the op does not take, or a bad value, is a note and an Opaque node, not a crash.
        const std::string text = "Solve{assume_a='nope', lower=False, check_finite=True, b_ndim=1, overwrite_a=False, "
                                 "overwrite_b=False} [id A] <Vector(float64, shape=(2,))>\n"
                                 " ├─ A [id B] <Matrix(float64, shape=(2, 2))>\n"
                                 " └─ b [id C] <Vector(float64, shape=(2,))>\n";
        DPrintImport imp = importDprint(text);
        bool opaque = false;
        for (const Node* n : imp.graph->nodes()) opaque = opaque || n->op().kind() == OpKind::Opaque;
        QVERIFY(opaque);
        std::string notes;
        for (const std::string& n : imp.notes) notes += n;
        QVERIFY2(notes.find("not one of") != std::string::npos, notes.c_str());
    }
};

TL_TEST_SUITE(TestLinalgIo)
#include "tst_linalg_io.moc"
