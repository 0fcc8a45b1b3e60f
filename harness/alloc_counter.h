// Allocation counting: every malloc/calloc/realloc/aligned allocation of every library (and
// operator new, which calls malloc) on threads that opted in. Linked into an executable via
// the sb_alloc_hooks object library, which replaces the allocator entry points (or installs
// the sanitizer allocator hooks under ASan). Counting is per thread so that server threads
// and Google Benchmark's own bookkeeping do not leak into a measurement.
#pragma once

#include <cstdint>

namespace sb {

struct AllocStats {
  std::uint64_t allocations = 0;  // allocation calls (realloc counts as one)
  std::uint64_t bytes = 0;        // bytes requested in total
  std::int64_t peak_bytes = 0;    // highest live bytes above the level at begin (usable sizes)
};

// True when the hooks are linked into this executable.
bool alloc_counting_available();

// Starts counting on the calling thread (resets its counters).
void alloc_counting_begin();

// Stops counting on the calling thread and returns what was seen since begin.
AllocStats alloc_counting_end();

}  // namespace sb
