// lineHunks: the stretches of lines the dprint pane replaces when the listing
// changes, checked by applying them to the old listing (it must give the new one)
// and against hunks written out by hand.
#include "TestSuites.h"
#include "model/LineDiff.h"

#include <QtTest>

using namespace tl;

namespace {
using Lines = std::vector<std::string>;

Lines apply(const Lines& before, const Lines& after, const std::vector<LineHunk>& hunks) {
    Lines out = before;
    for (auto h = hunks.rbegin(); h != hunks.rend(); ++h) {
        out.erase(out.begin() + h->oldBegin, out.begin() + h->oldEnd);
        out.insert(out.begin() + h->oldBegin, after.begin() + h->newBegin, after.begin() + h->newEnd);
    }
    return out;
}

Lines numbered(int n) {
    Lines l;
    for (int i = 0; i < n; ++i) l.push_back("line " + std::to_string(i));
    return l;
}

QString describe(const std::vector<LineHunk>& hunks) {
    QStringList parts;
    for (const LineHunk& h : hunks) parts << QString("[%1,%2)->[%3,%4)").arg(h.oldBegin).arg(h.oldEnd).arg(h.newBegin).arg(h.newEnd);
    return parts.join(' ');
}
} // namespace

class TestLineDiff : public QObject {
    Q_OBJECT
private slots:
    void sameListingHasNoHunk() { QVERIFY(lineHunks(numbered(50), numbered(50)).empty()); }

    // A step that renames one line near the top and one near the bottom: two
    // one-line hunks, not the 4,998 lines between them.
    void twoFarChangesAreTwoHunks() {
        const Lines before = numbered(5000);
        Lines after = before;
        after[1] = "changed top";
        after[4998] = "changed bottom";
        const auto hunks = lineHunks(before, after);
        QCOMPARE(describe(hunks), QString("[1,2)->[1,2) [4998,4999)->[4998,4999)"));
        QVERIFY(apply(before, after, hunks) == after);
    }

    void insertionsAndDeletions() {
        const Lines before = {"a", "b", "c", "d", "e", "f"};
        const Lines after = {"a", "x", "b", "c", "e", "f", "g"};
        const auto hunks = lineHunks(before, after);
        // x inserted before b, d removed, g appended.
        QCOMPARE(describe(hunks), QString("[1,1)->[1,2) [3,4)->[4,4) [6,6)->[6,7)"));
        QVERIFY(apply(before, after, hunks) == after);
    }

    void emptySides() {
        const Lines some = {"a", "b"};
        QCOMPARE(describe(lineHunks({}, some)), QString("[0,0)->[0,2)"));
        QCOMPARE(describe(lineHunks(some, {})), QString("[0,2)->[0,0)"));
    }

    // More edits than the limit: one hunk over the differing middle, still correct.
    void manyEditsFallBackToOneHunk() {
        const Lines before = numbered(100);
        Lines after = before;
        for (int i = 10; i < 90; i += 2) after[i] = "other " + std::to_string(i);
        const auto hunks = lineHunks(before, after, 20);
        QCOMPARE(describe(hunks), QString("[10,89)->[10,89)"));
        QVERIFY(apply(before, after, hunks) == after);
        const auto exact = lineHunks(before, after);
        QCOMPARE(static_cast<int>(exact.size()), 40);
        QVERIFY(apply(before, after, exact) == after);
    }

    // Repeated lines (the listing repeats `└─ x` often) still give a correct edit.
    void repeatedLines() {
        const Lines before = {"x", "y", "x", "y", "x"};
        const Lines after = {"y", "x", "x", "y", "x", "y"};
        QVERIFY(apply(before, after, lineHunks(before, after)) == after);
    }
};

TL_TEST_SUITE(TestLineDiff)
#include "tst_linediff.moc"
