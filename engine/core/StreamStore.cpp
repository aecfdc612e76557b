#include "core/StreamStore.h"

#include "core/CpuVendorDefault.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <emmintrin.h>

namespace tl {

namespace {

std::atomic<bool>& streamsOutputs() {
    static std::atomic<bool> on{onIntelUnlessEnvironmentSays("TL_STREAM_OUTPUTS")};
    return on;
}

} // namespace

bool streamsLargeOutputs() { return streamsOutputs().load(std::memory_order_relaxed); }

bool setStreamsLargeOutputs(bool on) { return streamsOutputs().exchange(on); }

void streamBytes(void* dst, const void* src, size_t bytes) {
    auto* d = static_cast<std::byte*>(dst);
    const auto* s = static_cast<const std::byte*>(src);
    const size_t head = std::min(bytes, (16 - reinterpret_cast<uintptr_t>(d) % 16) % 16);
    std::memcpy(d, s, head);
    size_t i = head;
    for (; i + 16 <= bytes; i += 16)
        _mm_stream_si128(reinterpret_cast<__m128i*>(d + i), _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i)));
    std::memcpy(d + i, s + i, bytes - i);
}

void streamFence() { _mm_sfence(); }

} // namespace tl
