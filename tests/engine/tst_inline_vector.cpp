// InlineVector (core/InlineVector.h): the lists of the graph IR, inline up to N
// entries and on the heap beyond; every operation on both sides of that boundary.
#include "TestSuites.h"
#include "core/InlineVector.h"

#include <QtTest>

using namespace tl;

namespace {
using Small = InlineVector<int, 2>;

std::vector<int> values(const Small& v) { return std::vector<int>(v.begin(), v.end()); }
} // namespace

class TestInlineVector : public QObject {
    Q_OBJECT
private slots:
    void growsPastItsInlineCapacity() {
        Small v;
        QVERIFY(v.empty());
        for (int i = 0; i < 40; ++i) {
            v.push_back(i);
            QCOMPARE(v.size(), size_t(i + 1));
            QCOMPARE(v.back(), i);
        }
        for (int i = 0; i < 40; ++i) QCOMPARE(v[i], i);
        QCOMPARE(v.front(), 0);
    }

    void pushingAnEntryOfItselfWhileGrowing() {
        Small v{7, 8};
        v.push_back(v[0]);  // the storage moves to the heap while the value is read
        QCOMPARE(values(v), (std::vector<int>{7, 8, 7}));
        v.push_back(v[2]);
        v.push_back(v[3]);  // and again past the heap's capacity
        QCOMPARE(values(v), (std::vector<int>{7, 8, 7, 7, 7}));
    }

    void eraseAndAppend() {
        Small v{1, 2, 3, 4, 5};
        v.erase(v.begin() + 1, v.begin() + 3);
        QCOMPARE(values(v), (std::vector<int>{1, 4, 5}));
        v.erase(v.end() - 1, v.end());
        QCOMPARE(values(v), (std::vector<int>{1, 4}));
        const int more[] = {9, 10, 11};
        v.append(std::begin(more), std::end(more));
        QCOMPARE(values(v), (std::vector<int>{1, 4, 9, 10, 11}));
        v.pop_back();
        v.clear();
        QVERIFY(v.empty());
        v.append(std::begin(more), std::begin(more) + 1);  // inline again is fine
        QCOMPARE(values(v), (std::vector<int>{9}));
    }

    void copiesAndMovesOnBothSides() {
        for (int n : {0, 1, 2, 3, 17}) {
            Small a;
            for (int i = 0; i < n; ++i) a.push_back(i * 3);
            const std::vector<int> want = values(a);
            Small copy(a);
            QCOMPARE(values(copy), want);
            Small assigned{42};
            assigned = a;
            QCOMPARE(values(assigned), want);
            Small moved(std::move(a));
            QCOMPARE(values(moved), want);
            QVERIFY(a.empty());  // NOLINT(bugprone-use-after-move): moving leaves it empty
            a.push_back(5);      // and usable
            QCOMPARE(values(a), std::vector<int>{5});
            Small target{1, 2, 3, 4};
            target = std::move(moved);
            QCOMPARE(values(target), want);
            QVERIFY(moved.empty());  // NOLINT(bugprone-use-after-move)
            const Small& same = target;
            target = same;  // self-assignment keeps the values
            QCOMPARE(values(target), want);
        }
    }

    void convertsAndComparesWithVectors() {
        Small v{4, 5, 6};
        const std::vector<int> asVector(v);  // explicit: a copy is never made silently
        QCOMPARE(asVector, (std::vector<int>{4, 5, 6}));
        QVERIFY(v == asVector);
        QVERIFY(!(v == std::vector<int>{4, 5}));
        QVERIFY(v == Small(asVector));
        QVERIFY(!(v == Small{4, 5, 7}));
    }
};

TL_TEST_SUITE(TestInlineVector)
#include "tst_inline_vector.moc"
