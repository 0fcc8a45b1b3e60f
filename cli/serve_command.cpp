// soapbench serve: the RPC server (server/http_server.h) until SIGINT or SIGTERM.
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <exception>
#include <string>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include "cli/commands.h"
#include "cli/listener_options.h"
#include "server/http_server.h"

namespace sb::cli {

namespace {

// Everything the options set.
struct ServeOptions {
  ServerConfig config;  // set directly but for the fields below
  std::string cert;     // --cert
  std::string key;      // --key
  std::string corpus;   // --corpus
  std::int64_t request_deadline_ms = config.request_deadline.count();  // --request-deadline
  ListenerOptions listener{config.limits};  // the limits every listener takes
};

void add_serve_options(CLI::App* cmd, ServeOptions& o) {
  cmd->add_option("--address", o.config.address, "Listen address (IPv4 or IPv6 literal)")
      ->capture_default_str();
  cmd->add_option("--port", o.config.port, "Listen port (0: any free port)")->capture_default_str();
  cmd->add_option("--threads", o.config.threads, "I/O threads (0: one per core)")
      ->capture_default_str();
  cmd->add_option("--parser", o.config.parser,
                  "XML adapter unless a request's X-Parser says otherwise")
      ->capture_default_str();
  cmd->add_option("--json-parser", o.config.json_parser,
                  "JSON adapter unless a request's X-Parser says otherwise")
      ->capture_default_str();
  cmd->add_option("--encoder", o.config.encoder, "Encoder writing responses (harness/encoders.h)")
      ->capture_default_str();
  cmd->add_flag("--tls", o.config.tls, "Serve HTTPS (self-signed certificate unless --cert/--key)");
  CLI::Option* cert_opt =
      cmd->add_option("--cert", o.cert, "PEM certificate (chain) file")->check(CLI::ExistingFile);
  CLI::Option* key_opt =
      cmd->add_option("--key", o.key, "PEM private key file")->check(CLI::ExistingFile);
  cert_opt->needs(key_opt);
  key_opt->needs(cert_opt);
  cmd->add_option("--corpus", o.corpus, "Corpus directory holding the getChain documents")
      ->check(CLI::ExistingDirectory);
  cmd->add_flag("--server-timing", o.config.server_timing,
                "Add a Server-Timing header (decode, dispatch, encode)");
  cmd->add_option("--max-body", o.config.max_body_bytes, "Largest request body; larger get 413")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--request-deadline", o.request_deadline_ms,
                  "ms to read a request's body and to write its response")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  add_listener_options(cmd, o.listener);
}

// Serves until SIGINT or SIGTERM.
void run_serve(ServeOptions& o) {
  if ((!o.cert.empty() || !o.key.empty()) && !o.config.tls) {
    fmt::print(stderr, "soapbench: serve: --cert/--key need --tls\n");
    throw ExitCode{1};
  }
  o.config.cert_file = o.cert;
  o.config.key_file = o.key;
  o.config.corpus_dir = o.corpus;
  o.config.request_deadline = std::chrono::milliseconds(o.request_deadline_ms);
  o.config.limits = o.listener.limits();
  RpcServer server(o.config);
  try {
    server.start();
  } catch (const std::exception& e) {
    fmt::print(stderr, "soapbench: serve: {}\n", e.what());
    throw ExitCode{1};
  }
  // The signal set exists before the "serving" line: a SIGTERM sent as soon as that line
  // appears stops the server cleanly instead of killing the process.
  boost::asio::io_context signals_context;
  boost::asio::signal_set signals(signals_context, SIGINT, SIGTERM);
  signals.async_wait([](const boost::system::error_code&, int) {});
  const unsigned threads =
      o.config.threads != 0 ? o.config.threads : std::max(1u, std::thread::hardware_concurrency());
  fmt::print("soapbench: serving {} (parser {}, json parser {}, encoder {}, {} threads)\n",
             server.base_url(), o.config.parser, o.config.json_parser, o.config.encoder, threads);
  std::fflush(stdout);
  signals_context.run();  // returns once a signal arrived
  server.stop();
}

}  // namespace

void add_serve_command(CLI::App& app) {
  CLI::App* cmd =
      app.add_subcommand("serve", "Run the RPC server (XML-RPC, SOAP 1.1/1.2, JSON-RPC)");
  // Static: CLI11 writes the options into it while parsing, the callback reads it afterwards.
  static ServeOptions options;
  add_serve_options(cmd, options);
  cmd->callback([] { run_serve(options); });
}

}  // namespace sb::cli
