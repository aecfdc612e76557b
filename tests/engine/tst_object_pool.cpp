// The pool a graph keeps its nodes and variables in (core/ObjectPool.h).
#include "TestSuites.h"
#include "core/ObjectPool.h"

#include <QtTest>

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

using namespace tl;

namespace {
int g_alive = 0;

struct Counted {
    explicit Counted(int v, bool fail = false) : value(v), text(std::to_string(v)) {
        if (fail) throw std::runtime_error("constructor failed");
        ++g_alive;
    }
    ~Counted() { --g_alive; }
    int value;
    std::string text;  // owns heap memory: a destructor that did not run would leak it
    char padding[40] = {};
};
} // namespace

class TestObjectPool : public QObject {
    Q_OBJECT
private slots:
    void init() { g_alive = 0; }

    void objectsKeepTheirValuesAcrossChunks() {
        ObjectPool<Counted> pool;
        std::vector<Counted*> made;
        for (int i = 0; i < 5000; ++i) made.push_back(pool.create(i));
        QCOMPARE(g_alive, 5000);
        QCOMPARE(std::set<Counted*>(made.begin(), made.end()).size(), made.size());
        for (int i = 0; i < 5000; ++i) {
            QCOMPARE(made[i]->value, i);
            QCOMPARE(made[i]->text, std::to_string(i));
        }
        for (Counted* c : made) pool.destroy(c);
        QCOMPARE(g_alive, 0);
    }

    // The place last given back is the next handed out: a graph that erases a node
    // and makes another writes to memory it has just touched.
    void theLastFreedPlaceIsReusedFirst() {
        ObjectPool<Counted> pool;
        Counted* a = pool.create(1);
        Counted* b = pool.create(2);
        Counted* c = pool.create(3);
        pool.destroy(b);
        pool.destroy(a);
        QCOMPARE(pool.create(4), a);
        QCOMPARE(pool.create(5), b);
        Counted* d = pool.create(6);
        QVERIFY(d != a && d != b && d != c);
        QCOMPARE(c->value, 3);
        QCOMPARE(g_alive, 4);
        // The owner destroys what is alive before the pool goes (as Graph does).
        for (Counted* p : {a, b, c, d}) pool.destroy(p);
        QCOMPARE(g_alive, 0);
    }

    // A constructor that throws leaves no object and gives its place back.
    void aFailedConstructionGivesThePlaceBack() {
        ObjectPool<Counted> pool;
        Counted* a = pool.create(1);
        pool.destroy(a);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, pool.create(2, true));
        QCOMPARE(g_alive, 0);
        Counted* b = pool.create(3);
        QCOMPARE(b, a);
        QCOMPARE(b->value, 3);
        pool.destroy(b);
    }

    // Under AddressSanitizer a destroyed object's memory is poisoned until it is handed
    // out again, so a use after erase is still reported.
    void destroyedObjectsArePoisoned() {
#if defined(__SANITIZE_ADDRESS__)
        ObjectPool<Counted> pool;
        Counted* a = pool.create(1);
        Counted* spare = pool.create(2);
        QVERIFY(!__asan_address_is_poisoned(&a->value));
        pool.destroy(a);
        QVERIFY(__asan_address_is_poisoned(&a->padding[39]));
        QVERIFY(__asan_address_is_poisoned(&a->text));
        Counted* again = pool.create(3);
        QCOMPARE(again, a);
        QVERIFY(!__asan_address_is_poisoned(&again->padding[39]));
        // Places never handed out are poisoned too.
        QVERIFY(__asan_address_is_poisoned(reinterpret_cast<char*>(spare) + 2 * sizeof(Counted)));
        pool.destroy(again);
        pool.destroy(spare);
#else
        QSKIP("built without AddressSanitizer");
#endif
    }
};

TL_TEST_SUITE(TestObjectPool)
#include "tst_object_pool.moc"
