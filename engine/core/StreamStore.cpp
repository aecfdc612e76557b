#include "core/StreamStore.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <emmintrin.h>

namespace tl {

namespace {

std::atomic<bool>& streamsOutputs() {
    static std::atomic<bool> on = [] {
        if (const char* env = std::getenv("TL_STREAM_OUTPUTS")) return std::strcmp(env, "0") != 0;
        __builtin_cpu_init();  // may run while static objects are constructed
        return __builtin_cpu_is("intel") != 0;
    }();
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
