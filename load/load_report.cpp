#include "load/load_report.h"

#include <fmt/core.h>

#include <chrono>
#include <ctime>
#include <optional>
#include <string>

#include "codecs/json_writer.h"
#include "harness/run_context.h"
#include "sb_version.h"

namespace sb {

namespace {

// Every percentile reported: JSON key, table header, quantile.
struct Quantile {
  const char* key;     // "p50_us"
  const char* header;  // "p50"
  double q;            // 0.5
};
constexpr Quantile kQuantiles[] = {{"p50_us", "p50", 0.5},
                                   {"p90_us", "p90", 0.9},
                                   {"p99_us", "p99", 0.99},
                                   {"p999_us", "p99.9", 0.999}};

double us(std::uint64_t ns) { return static_cast<double>(ns) / 1e3; }

// A latency figure of r in µs; nullopt when no call was answered (the figure would describe
// nothing, or only calls given up on).
std::optional<double> latency_us(const PointResult& r, std::uint64_t ns) {
  if (r.calls == 0) return std::nullopt;
  return us(ns);
}

// A latency for the table and the progress line: "12.3", or "–" without an answered call.
std::string latency_text(const PointResult& r, std::uint64_t ns) {
  const std::optional<double> v = latency_us(r, ns);
  return v ? fmt::format("{:.1f}", *v) : "–";
}

// The mean TLS handshake in µs; nullopt without handshakes.
std::optional<double> handshake_us(const PointResult& r) {
  const std::uint64_t n = r.tls_full + r.tls_resumed;
  if (n == 0) return std::nullopt;
  return static_cast<double>(r.tls_handshake_ns) / 1e3 / static_cast<double>(n);
}
double seconds(std::chrono::nanoseconds d) { return std::chrono::duration<double>(d).count(); }

std::string mode_name(LoadMode m) { return m == LoadMode::closed ? "closed" : "open"; }

// The UTC time now, ISO 8601.
std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

void optional_number(rpc::DirectJsonWriter& w, const char* key, std::optional<double> v) {
  w.key(key);
  if (v)
    w.double_value(*v);
  else
    w.null_value();
}

void context_json(rpc::DirectJsonWriter& w, const LoadContext& c) {
  w.key("context");
  w.start_object();
  const std::pair<const char*, std::string> strings[] = {{"soapbench_version", SB_VERSION},
                                                         {"git_sha", git_sha()},
                                                         {"machine_id", machine_id()},
                                                         {"date", utc_now()},
                                                         {"url", c.url},
                                                         {"family", c.family},
                                                         {"call", c.call},
                                                         {"operation", c.operation},
                                                         {"server_parser", c.server_parser}};
  for (const auto& [key, value] : strings) {
    w.key(key);
    w.string_value(value);
  }
  w.key("request_bytes");
  w.int_value(static_cast<std::int64_t>(c.request_bytes));
  w.key("server_pid");
  if (c.server_pid > 0)
    w.int_value(c.server_pid);
  else
    w.null_value();
  w.key("generator_threads");
  w.int_value(static_cast<std::int64_t>(c.threads));
  w.key("tls_resume");
  if (c.tls)
    w.bool_value(c.tls_resume);
  else
    w.null_value();
  w.key("batch");
  if (c.batch > 0)
    w.int_value(static_cast<std::int64_t>(c.batch));
  else
    w.null_value();
  w.key("histogram_relative_error");
  w.double_value(LatencyHistogram::kMaxRelativeError);
  w.end_object();
}

void errors_json(rpc::DirectJsonWriter& w, const PointResult& r) {
  w.key("errors");
  w.start_object();
  for (std::size_t k = 0; k < kLoadErrorKinds; ++k) {
    w.key(load_error_name(static_cast<LoadError>(k)));
    w.int_value(static_cast<std::int64_t>(r.errors[k]));
  }
  w.end_object();
  w.key("errors_total");
  w.int_value(static_cast<std::int64_t>(r.error_total()));
  w.key("first_error");
  if (r.first_error.empty())
    w.null_value();
  else
    w.string_value(r.first_error);
}

void server_json(rpc::DirectJsonWriter& w, const PointResult& r) {
  optional_number(w, "server_cpu_us_per_call", r.server_cpu_us_per_call());
  const std::pair<const char*, std::int64_t ProcessSample::*> memory[] = {
      {"server_rss_kb", &ProcessSample::rss_kb}, {"server_peak_rss_kb", &ProcessSample::peak_kb}};
  for (const auto& [key, field] : memory) {
    w.key(key);
    if (r.server_after && (*r.server_after).*field >= 0)
      w.int_value((*r.server_after).*field);
    else
      w.null_value();
  }
}

void point_json(rpc::DirectJsonWriter& w, const LoadPoint& p) {
  const PointConfig& c = p.config;
  const PointResult& r = p.result;
  w.start_object();
  w.key("mode");
  w.string_value(mode_name(c.mode));
  w.key("connections");
  w.int_value(static_cast<std::int64_t>(c.connections));
  optional_number(w, "rate", c.mode == LoadMode::open ? std::optional(c.rate) : std::nullopt);
  const std::pair<const char*, double> numbers[] = {
      {"duration_s", seconds(c.duration)},
      {"warmup_s", seconds(c.warmup)},
      {"timeout_s", seconds(c.timeout)},
      {"elapsed_s", r.elapsed_s},
      {"tps", r.tps()},
      {"generator_cpu_share", r.generator_cpu_s / r.elapsed_s / static_cast<double>(r.threads())}};
  for (const auto& [key, value] : numbers) {
    w.key(key);
    w.double_value(value);
  }
  optional_number(w, "min_us", latency_us(r, r.latency.min()));
  optional_number(w, "max_us", latency_us(r, r.latency.max()));
  for (const Quantile& q : kQuantiles)
    optional_number(w, q.key, latency_us(r, r.latency.percentile(q.q)));
  optional_number(w, "tls_handshake_us", handshake_us(r));
  const std::pair<const char*, std::uint64_t> counts[] = {
      {"calls", r.calls},
      {"decoded", r.decoded},
      {"decode_every", c.decode_every},
      {"reconnects", r.reconnects},
      {"unsent", r.unsent},
      {"connections_served", r.connections_served},
      {"generator_threads", r.threads()},
      {"tls_full_handshakes", r.tls_full},
      {"tls_resumed_handshakes", r.tls_resumed}};
  for (const auto& [key, value] : counts) {
    w.key(key);
    w.int_value(static_cast<std::int64_t>(value));
  }
  w.key("thread_calls");
  w.start_array();
  for (std::uint64_t n : r.thread_calls) w.int_value(static_cast<std::int64_t>(n));
  w.end_array();
  errors_json(w, r);
  server_json(w, r);
  w.end_object();
}

std::string load_label(const PointConfig& c) {
  return c.mode == LoadMode::closed ? fmt::format("closed c={}", c.connections)
                                    : fmt::format("open r={:g}/s c={}", c.rate, c.connections);
}

}  // namespace

std::string load_progress_line(const LoadPoint& p) {
  const PointResult& r = p.result;
  std::string line = fmt::format(
      "soapbench load: {}: {} calls, {:.0f}/s, p50 {} µs, p99 {} µs, max {} µs, {} errors",
      load_label(p.config), r.calls, r.tps(), latency_text(r, r.latency.percentile(0.5)),
      latency_text(r, r.latency.percentile(0.99)), latency_text(r, r.latency.max()),
      r.error_total());
  if (const std::optional<double> hs = handshake_us(r)) {
    line += fmt::format(", TLS handshakes {} full {} resumed ({:.0f} µs each)", r.tls_full,
                        r.tls_resumed, *hs);
  }
  if (!r.first_error.empty()) line += " (first: " + r.first_error.substr(0, 200) + ")";
  return line;
}

std::string load_table(std::span<const LoadPoint> points) {
  std::string t = fmt::format("{:<24} {:>10} {:>9}", "point", "calls", "tps");
  for (const Quantile& q : kQuantiles) t += fmt::format(" {:>9}", q.header + std::string(" µs"));
  t += fmt::format(" {:>10} {:>7} {:>13}\n", "max µs", "errors", "srv CPU µs/call");
  for (const LoadPoint& p : points) {
    const PointResult& r = p.result;
    t += fmt::format("{:<24} {:>10} {:>9.0f}", load_label(p.config), r.calls, r.tps());
    for (const Quantile& q : kQuantiles)
      t += fmt::format(" {:>9}", latency_text(r, r.latency.percentile(q.q)));
    const std::optional<double> cpu = r.server_cpu_us_per_call();
    t += fmt::format(" {:>10} {:>7} {:>13}\n", latency_text(r, r.latency.max()), r.error_total(),
                     cpu ? fmt::format("{:.1f}", *cpu) : "-");
  }
  return t;
}

std::string load_json(const LoadContext& context, std::span<const LoadPoint> points) {
  rpc::DirectJsonWriter w;
  w.start_object();
  w.key("tool");
  w.string_value("soapbench load");
  context_json(w, context);
  w.key("points");
  w.start_array();
  for (const LoadPoint& p : points) point_json(w, p);
  w.end_array();
  w.end_object();
  std::string out;
  if (!w.finish(out)) throw std::runtime_error("load JSON: " + std::string(w.error()));
  return out + "\n";
}

}  // namespace sb
