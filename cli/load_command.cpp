// soapbench load: the load generator (load/load_generator.h). Sends one corpus call over and
// over, closed loop (N connections, a list sweeps) or open loop (a rate, a list sweeps), and
// prints a line per point, a table and, with --json, one record per point.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/repeatable_option.h"
#include "cli/target_options.h"
#include "core/limits.h"
#include "harness/corpus.h"
#include "load/load_generator.h"
#include "load/load_report.h"
#include "load/replay_plan.h"

namespace sb::cli {

namespace {

// Everything the options set.
struct LoadOptions {
  std::string url;                              // the server
  std::string protocol;                         // --protocol
  std::string style;                            // --style
  std::string call;                             // corpus call name
  std::string server_parser;                    // X-Parser
  std::vector<std::size_t> connections;         // closed: each a point; open: the pool (one value)
  std::vector<double> rates;                    // open loop: each a point
  double duration_s = 5;                        // measured window per point
  double warmup_s = 1;                          // before each window
  int timeout_ms = 2000;                        // per call
  std::uint32_t decode_every = 64;              // 1 answer in this many decoded in full
  std::uint64_t max_drift_ulps = 0;             // doubles of the answer may differ this much
  int server_pid = 0;                           // the server process to sample
  std::size_t threads = PointConfig{}.threads;  // generator threads
  bool no_tls_resume = false;                   // https: a full handshake on every reconnect
  std::string corpus_dir;                       // empty: default_corpus_dir()
  std::string json_out;                         // --json FILE
  std::string replay;                           // --replay DIR: a recorded folder
  std::string order = "recorded";               // --order: recorded | round-robin
  std::vector<double> replay_rates;             // --replay-rate: open loop, recorded rate × each
  std::size_t batch = 0;                        // --batch: JSON-RPC calls per request
};

// The open-loop pool when --connections is not given with --rate.
constexpr std::size_t kOpenLoopConnections = 32;

std::chrono::nanoseconds ns_of_seconds(double s) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(s));
}

[[noreturn]] void fail(const std::string& why) {
  fmt::print(stderr, "soapbench: load: {}\n", why);
  throw ExitCode{1};
}

// The points the options ask for, in order.
std::vector<PointConfig> plan(const LoadOptions& o) {
  PointConfig base;
  base.warmup = ns_of_seconds(o.warmup_s);
  base.duration = ns_of_seconds(o.duration_s);
  base.timeout = std::chrono::milliseconds(o.timeout_ms);
  base.decode_every = o.decode_every;
  base.server_pid = o.server_pid;
  base.threads = o.threads;
  base.tls_resume = !o.no_tls_resume;
  std::vector<PointConfig> points;
  if (o.rates.empty()) {
    for (std::size_t n : o.connections.empty() ? std::vector<std::size_t>{1} : o.connections) {
      PointConfig p = base;
      p.connections = n;
      points.push_back(p);
    }
    return points;
  }
  if (o.connections.size() > 1) fail("with --rate, --connections is one pool size, not a list");
  for (double r : o.rates) {
    PointConfig p = base;
    p.mode = LoadMode::open;
    p.rate = r;
    p.connections = o.connections.empty() ? kOpenLoopConnections : o.connections.front();
    points.push_back(p);
  }
  return points;
}

// The call to send, from the corpus; exits 1 when it cannot be made.
LoadCall load_call(const LoadOptions& o, Url& url, LoadContext& context) {
  std::string error;
  const std::optional<rpc::Family> family = family_of(o.protocol, o.style, error);
  if (!family) fail(error);
  std::optional<Url> parsed = parse_url(o.url, error);
  if (!parsed) fail(o.url + ": " + error);
  url = std::move(*parsed);
  try {
    const Corpus corpus = Corpus::load(o.corpus_dir.empty() ? default_corpus_dir()
                                                            : std::filesystem::path(o.corpus_dir));
    LoadCall call = make_load_call(corpus, *family, o.call, url, o.server_parser, o.batch);
    call.max_drift_ulps = o.max_drift_ulps;
    context = {o.url,           std::string(rpc::family_name(*family)),
               call.name,       call.operation,
               o.server_parser, call.request.size(),
               o.server_pid,    o.threads,
               url.tls,         !o.no_tls_resume,
               o.batch};
    return call;
  } catch (const std::exception& e) {
    fail(e.what());
  }
}

void write_json(const std::string& path, const LoadContext& context,
                const std::vector<LoadPoint>& points) {
  std::ofstream out(path, std::ios::binary);
  out << load_json(context, points);
  if (!out) fail("cannot write " + path);
}

// The calls judged by status alone, one line each: all of them up to kListed, else the first
// kListed and how many more, so the list always accounts for the count printed above it.
void print_status_only(const std::vector<std::string>& lines) {
  constexpr std::size_t kListed = 20;
  for (std::size_t i = 0; i < lines.size() && i < kListed; ++i) {
    fmt::print(stderr, "replay: judged by status alone: {}\n", lines[i]);
  }
  if (lines.size() > kListed) {
    fmt::print(stderr, "replay: judged by status alone: … and {} more\n", lines.size() - kListed);
  }
}

// The recorded folder's calls (--replay); exits 1 when it cannot be read.
ReplayPlan replay_calls(const LoadOptions& o, Url& url, LoadContext& context) {
  if (!o.call.empty() || !o.protocol.empty() || o.batch > 0)
    fail("--replay sends the recorded requests: no --call, --protocol or --batch");
  std::string error;
  std::optional<Url> parsed = parse_url(o.url, error);
  if (!parsed) fail(o.url + ": " + error);
  url = std::move(*parsed);
  try {
    ReplayPlan replay = read_replay(o.replay, url);
    std::size_t bytes = 0;
    for (const LoadCall& c : replay.calls) bytes += c.request.size();
    context = {o.url,           "replay",        o.replay,
               o.order,         o.server_parser, bytes / replay.calls.size(),
               o.server_pid,    o.threads,       url.tls,
               !o.no_tls_resume};
    fmt::print(stderr, "replay: {} recorded requests from {} ({} judged by status alone)\n",
               replay.calls.size(), o.replay, replay.status_only.size());
    for (const std::string& line : replay.left_out)
      fmt::print(stderr, "replay: left out: {}\n", line);
    print_status_only(replay.status_only);
    return replay;
  } catch (const std::exception& e) {
    fail(e.what());
  }
}

// The points of a replay: --connections, --rate, or --replay-rate (the recorded schedule).
std::vector<PointConfig> replay_points(const LoadOptions& o, const ReplayPlan& replay) {
  if (!o.replay_rates.empty() && !o.rates.empty()) fail("--replay-rate or --rate, not both");
  LoadOptions uniform = o;
  if (!o.replay_rates.empty()) {
    if (replay.period.count() <= 0)
      fail("--replay-rate needs two requests recorded at different times");
    uniform.rates.clear();
    for (double f : o.replay_rates)  // the recorded rate × f; the schedule says when each is due
      uniform.rates.push_back(f * static_cast<double>(replay.calls.size()) * 1e9 /
                              static_cast<double>(replay.period.count()));
  }
  std::vector<PointConfig> points = plan(uniform);
  for (std::size_t i = 0; i < points.size(); ++i) {
    points[i].round_robin = o.order == "round-robin";
    if (!o.replay_rates.empty())
      scale_replay(replay, o.replay_rates[i], points[i].offsets, points[i].period);
  }
  return points;
}

// Runs every point; exit status 2 when any had errors.
void run(const LoadOptions& o) {
  Url url;
  LoadContext context;
  if (o.replay.empty() && (o.call.empty() || o.protocol.empty()))
    fail("--call and --protocol are required (or --replay DIR)");
  if (o.replay.empty() && !o.replay_rates.empty()) fail("--replay-rate needs --replay");
  ReplayPlan replay;
  if (!o.replay.empty())
    replay = replay_calls(o, url, context);
  else
    replay.calls.push_back(load_call(o, url, context));
  std::vector<LoadPoint> points;
  for (const PointConfig& config : o.replay.empty() ? plan(o) : replay_points(o, replay)) {
    try {
      points.push_back({config, run_load_point(replay.calls, url, config)});
    } catch (const std::exception& e) {
      fail(e.what());
    }
    fmt::print(stderr, "{}\n", load_progress_line(points.back()));
    // Each point on disk as soon as measured: an interrupted sweep keeps what it has.
    if (!o.json_out.empty()) write_json(o.json_out, context, points);
  }
  fmt::print("{}", load_table(points));
  std::fflush(stdout);
  for (const LoadPoint& p : points) {
    if (p.result.error_total() > 0) throw ExitCode{2};
  }
}

void add_options(CLI::App* cmd, LoadOptions& o) {
  add_target_options(cmd, o.url, o.protocol, o.style);
  cmd->add_option("--call", o.call,
                  "Corpus call to send: getRate, add, respond.2500B, … (the file "
                  "corpus/<family>/<NAME>.call.*); required without --replay");
  cmd->get_option("--protocol")
      ->required(false)
      ->description("Protocol to speak (required without --replay)");
  cmd->add_option("--replay", o.replay,
                  "A folder soapbench record wrote: send its recorded requests (target, "
                  "Content-Type, SOAPAction as recorded; --url's path, if any, for all) and "
                  "judge each answer by its recorded status and, where the recording shows the "
                  "service deterministic and the answer decodes, its decoded body")
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--order", o.order,
                  "--replay: recorded (the run's k-th call sends request k mod n) or "
                  "round-robin (each connection cycles through all requests from its own start)")
      ->check(CLI::IsMember({"recorded", "round-robin"}))
      ->capture_default_str();
  add_repeatable_option(
      cmd, "--replay-rate", o.replay_rates,
      "--replay, open loop: each request due at its recorded time divided by F (the "
      "recorded rate × F, the recording repeated); a list sweeps")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  cmd->add_option("--server-parser", o.server_parser, "Sent as X-Parser: the server's adapter");
  cmd->add_option("--batch", o.batch,
                  "JSON-RPC: each request a JSON-RPC 2.0 batch of N copies of the call (ids "
                  "1..N), its answer judged as the batch of N answers; calls/s count requests")
      ->check(CLI::Range(std::size_t{1}, Limits{}.max_members));
  add_repeatable_option(
      cmd, "--connections", o.connections,
      "Closed loop: connections, each sending its next call on the answer; a list "
      "(1,4,16) sweeps. With --rate: the pool size (default " +
          std::to_string(kOpenLoopConnections) + ")")
      ->delimiter(',')
      ->check(CLI::Range(1, 100'000));
  add_repeatable_option(cmd, "--rate", o.rates,
                        "Open loop: calls per second, call k due at k/rate, on the next free "
                        "connection; a list sweeps")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  cmd->add_option("--duration", o.duration_s, "Measured seconds per point")
      ->check(CLI::Range(0.01, 86'400.0))
      ->capture_default_str();
  cmd->add_option("--warmup", o.warmup_s, "Seconds run before each point's window, not measured")
      ->check(CLI::Range(0.0, 86'400.0))
      ->capture_default_str();
  cmd->add_option("--timeout-ms", o.timeout_ms,
                  "Per call: connect (https: and the TLS handshake), write and read; a call "
                  "timed out is in the latencies at what it waited")
      ->check(CLI::Range(1, 3'600'000))
      ->capture_default_str();
  cmd->add_option("--decode-every", o.decode_every,
                  "Decode 1 answer in K in full and check it against the contract (every answer "
                  "is checked for its status and compared with the last right one)")
      ->check(CLI::Range(1, 1'000'000'000))
      ->capture_default_str();
  cmd->add_option(
         "--max-drift-ulps", o.max_drift_ulps,
         "Doubles in the answer may differ this many units in the last place (a peer's drift_ulps: "
         "soapbench list --peers)")
      ->capture_default_str();
  cmd->add_option("--threads", o.threads,
                  "Generator threads, each with its own connections (closed loop: connection i on "
                  "thread i mod T) and, open loop, its share of the schedule (call k on thread k "
                  "mod T); at most one per connection. generator_cpu_share is per thread")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  cmd->add_option("--server-pid", o.server_pid,
                  "The server's process: its CPU per call and memory from /proc (absent: those "
                  "fields are null; the server must run on this machine)")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--no-tls-resume", o.no_tls_resume,
                "https: a full TLS handshake on every reconnect (default: a reconnect resumes "
                "the connection's last session)");
  cmd->add_option("--corpus", o.corpus_dir,
                  "Corpus directory (default: $SOAPBENCH_CORPUS or "
                  "the source tree's corpus/)");
  cmd->add_option("--json", o.json_out, "Write the run as JSON: context, one record per point");
}

}  // namespace

void add_load_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "load",
      "Load a server with one corpus call: closed loop (--connections) or open loop (--rate), "
      "a point per value; every answer checked. Exit 1 when it cannot run, 2 when a point had "
      "errors");
  static LoadOptions options;
  add_options(cmd, options);
  std::string kinds;
  for (std::size_t k = 0; k < kLoadErrorKinds; ++k)
    kinds += (k ? ", " : "") + std::string(load_error_name(static_cast<LoadError>(k)));
  cmd->footer(fmt::format(
      "--url is the endpoint's full URL, path included (http://host:port/ws/orders); without a "
      "path, the family's path on soapbench serve (/RPC2, /soap, /jsonrpc). https: TLS 1.2/1.3, "
      "the certificate not verified, a handshake per connection made (counted per point, "
      "resumed on reconnect unless --no-tls-resume). Latency percentiles from a log-bucketed "
      "histogram (within {:.1f}%) of the right answers and of the calls given up on, at what "
      "they waited: a timed-out call at its timeout, an open-loop call never sent at its wait "
      "when the window closed; so a stall shows in max and p99.9. \"–\": no call answered. "
      "Open loop: latency from each call's due time, not its send time. Errors by kind: {} "
      "(unserved: a connection that got no answer in the window). docs/load.md \"Load\" explains "
      "every field.",
      LatencyHistogram::kMaxRelativeError * 100, kinds));
  cmd->callback([] { run(options); });
}

}  // namespace sb::cli
