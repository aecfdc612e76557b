#include "ops/ConstantBlocks.h"

#include <cstring>
#include <mutex>
#include <stdexcept>
#include <unordered_map>

namespace tl {

namespace {

struct BlockKey {
    DType dtype;
    uint64_t bits;
    bool operator==(const BlockKey&) const = default;
};
struct BlockKeyHash {
    size_t operator()(const BlockKey& k) const {
        return std::hash<uint64_t>{}(k.bits * 0x9E3779B97F4A7C15ull ^ static_cast<uint64_t>(k.dtype));
    }
};

// Weak entries: a block lives as long as some program holds it. Expired entries
// are dropped whenever the table has doubled since the last sweep, so the table
// stays within a constant factor of the live blocks.
class BlockTable {
public:
    std::shared_ptr<const ConstantBlock> get(const BlockKey& key, size_t bytes, const void* value) {
        std::lock_guard<std::mutex> lock(m_mutex);
        std::weak_ptr<const ConstantBlock>& entry = m_blocks[key];
        if (auto live = entry.lock()) return live;
        // Not make_shared: the table's weak reference would keep a block made that way
        // allocated until the next sweep; apart, only the small control block waits.
        std::shared_ptr<ConstantBlock> block(new ConstantBlock);
        for (int64_t i = 0; i < kBlockSize; ++i) std::memcpy(block->data + static_cast<size_t>(i) * bytes, value, bytes);
        entry = block;
        if (m_blocks.size() >= 2 * m_sizeAfterSweep + 64) sweep();
        return block;
    }
    size_t live() {
        std::lock_guard<std::mutex> lock(m_mutex);
        sweep();
        return m_blocks.size();
    }

private:
    void sweep() {
        std::erase_if(m_blocks, [](const auto& kv) { return kv.second.expired(); });
        m_sizeAfterSweep = m_blocks.size();
    }
    std::mutex m_mutex;
    std::unordered_map<BlockKey, std::weak_ptr<const ConstantBlock>, BlockKeyHash> m_blocks;
    size_t m_sizeAfterSweep = 0;
};

// Never destroyed: programs in static objects may release blocks during exit.
BlockTable& table() {
    static auto* t = new BlockTable;
    return *t;
}

} // namespace

std::shared_ptr<const ConstantBlock> sharedConstantBlock(DType dtype, const void* value, size_t bytes) {
    if (bytes == 0 || bytes > 8)
        throw std::invalid_argument("a constant block holds values of 1 to 8 bytes");
    BlockKey key{dtype, 0};
    std::memcpy(&key.bits, value, bytes);
    return table().get(key, bytes, value);
}

size_t liveConstantBlocks() { return table().live(); }

} // namespace tl
