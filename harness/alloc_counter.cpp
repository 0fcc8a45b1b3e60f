#include "harness/alloc_counter.h"

#include "harness/alloc_state.h"

namespace sb {

// Weak default, overridden by alloc_hooks.cpp when that object is linked in.
__attribute__((weak)) bool alloc_hooks_linked() { return false; }

bool alloc_counting_available() { return alloc_hooks_linked(); }

void alloc_counting_begin() {
  AllocState& s = alloc_state();
  s.enabled = false;
  s.stats = AllocStats{};
  s.live = 0;
  s.enabled = true;
}

AllocStats alloc_counting_end() {
  AllocState& s = alloc_state();
  s.enabled = false;
  return s.stats;
}

}  // namespace sb
