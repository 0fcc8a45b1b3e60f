// soapbench record: the recording reverse proxy (record/record_proxy.h) until SIGINT or SIGTERM,
// storing what it forwards into a recorded folder (record/record_store.h) with a progress line.
#include <fmt/core.h>

#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include "cli/commands.h"
#include "cli/listener_options.h"
#include "record/record_proxy.h"
#include "record/record_store.h"
#include "record/record_writer.h"

namespace sb::cli {

namespace {

// --listen's "HOST:PORT", "[V6]:PORT" or "PORT" into the config; false when it is none of them.
bool parse_listen(const std::string& text, RecordConfig& config) {
  std::string host = "127.0.0.1";
  std::string port = text;
  const std::size_t colon = text.rfind(':');
  if (colon != std::string::npos) {
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
      host = host.substr(1, host.size() - 2);
    if (host.empty() || host == "localhost") host = "127.0.0.1";
  }
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (ec != std::errc() || end != port.data() + port.size() || port.empty() || value > 65535)
    return false;
  config.listen_address = host;
  config.listen_port = static_cast<std::uint16_t>(value);
  return true;
}

// ", N cut off by the upstream mid-answer" when there were such answers, and ", N refused by
// the listener's rules" when there were such requests.
std::string cut_off(const RecordCounts& c) {
  std::string out;
  if (c.cut > 0)
    out += fmt::format(", {} cut off by the upstream mid-answer (client connection closed)", c.cut);
  if (c.refused > 0) out += fmt::format(", {} refused by the listener's rules", c.refused);
  return out;
}

// The one progress line: what was forwarded and kept so far.
std::string record_progress(const RecordCounts& c, const RecordWriter& w) {
  return fmt::format(
      "progress: {} forwarded, {} answered 502/504 by the proxy{}, {} exchanges kept "
      "({:.1f} KiB){}",
      c.forwarded, c.failed, cut_off(c), w.exchanges(), static_cast<double>(w.bytes()) / 1024,
      w.full() ? ", bound reached: keeping no more" : "");
}

// Everything the options set.
struct RecordOptions {
  RecordConfig config;                 // --max-body, --verify-peer; the fields below at run
  RecordLimits limits;                 // --max-messages, --max-bytes
  std::string listen = "127.0.0.1:0";  // --listen
  std::string upstream;                // --upstream
  std::string out;                     // --out
  std::int64_t timeout_ms = config.upstream_timeout.count();  // --timeout-ms
  ListenerOptions listener{config.limits};                    // the limits every listener takes
};

void add_record_options(CLI::App* cmd, RecordOptions& o) {
  cmd->add_option("--listen", o.listen,
                  "Where clients connect: HOST:PORT, [V6]:PORT or PORT (0: any)")
      ->capture_default_str();
  cmd->add_option("--upstream", o.upstream,
                  "The service's URL, http(s)://host[:port][/path]; with a path every request "
                  "goes to it, without one to the target the client sent")
      ->required();
  cmd->add_option("--out", o.out, "Folder to record into (created; must be new or empty)")
      ->required();
  cmd->add_option("--max-messages", o.limits.max_messages,
                  "Keep at most this many messages (a request and its answer are two)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--max-bytes", o.limits.max_bytes, "Keep at most this many body bytes")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--max-body", o.config.max_body_bytes,
                  "Largest body forwarded, 0: any (bodies stream through in 64 KB pieces; a "
                  "larger request: 413, a larger answer: 502, or the connection closed once its "
                  "first piece was passed on)")
      ->capture_default_str();
  cmd->add_option("--timeout-ms", o.timeout_ms,
                  "ms for the upstream to connect, take a request and answer it (then 504)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--verify-peer", o.config.verify_peer,
                "https upstream: check its certificate against the system's CAs");
  add_listener_options(cmd, o.listener);
  cmd->footer(
      "Bounds: once --max-messages or --max-bytes would be passed (--max-bytes counts every "
      "exchange in flight), the proxy keeps forwarding and records nothing more; so it does "
      "when the disk is full (every exchange whole on disk is in the manifest). Requests without "
      "a body (GET ?wsdl) are forwarded, not kept. Requests are read under serve's rules "
      "(framing, Host, sizes, deadlines, connection cap) and refused by the proxy as serve "
      "refuses them (400, 413, 431, 501, 503).");
}

// Records until SIGINT or SIGTERM.
void run_record(RecordOptions& o) {
  std::string error;
  const std::optional<Url> url = parse_url(o.upstream, error);
  if (!url) {
    fmt::print(stderr, "soapbench: record: --upstream {}: {}\n", o.upstream, error);
    throw ExitCode{1};
  }
  if (!parse_listen(o.listen, o.config)) {
    fmt::print(stderr, "soapbench: record: --listen {}: not HOST:PORT\n", o.listen);
    throw ExitCode{1};
  }
  o.config.upstream = *url;
  o.config.upstream_timeout = std::chrono::milliseconds(o.timeout_ms);
  o.config.limits = o.listener.limits();
  std::optional<RecordStore> store;
  try {
    store.emplace(o.out, o.upstream, o.limits);
  } catch (const std::exception& e) {
    fmt::print(stderr, "soapbench: record: {}\n", e.what());
    throw ExitCode{1};
  }
  auto writer = std::make_unique<RecordWriter>(*store);
  RecordProxy proxy(o.config, writer.get());
  try {
    proxy.start();
  } catch (const std::exception& e) {
    fmt::print(stderr, "soapbench: record: {}\n", e.what());
    throw ExitCode{1};
  }
  // The signal set exists before the first line: a SIGTERM sent once it appears stops cleanly.
  boost::asio::io_context main_context;
  boost::asio::signal_set signals(main_context, SIGINT, SIGTERM);
  boost::asio::steady_timer ticker(main_context);
  std::string last;
  std::function<void()> tick = [&] {
    ticker.expires_after(std::chrono::seconds(2));
    ticker.async_wait([&](const boost::system::error_code& ec) {
      if (ec) return;
      const std::string line = record_progress(proxy.counts(), *writer);
      if (line != last) fmt::print(stderr, "{}\n", line);
      last = line;
      tick();
    });
  };
  signals.async_wait([&](const boost::system::error_code&, int) { ticker.cancel(); });
  fmt::print("soapbench: recording {} -> {} into {}\n", proxy.url(), o.upstream, o.out);
  std::fflush(stdout);
  tick();
  main_context.run();  // returns once a signal arrived
  proxy.stop();
  const RecordCounts counts = proxy.counts();
  std::string write_error = writer->error();
  writer.reset();  // stores what is queued, writes the manifest
  fmt::print(stderr,
             "soapbench: record: {} forwarded, {} answered 502/504 by the proxy{}; {} exchanges "
             "({} body bytes) in {}\n",
             counts.forwarded, counts.failed, cut_off(counts), store->exchanges(), store->bytes(),
             (store->dir() / "manifest.json").string());
  if (!write_error.empty()) {
    fmt::print(stderr, "soapbench: record: {}; recording stopped there\n", write_error);
    throw ExitCode{1};
  }
}

}  // namespace

void add_record_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "record",
      "Record the traffic of a running service: a reverse proxy that forwards every request to "
      "--upstream and its answer back, unchanged, and keeps both bodies in --out with a "
      "manifest that compare and load --replay read (docs/corpus.md); runs until SIGINT or "
      "SIGTERM");
  // Static: CLI11 writes the options into it while parsing, the callback reads it afterwards.
  static RecordOptions options;
  add_record_options(cmd, options);
  cmd->callback([] { run_record(options); });
}

}  // namespace sb::cli
