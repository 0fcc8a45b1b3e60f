// Per-thread allocation counters shared by alloc_counter.cpp and alloc_hooks.cpp.
#pragma once

#include <cstdint>

#include "harness/alloc_counter.h"

namespace sb {

struct AllocState {
  bool enabled = false;   // counting on this thread
  AllocStats stats;       // counts since alloc_counting_begin
  std::int64_t live = 0;  // live bytes relative to begin (may go negative: frees of older blocks)
};

// initial-exec TLS: safe to touch from inside malloc (no lazy TLS allocation).
inline AllocState& alloc_state() {
  static thread_local AllocState state __attribute__((tls_model("initial-exec")));
  return state;
}

// Records one allocation of `usable` bytes (request `requested`).
inline void note_alloc(std::size_t requested, std::size_t usable) {
  AllocState& s = alloc_state();
  if (!s.enabled) return;
  ++s.stats.allocations;
  s.stats.bytes += requested;
  s.live += static_cast<std::int64_t>(usable);
  if (s.live > s.stats.peak_bytes) s.stats.peak_bytes = s.live;
}

// Records one free of a block of `usable` bytes.
inline void note_free(std::size_t usable) {
  AllocState& s = alloc_state();
  if (s.enabled) s.live -= static_cast<std::int64_t>(usable);
}

}  // namespace sb
