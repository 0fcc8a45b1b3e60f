// The load generator (soapbench load): drives one point of a run, a closed loop of N
// connections or an open loop at a fixed rate, against any HTTP server of the contract, on
// PointConfig::threads threads (Asio, an io_context each: harness/load/load_shard.h), and measures
// it (harness/load/load_point.h), the threads' figures merged.
#pragma once

#include <span>

#include "harness/client/http_request.h"
#include "harness/load/load_call.h"
#include "harness/load/load_point.h"

namespace sb {

// Runs one point: warm-up, then the measured window, then waits for the calls still in flight
// (each bounded by the per-call timeout). Calls due (closed loop: sent) in the window count;
// open-loop latency runs from the due time, so a late send counts against the server
// (coordinated omission). https: TLS 1.2/1.3 without certificate verification, a handshake per
// connection made (resumed on reconnect when config.tls_resume). Throws std::runtime_error when
// the host does not resolve.
PointResult run_load_point(const LoadCall& call, const Url& url, const PointConfig& config);
// The same with several calls (a replay), chosen as config.round_robin and config.offsets say.
PointResult run_load_point(std::span<const LoadCall> calls, const Url& url,
                           const PointConfig& config);

}  // namespace sb
