// The options of every listener's limits (ListenerLimits: `serve` and `record` take the same
// ones, with the same words in --help), and the limits they set.
#pragma once

#include <cstddef>
#include <cstdint>

#include <CLI/CLI.hpp>

#include "listener/listener_limits.h"

namespace sb::cli {

// What the options set, in the options' units (ms).
struct ListenerOptions {
  std::int64_t header_timeout_ms;      // --header-timeout
  std::int64_t idle_timeout_ms;        // --idle-timeout
  std::size_t max_connections;         // --max-connections
  std::int64_t crowded_first_byte_ms;  // --crowded-first-byte

  // The options' defaults: `limits`.
  explicit ListenerOptions(const ListenerLimits& limits = {});
  // The limits the options say.
  ListenerLimits limits() const;
};

// Adds --header-timeout, --idle-timeout, --max-connections and --crowded-first-byte.
void add_listener_options(CLI::App* cmd, ListenerOptions& o);

}  // namespace sb::cli
