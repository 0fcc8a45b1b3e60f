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
#include "server/http_server.h"

namespace sb::cli {

void add_serve_command(CLI::App& app) {
  CLI::App* cmd =
      app.add_subcommand("serve", "Run the RPC server (XML-RPC, SOAP 1.1/1.2, JSON-RPC)");
  // Static: CLI11 writes the options into them while parsing, the callback reads them afterwards.
  static ServerConfig config;
  static std::string cert;
  static std::string key;
  static std::string corpus;
  static std::int64_t header_timeout_ms = config.header_timeout.count();
  static std::int64_t idle_timeout_ms = config.idle_timeout.count();
  static std::int64_t request_deadline_ms = config.request_deadline.count();
  static std::int64_t crowded_first_byte_ms = config.crowded_first_byte.count();
  cmd->add_option("--address", config.address, "Listen address (IPv4 or IPv6 literal)")
      ->capture_default_str();
  cmd->add_option("--port", config.port, "Listen port (0: any free port)")->capture_default_str();
  cmd->add_option("--threads", config.threads, "I/O threads (0: one per core)")
      ->capture_default_str();
  cmd->add_option("--parser", config.parser,
                  "XML adapter unless a request's X-Parser says otherwise")
      ->capture_default_str();
  cmd->add_option("--json-parser", config.json_parser,
                  "JSON adapter unless a request's X-Parser says otherwise")
      ->capture_default_str();
  cmd->add_option("--encoder", config.encoder, "Encoder writing responses (harness/encoders.h)")
      ->capture_default_str();
  cmd->add_flag("--tls", config.tls, "Serve HTTPS (self-signed certificate unless --cert/--key)");
  CLI::Option* cert_opt =
      cmd->add_option("--cert", cert, "PEM certificate (chain) file")->check(CLI::ExistingFile);
  CLI::Option* key_opt =
      cmd->add_option("--key", key, "PEM private key file")->check(CLI::ExistingFile);
  cert_opt->needs(key_opt);
  key_opt->needs(cert_opt);
  cmd->add_option("--corpus", corpus, "Corpus directory holding the getChain documents")
      ->check(CLI::ExistingDirectory);
  cmd->add_flag("--server-timing", config.server_timing,
                "Add a Server-Timing header (decode, dispatch, encode)");
  cmd->add_option("--max-body", config.max_body_bytes, "Largest request body; larger get 413")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--header-timeout", header_timeout_ms, "ms to receive a request's header")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--idle-timeout", idle_timeout_ms, "ms a keep-alive connection may idle")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--request-deadline", request_deadline_ms,
                  "ms to read a request's body and to write its response")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--max-connections", config.max_connections,
                  "Concurrent connections; beyond: 503")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--crowded-first-byte", crowded_first_byte_ms,
                  "ms a connection that has sent nothing (TLS: not finished its handshake) may "
                  "stay once over 3/4 of --max-connections are in use")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->callback([] {
    if ((!cert.empty() || !key.empty()) && !config.tls) {
      fmt::print(stderr, "soapbench: serve: --cert/--key need --tls\n");
      throw ExitCode{1};
    }
    config.cert_file = cert;
    config.key_file = key;
    config.corpus_dir = corpus;
    config.header_timeout = std::chrono::milliseconds(header_timeout_ms);
    config.idle_timeout = std::chrono::milliseconds(idle_timeout_ms);
    config.request_deadline = std::chrono::milliseconds(request_deadline_ms);
    config.crowded_first_byte = std::chrono::milliseconds(crowded_first_byte_ms);
    RpcServer server(config);
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
        config.threads != 0 ? config.threads : std::max(1u, std::thread::hardware_concurrency());
    fmt::print("soapbench: serving {} (parser {}, json parser {}, encoder {}, {} threads)\n",
               server.base_url(), config.parser, config.json_parser, config.encoder, threads);
    std::fflush(stdout);
    signals_context.run();  // returns once a signal arrived
    server.stop();
  });
}

}  // namespace sb::cli
