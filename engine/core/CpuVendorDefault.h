#pragma once
// Memory-system choices measured to help on one CPU vendor and to cost on another
// (streamed outputs, core/StreamStore.h; prefetching the map loops' inputs,
// ops/VectorMath.h): each is on by default on Intel CPUs and can be forced either
// way from the environment, so tests and benchmarks can take both paths on one machine.

namespace tl {

/// The default of such a choice: the environment variable `envVar` when it is set
/// ("0" is off, anything else on), else whether this is an Intel CPU.
bool onIntelUnlessEnvironmentSays(const char* envVar);

} // namespace tl
