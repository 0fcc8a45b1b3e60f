// One message prepared for timing: a ring of identical working copies that every adapter
// cycles through, so in-situ parsers can have theirs restored outside the timer in batches
// and all adapters see the same memory access pattern.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/message_buffer.h"

namespace sb {

class BenchInput {
 public:
  // ring_bytes bounds the ring's total size (copies = ring_bytes / size, clamped to 1..64).
  explicit BenchInput(std::string bytes, std::size_t ring_bytes = 256 * 1024);

  const std::string& pristine() const { return pristine_; }
  std::size_t size() const { return pristine_.size(); }
  std::size_t copies() const { return ring_.size(); }
  MessageBuffer& copy(std::size_t i) { return ring_[i]; }
  // Rewrites every copy from the pristine bytes.
  void restore_all();

 private:
  std::string pristine_;             // the message as in the corpus
  std::vector<MessageBuffer> ring_;  // working copies handed to the adapter
};

}  // namespace sb
