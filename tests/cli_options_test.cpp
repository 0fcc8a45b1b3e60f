// soapbench's options take one value per occurrence (cli/repeatable_option.h): every subcommand
// that takes paths (or METHOD ARGS) gets the same answer with its options before, between and
// after them; no option of any subcommand shows CLI11's "takes the words that follow" mark.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "codecs/service_contract.h"
#include "codecs/wsdl.h"
#include "harness/server/http_server.h"

namespace {

using testing::HasSubstr;

struct CommandRun {
  int exit_code;       // the process's exit status, -1 when it did not exit
  std::string output;  // stdout and stderr together
};

// Single quotes around `word` for the shell.
std::string quoted(const std::string& word) {
  std::string q = "'";
  for (const char c : word) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

CommandRun run_soapbench(const std::vector<std::string>& args) {
  std::string cmd = SB_SOAPBENCH_EXE;
  for (const std::string& a : args) cmd += " " + quoted(a);
  cmd += " 2>&1";
  CommandRun r{-1, {}};
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.output.append(buf.data(), n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// Named per process: ctest -j runs each parameter in its own process at once, and one process's
// WSDL (naming its server's port) must not be read by another whose server is elsewhere.
std::string write_file(const std::string& name, const std::string& text) {
  const std::string path =
      testing::TempDir() + "/soapbench-options-" + std::to_string(::getpid()) + "-" + name;
  std::ofstream(path) << text;
  return path;
}

// A WSDL with one document/literal operation `ping` (no parameters, an int answer), a second
// file beside the service's own.
const char* const kPingWsdl = R"(<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"
    xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:t="urn:ping" targetNamespace="urn:ping">
  <types><xs:schema targetNamespace="urn:ping" elementFormDefault="qualified">
    <xs:element name="ping"><xs:complexType><xs:sequence/></xs:complexType></xs:element>
    <xs:element name="pingResponse"><xs:complexType><xs:sequence>
      <xs:element name="n" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
  </xs:schema></types>
  <message name="in"><part name="parameters" element="t:ping"/></message>
  <message name="out"><part name="parameters" element="t:pingResponse"/></message>
  <portType name="P"><operation name="ping"><input message="t:in"/><output message="t:out"/></operation></portType>
  <binding name="B" type="t:P"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="ping"><soap:operation soapAction="urn:ping#ping"/>
      <input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>
  </binding>
</definitions>)";

// One subcommand's run: its words, its positionals in order, its options (each one or two
// words), and what the output must hold whatever the order.
struct CommandCase {
  std::string name;
  std::vector<std::string> command;
  std::vector<std::string> positionals;
  std::vector<std::vector<std::string>> options;
  std::vector<std::string> expected;
};

enum class Place { before, between, after };

// The command line with every option placed before, between (after the first positional) or
// after the positionals.
std::vector<std::string> arrange(const CommandCase& c, Place place) {
  std::vector<std::string> args = c.command;
  const std::size_t split = place == Place::before    ? 0
                            : place == Place::between ? 1
                                                      : c.positionals.size();
  args.insert(args.end(), c.positionals.begin(), c.positionals.begin() + split);
  for (const std::vector<std::string>& o : c.options) args.insert(args.end(), o.begin(), o.end());
  args.insert(args.end(), c.positionals.begin() + split, c.positionals.end());
  return args;
}

class OptionsAroundPaths : public testing::TestWithParam<std::tuple<std::string, Place>> {
 protected:
  static void SetUpTestSuite() {
    sb::ServerConfig config;
    config.threads = 1;
    server_ = std::make_unique<sb::RpcServer>(config);
    server_->start();
    service_wsdl_ = write_file(
        "service.wsdl", sb::rpc::generate_wsdl(sb::rpc::service_contract(), server_->base_url()));
    ping_wsdl_ = write_file("ping.wsdl", kPingWsdl);
  }
  static void TearDownTestSuite() {
    server_.reset();
    std::remove(service_wsdl_.c_str());
    std::remove(ping_wsdl_.c_str());
  }

  static CommandCase command_case(const std::string& name) {
    const std::string corpus = std::string(SB_SOURCE_DIR) + "/corpus/";
    const std::string add = corpus + "soap11-doc-literal/add.call.xml";
    const std::string concat = corpus + "soap11-doc-literal/concat.call.xml";
    const std::vector<CommandCase> cases = {
        {"compare",
         {"compare"},
         {add, corpus + "jsonrpc/add.call.json"},
         {{"--list"},
          {"--level", "decode"},
          {"--parser", "pugixml/dom"},
          {"--parser=rapidjson/dom"},
          {"--wsdl=" + service_wsdl_},
          {"--max-files", "0"}},
         {"add.call.xml  xml", "add.call.json  json"}},
        {"decode",
         {"decode"},
         {add, concat},
         {{"--wsdl", service_wsdl_}, {"--wsdl", ping_wsdl_}, {"--parser", "pugixml/dom"}},
         {R"("method":"add","params":[2,3])", R"("method":"concat")"}},
        {"digest",
         {"digest"},
         {add, concat},
         {{"--parser", "expat/sax"}, {"--max-depth", "64"}},
         {"{\"elements\"", "}\n{\"elements\""}},
        {"conformance",
         {"conformance"},
         {corpus + "hostile/xml/billion-laughs.xml",
          corpus + "hostile/xml/pi-in-content-xmlrpc.xml"},
         {{"--parser", "expat/sax"},
          {"--parser", "pugixml/dom"},
          {"--level", "parse"},
          {"--policy-only"}},
         {"2 hostile files", "expat/sax (policy)", "pugixml/dom (policy)"}},
        {"wsdl_check",
         {"wsdl"},
         {service_wsdl_, ping_wsdl_},
         {{"--check"}, {"--base-url", "http://127.0.0.1:1"}},
         {"18 operations typed, 0 refused", "  ping  document"}},
        {"call",
         {"call"},
         {"add", "2", "3"},
         {{"--wsdl", service_wsdl_}, {"--wsdl", ping_wsdl_}, {"--repeat", "2"}},
         {"{\"kind\":\"response\",\"method\":\"add\",\"result\":5}\n"
          "{\"kind\":\"response\",\"method\":\"add\",\"result\":5}\n"}},
    };
    for (const CommandCase& c : cases) {
      if (c.name == name) return c;
    }
    ADD_FAILURE() << "no case " << name;
    return {};
  }

  static std::unique_ptr<sb::RpcServer> server_;  // answers `call`
  static std::string service_wsdl_;               // soapbench's WSDL, pointing at server_
  static std::string ping_wsdl_;                  // kPingWsdl
};

std::unique_ptr<sb::RpcServer> OptionsAroundPaths::server_;
std::string OptionsAroundPaths::service_wsdl_;
std::string OptionsAroundPaths::ping_wsdl_;

// Each option in turn stands right before the positionals that follow the options (the place
// a word-taking option would swallow them), so one run per option and place.
TEST_P(OptionsAroundPaths, SameAnswer) {
  const CommandCase c = command_case(std::get<0>(GetParam()));
  const Place place = std::get<1>(GetParam());
  const std::size_t runs = place == Place::after ? 1 : c.options.size();
  for (std::size_t last = 0; last < runs; ++last) {
    CommandCase rotated = c;
    std::rotate(rotated.options.begin(), rotated.options.begin() + static_cast<long>(last + 1),
                rotated.options.end());
    const std::vector<std::string> args = arrange(rotated, place);
    std::string line = "soapbench";
    for (const std::string& a : args) line += " " + a;
    SCOPED_TRACE(line);
    const CommandRun r = run_soapbench(args);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    for (const std::string& e : c.expected) EXPECT_THAT(r.output, HasSubstr(e));
    EXPECT_THAT(r.output, testing::Not(HasSubstr("skipped")));
  }
}

INSTANTIATE_TEST_SUITE_P(EveryCommandWithPaths, OptionsAroundPaths,
                         testing::Combine(testing::Values("compare", "decode", "digest",
                                                          "conformance", "wsdl_check", "call"),
                                          testing::Values(Place::before, Place::between,
                                                          Place::after)),
                         [](const testing::TestParamInfo<std::tuple<std::string, Place>>& info) {
                           const Place p = std::get<1>(info.param);
                           return std::get<0>(info.param) + "_" +
                                  (p == Place::before    ? "before"
                                   : p == Place::between ? "between"
                                                         : "after");
                         });

// The subcommands `soapbench --help` lists.
std::vector<std::string> subcommands() {
  const CommandRun r = run_soapbench({"--help"});
  std::vector<std::string> names;
  std::istringstream in(r.output.substr(r.output.find("Subcommands:")));
  std::string line;
  std::getline(in, line);
  const std::regex entry("^  ([a-z]+) .*");
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, entry)) names.push_back(m[1]);
  }
  return names;
}

// CLI11 marks an option that takes the words after it with " ..." in --help; none may, so a
// path is never an option's value. The options that take several values say how.
TEST(CliOptions, NoOptionTakesTheWordsAfterIt) {
  const std::vector<std::string> names = subcommands();
  ASSERT_GE(names.size(), 11u);
  int repeatable = 0;
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    const CommandRun r = run_soapbench({name, "--help"});
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const std::size_t options = r.output.find("\nOptions:\n");
    ASSERT_NE(options, std::string::npos) << r.output;
    std::istringstream in(r.output.substr(options));
    std::string line;
    while (std::getline(in, line)) {
      if (!line.starts_with("  -")) continue;
      const std::string opts = line.substr(0, line.find("  ", 2));
      EXPECT_THAT(opts, testing::Not(HasSubstr(" ..."))) << line;
    }
    for (std::size_t at = r.output.find("(repeat for more)"); at != std::string::npos;
         at = r.output.find("(repeat for more)", at + 1)) {
      ++repeatable;
    }
  }
  // compare --parser/--level/--wsdl, decode --wsdl, conformance --parser/--suite/--config,
  // call --wsdl, load --connections/--rate/--replay-rate.
  EXPECT_EQ(repeatable, 11);
}

}  // namespace
