// CLI11 behind PeerCommandLine (peer_cli.h), compiled once for every peer program.
#include "peers/peer_cli.h"

#include <CLI/CLI.hpp>

#include <cstdio>

namespace sb::peers {
namespace {

// --address and --port, whatever integer type the program keeps its port in.
template <class Port>
void add_listen_options(PeerCommandLine& command_line, std::string& address, Port& port) {
  command_line.option("--address", address, "Listen address (IPv4 or IPv6 literal)").show_default();
  command_line.option("--port", port, "Listen port (0: any free port)").show_default();
}

}  // namespace

PeerOption& PeerOption::required() {
  option_->required();
  return *this;
}

PeerOption& PeerOption::positive() {
  option_->check(CLI::PositiveNumber);
  return *this;
}

PeerOption& PeerOption::range(long low, long high) {
  option_->check(CLI::Range(low, high));
  return *this;
}

PeerOption& PeerOption::existing_directory() {
  option_->check(CLI::ExistingDirectory);
  return *this;
}

PeerOption& PeerOption::show_default() {
  option_->capture_default_str();
  return *this;
}

PeerCommandLine::PeerCommandLine(const std::string& description)
    : app_(std::make_unique<CLI::App>(description)) {}

PeerCommandLine::~PeerCommandLine() = default;

PeerOption PeerCommandLine::option(const std::string& name, std::string& value,
                                   const std::string& help) {
  return PeerOption(app_->add_option(name, value, help));
}

PeerOption PeerCommandLine::option(const std::string& name, int& value, const std::string& help) {
  return PeerOption(app_->add_option(name, value, help));
}

PeerOption PeerCommandLine::option(const std::string& name, unsigned& value,
                                   const std::string& help) {
  return PeerOption(app_->add_option(name, value, help));
}

PeerOption PeerCommandLine::option(const std::string& name, std::size_t& value,
                                   const std::string& help) {
  return PeerOption(app_->add_option(name, value, help));
}

void PeerCommandLine::flag(const std::string& name, bool& value, const std::string& help) {
  app_->add_flag(name, value, help);
}

void PeerCommandLine::listen_options(std::string& address, int& port) {
  add_listen_options(*this, address, port);
}

void PeerCommandLine::listen_options(std::string& address, unsigned& port) {
  add_listen_options(*this, address, port);
}

void PeerCommandLine::repeat_option(int& repeat) {
  option("--repeat", repeat, "Make the call N times on one connection")
      .range(1, 1'000'000)
      .show_default();
}

void PeerCommandLine::call_arguments(std::string& method) {
  option("method", method, "Operation name (docs/service.md)").required();
  app_->allow_extras();
  app_->footer("ARGS: the operation's parameters as JSON values, typed by the contract.");
}

std::optional<int> PeerCommandLine::parse(int argc, char** argv) {
  try {
    app_->parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app_->exit(e);
  }
  return std::nullopt;
}

std::optional<std::vector<std::string>> PeerCommandLine::arguments(const char* program) const {
  std::vector<std::string> args = app_->remaining();
  for (const std::string& a : args) {
    if (a.starts_with("--")) {
      std::fprintf(stderr, "%s: unknown option %s\n", program, a.c_str());
      return std::nullopt;
    }
  }
  return args;
}

}  // namespace sb::peers
