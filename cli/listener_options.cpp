#include "cli/listener_options.h"

#include <chrono>

namespace sb::cli {

ListenerOptions::ListenerOptions(const ListenerLimits& limits)
    : header_timeout_ms(limits.header_timeout.count()),
      idle_timeout_ms(limits.idle_timeout.count()),
      max_connections(limits.max_connections),
      crowded_first_byte_ms(limits.crowded_first_byte.count()) {}

ListenerLimits ListenerOptions::limits() const {
  ListenerLimits l;
  l.header_timeout = std::chrono::milliseconds(header_timeout_ms);
  l.idle_timeout = std::chrono::milliseconds(idle_timeout_ms);
  l.max_connections = max_connections;
  l.crowded_first_byte = std::chrono::milliseconds(crowded_first_byte_ms);
  return l;
}

void add_listener_options(CLI::App* cmd, ListenerOptions& o) {
  cmd->add_option("--header-timeout", o.header_timeout_ms,
                  "ms from a request's first byte to the end of its header (a client sending "
                  "slower is closed)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--idle-timeout", o.idle_timeout_ms, "ms a keep-alive connection may idle")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--max-connections", o.max_connections,
                  "Concurrent connections; beyond: 503 (fewer when RLIMIT_NOFILE cannot hold "
                  "them)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--crowded-first-byte", o.crowded_first_byte_ms,
                  "ms a connection that has sent nothing (TLS: not finished its handshake) may "
                  "stay once over 3/4 of --max-connections are in use")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
}

}  // namespace sb::cli
