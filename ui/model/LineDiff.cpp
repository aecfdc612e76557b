#include "model/LineDiff.h"

#include <algorithm>

namespace tl {

std::vector<LineHunk> lineHunks(const std::vector<std::string>& before, const std::vector<std::string>& after, int maxEdits) {
    const int na = static_cast<int>(before.size()), nb = static_cast<int>(after.size());
    int head = 0;
    while (head < na && head < nb && before[head] == after[head]) ++head;
    int tail = 0;
    while (tail < na - head && tail < nb - head && before[na - 1 - tail] == after[nb - 1 - tail]) ++tail;
    const int n = na - head - tail, m = nb - head - tail;
    if (n == 0 && m == 0) return {};
    auto a = [&](int i) -> const std::string& { return before[head + i]; };
    auto b = [&](int j) -> const std::string& { return after[head + j]; };
    const LineHunk whole{head, head + n, head, head + m};
    if (n == 0 || m == 0) return {whole};

    // Myers: the furthest x reached on each diagonal k = x - y after d edits,
    // kept per d (only diagonals -d..d) to walk the path back.
    const int limit = std::min(n + m, maxEdits);
    std::vector<int> v(2 * static_cast<size_t>(limit) + 3, 0);
    const int off = limit + 1;
    std::vector<std::vector<int>> trace;
    int found = -1;
    for (int d = 0; d <= limit && found < 0; ++d) {
        for (int k = -d; k <= d; k += 2) {
            int x = (k == -d || (k != d && v[off + k - 1] < v[off + k + 1])) ? v[off + k + 1] : v[off + k - 1] + 1;
            int y = x - k;
            while (x < n && y < m && a(x) == b(y)) ++x, ++y;
            v[off + k] = x;
            if (x >= n && y >= m) found = d;
        }
        trace.emplace_back(v.begin() + (off - d), v.begin() + (off + d + 1));
    }
    if (found < 0) return {whole};

    // Back from (n, m): each edit is a deletion (x - 1 -> x) or an insertion.
    enum Op : char { Match, Delete, Insert };
    std::vector<Op> ops;
    int x = n, y = m;
    for (int d = found; d > 0; --d) {
        const std::vector<int>& prev = trace[d - 1];  // diagonals -(d-1)..(d-1) at index k + d - 1
        const int k = x - y;
        auto at = [&](int kk) { return prev[kk + d - 1]; };
        const bool down = k == -d || (k != d && at(k - 1) < at(k + 1));
        const int pk = down ? k + 1 : k - 1;
        const int px = at(pk), py = px - pk;
        const int sx = down ? px : px + 1;  // where the edit ends and the snake starts
        for (; x > sx; --x, --y) ops.push_back(Match);
        ops.push_back(down ? Insert : Delete);
        x = px;
        y = py;
    }
    for (; x > 0; --x, --y) ops.push_back(Match);
    std::reverse(ops.begin(), ops.end());

    std::vector<LineHunk> out;
    int ia = 0, ib = 0;
    for (size_t i = 0; i < ops.size();) {
        if (ops[i] == Match) {
            ++ia, ++ib, ++i;
            continue;
        }
        LineHunk h{head + ia, 0, head + ib, 0};
        for (; i < ops.size() && ops[i] != Match; ++i) (ops[i] == Delete ? ia : ib)++;
        h.oldEnd = head + ia;
        h.newEnd = head + ib;
        out.push_back(h);
    }
    return out;
}

} // namespace tl
