// The command line of every peer's server and client (docs/peers.md): a server's listen address
// and port, a client's METHOD and ARGS read as `soapbench call` reads them. CLI11 sits behind this
// narrow interface and is compiled once, in peer_cli.cpp: Debian's CLI11 2.1 is header-only (no
// compiled mode), and each of the eight peer programs spent about 9 s of compiler CPU on it.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace sb::peers {

// The option just added, refined by chained calls (as CLI11's own).
class PeerOption {
 public:
  explicit PeerOption(CLI::Option* option) : option_(option) {}
  PeerOption& required();
  PeerOption& positive();                  // a number > 0
  PeerOption& range(long low, long high);  // low <= value <= high
  PeerOption& existing_directory();
  PeerOption& show_default();  // --help prints the value it starts with

 private:
  CLI::Option* option_;  // owned by the command line's CLI::App
};

class PeerCommandLine {
 public:
  explicit PeerCommandLine(const std::string& description);
  ~PeerCommandLine();
  PeerCommandLine(const PeerCommandLine&) = delete;
  PeerCommandLine& operator=(const PeerCommandLine&) = delete;

  PeerOption option(const std::string& name, std::string& value, const std::string& help);
  PeerOption option(const std::string& name, int& value, const std::string& help);
  PeerOption option(const std::string& name, unsigned& value, const std::string& help);
  PeerOption option(const std::string& name, std::size_t& value, const std::string& help);
  void flag(const std::string& name, bool& value, const std::string& help);

  // A server's --address and --port (0: any free port; the server prints the bound one).
  void listen_options(std::string& address, int& port);
  void listen_options(std::string& address, unsigned& port);
  // A client's --repeat (the call made N times on one connection, an answer line each).
  void repeat_option(int& repeat);
  // A client's METHOD positional; its ARGS stay extras, as in `soapbench call`, so "[1,2]" stays
  // one JSON value and "-1" a number.
  void call_arguments(std::string& method);

  // Parses argv: nullopt to go on, or the exit status after --help or a usage error (printed).
  std::optional<int> parse(int argc, char** argv);
  // The ARGS after parsing; nullopt, after a message naming `program`, when one is an option.
  std::optional<std::vector<std::string>> arguments(const char* program) const;

 private:
  std::unique_ptr<CLI::App> app_;  // the parser; CLI::Option pointers handed out point into it
};

}  // namespace sb::peers
