#include "harness/bench_input.h"

#include <algorithm>

namespace sb {

BenchInput::BenchInput(std::string bytes, std::size_t ring_bytes) : pristine_(std::move(bytes)) {
  const std::size_t per = std::max<std::size_t>(pristine_.size(), 1);
  const std::size_t n = std::clamp<std::size_t>(ring_bytes / per, 1, 64);
  ring_.resize(n);
  restore_all();
}

void BenchInput::restore_all() {
  for (MessageBuffer& b : ring_) b.assign(pristine_);
}

}  // namespace sb
