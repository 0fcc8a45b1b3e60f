// What `soapbench load` prints: a progress line per point, the table of points and the --json
// document (one record per point; the field names are documented in docs/load.md "Load").
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "load/load_point.h"

namespace sb {

// What every point of a run shares.
struct LoadContext {
  std::string url;                // the server
  std::string family;             // corpus family name ("soap11-doc-literal")
  std::string call;               // corpus call name ("getRate", "respond.2500B")
  std::string operation;          // its service operation
  std::string server_parser;      // sent as X-Parser; empty: none
  std::size_t request_bytes = 0;  // head and body of each request
  int server_pid = 0;             // 0: no server figures
  std::size_t threads = 1;        // generator threads asked for (--threads)
  bool tls = false;               // https
  bool tls_resume = true;         // https: reconnects resume the connection's TLS session
  std::size_t batch = 0;          // JSON-RPC calls in each request (--batch); 0: not a batch
};

// One measured point with how it was driven.
struct LoadPoint {
  PointConfig config;  // mode, connections, rate, window, timeout
  PointResult result;  // what it measured
};

// One line for stderr: the point and its main figures.
std::string load_progress_line(const LoadPoint& p);
// The table of every point, a header line first.
std::string load_table(std::span<const LoadPoint> points);
// The --json document: {"tool", "context": {...}, "points": [{...}, ...]}.
std::string load_json(const LoadContext& context, std::span<const LoadPoint> points);

}  // namespace sb
