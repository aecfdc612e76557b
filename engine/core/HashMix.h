#pragma once
// Combining hashes of several values into one (boost's hash_combine step), and a
// hash of a list of integers (ids, codes) for keys of hash maps.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tl {

inline size_t hashMix(size_t h, uint64_t v) { return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)); }

struct IntListHash {
    size_t operator()(const std::vector<int64_t>& values) const {
        size_t h = values.size();
        for (int64_t v : values) h = hashMix(h, static_cast<uint64_t>(v));
        return h;
    }
};

} // namespace tl
