#include "listener/connection_gate.h"

#include <sys/resource.h>

#include <algorithm>

namespace sb::listener {

void ConnectionGate::open(std::size_t max_connections, std::size_t descriptors) {
  rlimit limit{};
  std::size_t budget = max_connections * descriptors * 2;  // unlimited: room for both
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    const std::size_t soft = static_cast<std::size_t>(limit.rlim_cur);
    budget = soft > kReservedDescriptors + 16 ? soft - kReservedDescriptors : 16;
  }
  cap_ = std::max<std::size_t>(1, std::min(max_connections, budget * 7 / 8 / descriptors));
  reject_room_ = std::max<std::size_t>(1, budget - std::min(budget, cap_ * descriptors));
}

ConnectionGate::Admission ConnectionGate::enter() {
  // Only the accepting thread adds (connections only leave elsewhere): check-then-add cannot
  // overshoot.
  if (served_.load() < cap_) {
    served_.fetch_add(1);
    return Admission::serve;
  }
  if (rejecting_.load() < reject_room_) {
    rejecting_.fetch_add(1);
    return Admission::reject;
  }
  return Admission::drop;
}

void ConnectionGate::leave(Admission admission) {
  if (admission == Admission::serve) served_.fetch_sub(1);
  if (admission == Admission::reject) rejecting_.fetch_sub(1);
}

bool ConnectionGate::crowded() const {
  return served_.load(std::memory_order_relaxed) * 4 > cap_ * 3;
}

}  // namespace sb::listener
