// Every built-in example walked in the real window, offscreen: forward to the
// end, back to the start and by random jumps, checking at every step that the
// picture tells the truth (WindowChecks.h) and that a step shows the same
// picture however it was reached.
#include "TestSuites.h"
#include "WindowChecks.h"

#include "builder/Examples.h"

#include <QSettings>
#include <QStandardPaths>
#include <QtTest>

#include <random>

using namespace tl;
using namespace tl::test;

class TestWindowWalk : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("tensorlens-tests");
        QCoreApplication::setApplicationName("tst_windowwalk");
        QSettings().clear();
    }

    void walkEveryExample_data() {
        QTest::addColumn<QString>("example");
        for (const Example& e : examples()) QTest::newRow(e.name.c_str()) << QString::fromStdString(e.name);
    }
    void walkEveryExample() {
        QFETCH(QString, example);
        MainWindow w;
        w.resize(1500, 950);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openExample(example));
        waitForLayout(w);
        const int n = w.session()->stepCount();
        std::map<int, std::map<std::string, QRectF>> seen;  // position -> boxes as first shown
        auto check = [&](const char* how) {
            waitForLayout(w);
            const int k = w.session()->currentStep();
            const QString broken = brokenInvariant(w);
            QVERIFY2(broken.isEmpty(), qPrintable(QString("%1, step %2 (%3): %4").arg(example).arg(k).arg(how, broken)));
            auto now = boxes(w);
            if (auto it = seen.find(k); it != seen.end()) {
                const std::string moved = movedKey(it->second, now);
                QVERIFY2(moved.empty(), qPrintable(QString("%1, step %2 (%3): %4 is not where it was drawn before")
                                                       .arg(example)
                                                       .arg(k)
                                                       .arg(how, QString::fromStdString(moved))));
                QCOMPARE(now.size(), it->second.size());
            } else {
                seen[k] = std::move(now);
            }
        };
        check("opened");
        for (int k = 1; k <= n; ++k) {
            QTest::keyClick(&w, Qt::Key_Right);
            QCOMPARE(w.session()->currentStep(), k);
            check("forward");
        }
        for (int k = n - 1; k >= 0; --k) {
            QTest::keyClick(&w, Qt::Key_Left);
            QCOMPARE(w.session()->currentStep(), k);
            check("back");
        }
        QTest::keyClick(&w, Qt::Key_End);
        check("End");
        QTest::keyClick(&w, Qt::Key_Home);
        check("Home");
        std::mt19937 rng(static_cast<unsigned>(qHash(example)));
        for (int i = 0; i < 12 && n > 0; ++i) {
            w.session()->setCurrentStep(static_cast<int>(rng() % static_cast<unsigned>(n + 1)));
            check("jump");
        }
        qInfo("%s: %d steps, %zu pictures kept (%zu entries)", qPrintable(example), n, w.canvas()->history().size(), w.canvas()->history().entries());
    }

    // Jumping first and walking back afterwards: the steps not seen yet are drawn
    // from the picture on screen, and are then the same whichever way they are met.
    void jumpThenWalkBack_data() {
        QTest::addColumn<QString>("example");
        for (const char* e : {"seed_rop", "seed_dup", "seed_rop_sequence", "dup_mitsot_fib", "savemem_sitsot_last2"}) QTest::newRow(e) << QString(e);
    }
    void jumpThenWalkBack() {
        QFETCH(QString, example);
        MainWindow w;
        w.resize(1500, 950);
        w.show();
        QVERIFY(w.openExample(example));
        waitForLayout(w);
        const int n = w.session()->stepCount();
        w.session()->last();
        waitForLayout(w);
        QVERIFY2(brokenInvariant(w).isEmpty(), qPrintable(brokenInvariant(w)));
        std::map<int, std::map<std::string, QRectF>> back;
        for (int k = n - 1; k >= 0; --k) {
            w.session()->setCurrentStep(k);
            waitForLayout(w);
            QVERIFY2(brokenInvariant(w).isEmpty(), qPrintable(QString("step %1: %2").arg(k).arg(brokenInvariant(w))));
            back[k] = boxes(w);
        }
        for (int k = 1; k <= n; ++k) {
            w.session()->setCurrentStep(k);
            waitForLayout(w);
            if (k < n) QVERIFY2(movedKey(back[k], boxes(w)).empty(), qPrintable(QString("step %1 moved").arg(k)));
        }
    }
};

TL_TEST_SUITE(TestWindowWalk)
#include "tst_windowwalk.moc"
