#pragma once
// The order in which NumPy 1.24's unstable argsorts list equal keys, so that
// ArgSortOp{kind='quicksort'} and {kind='heapsort'} give NumPy's indices for ties too:
//  - quicksort is NumPy's introsort (npysort/quicksort.cpp, aquicksort_): median-of-3
//    partitioning of the index array, the larger part deferred, insertion sort of
//    parts of up to 16 elements, and heapsort once the depth passes twice the key
//    count's log2;
//  - heapsort is its aheapsort_: build a max-heap, then pop.
// Both take `less` (NumPy's: NaNs last) over `key(i)`, and permute `order`, which holds
// the indices 0..n-1 on entry. Written from the algorithms' description to reproduce
// their visit order; nothing else about them is relied on.
#include <cstdint>
#include <utility>
#include <vector>

namespace tl::npsort {

template <typename Less> void heapsortIndices(int64_t* order, int64_t n, const Less& less) {
    int64_t* a = order - 1;  // 1-based heap indexing
    auto siftDown = [&](int64_t i, int64_t size, int64_t item) {
        for (int64_t j = i * 2; j <= size; i = j, j *= 2) {
            if (j < size && less(a[j], a[j + 1])) ++j;
            if (!less(item, a[j])) break;
            a[i] = a[j];
        }
        a[i] = item;
    };
    for (int64_t l = n >> 1; l > 0; --l) siftDown(l, n, a[l]);
    for (; n > 1;) {
        const int64_t item = a[n];
        a[n] = a[1];
        --n;
        siftDown(1, n, item);
    }
}

template <typename Less> void introsortIndices(int64_t* order, int64_t n, const Less& less) {
    constexpr int64_t kSmall = 15;  // parts of at most 16 elements (pr - pl <= 15) are insertion sorted
    if (n < 2) return;
    int depth = 0;
    for (int64_t m = n; m > 1; m >>= 1) ++depth;  // floor(log2(n))
    depth *= 2;
    struct Range {
        int64_t* lo;
        int64_t* hi;
        int depth;
    };
    std::vector<Range> stack;
    int64_t* pl = order;
    int64_t* pr = order + n - 1;
    for (;;) {
        if (depth < 0) {
            heapsortIndices(pl, pr - pl + 1, less);
        } else {
            while (pr - pl > kSmall) {
                int64_t* pm = pl + ((pr - pl) >> 1);
                if (less(*pm, *pl)) std::swap(*pm, *pl);
                if (less(*pr, *pm)) std::swap(*pr, *pm);
                if (less(*pm, *pl)) std::swap(*pm, *pl);
                const int64_t pivot = *pm;
                int64_t* pi = pl;
                int64_t* pj = pr - 1;
                std::swap(*pm, *pj);
                for (;;) {
                    do ++pi;
                    while (less(*pi, pivot));
                    do --pj;
                    while (less(pivot, *pj));
                    if (pi >= pj) break;
                    std::swap(*pi, *pj);
                }
                std::swap(*pi, *(pr - 1));
                // The larger part waits on the stack; the smaller is sorted next.
                if (pi - pl < pr - pi) {
                    stack.push_back({pi + 1, pr, --depth});
                    pr = pi - 1;
                } else {
                    stack.push_back({pl, pi - 1, --depth});
                    pl = pi + 1;
                }
            }
            for (int64_t* p = pl + 1; p <= pr; ++p) {  // insertion sort
                const int64_t item = *p;
                int64_t* q = p;
                for (; q > pl && less(item, *(q - 1)); --q) *q = *(q - 1);
                *q = item;
            }
        }
        if (stack.empty()) break;
        pl = stack.back().lo;
        pr = stack.back().hi;
        depth = stack.back().depth;
        stack.pop_back();
    }
}

} // namespace tl::npsort
