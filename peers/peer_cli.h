// The command-line pieces every peer's server and client share (README "Peers"): a server's
// listen address and port, a client's METHOD and ARGS read as `soapbench call` reads them.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace sb::peers {

// Adds a server's --address and --port (0: any free port; the server prints the bound one).
template <class Port>
void add_listen_options(CLI::App& app, std::string& address, Port& port) {
  app.add_option("--address", address, "Listen address (IPv4 or IPv6 literal)")
      ->capture_default_str();
  app.add_option("--port", port, "Listen port (0: any free port)")->capture_default_str();
}

// Adds a client's --repeat (the call made N times on one connection, an answer line each).
inline void add_repeat_option(CLI::App& app, int& repeat) {
  app.add_option("--repeat", repeat, "Make the call N times on one connection")
      ->check(CLI::Range(1, 1'000'000))
      ->capture_default_str();
}

// Adds a client's METHOD positional; its ARGS stay extras, as in `soapbench call`, so "[1,2]"
// stays one JSON value and "-1" a number.
inline void add_call_arguments(CLI::App& app, std::string& method) {
  app.add_option("method", method, "Operation name (docs/service.md)")->required();
  app.allow_extras();
  app.footer("ARGS: the operation's parameters as JSON values, typed by the contract.");
}

// The ARGS after parsing; nullopt, after a message naming `program`, when one is an option.
inline std::optional<std::vector<std::string>> call_arguments(const CLI::App& app,
                                                              const char* program) {
  std::vector<std::string> args = app.remaining();
  for (const std::string& a : args) {
    if (a.starts_with("--")) {
      std::fprintf(stderr, "%s: unknown option %s\n", program, a.c_str());
      return std::nullopt;
    }
  }
  return args;
}

}  // namespace sb::peers
