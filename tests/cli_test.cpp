// The soapbench executable's common flags.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <string>

namespace {

struct RunResult {
  int exit_code;       // process exit status
  std::string output;  // stdout and stderr together
};

// Runs soapbench with the given arguments and captures its output.
RunResult run_soapbench(const std::string& args) {
  std::string cmd = std::string(SB_SOAPBENCH_EXE) + " " + args + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  RunResult r{-1, {}};
  if (pipe == nullptr) return r;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.output.append(buf.data(), n);
  int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  // 127: the shell found no executable; every test would then "see" a failing exit.
  EXPECT_NE(r.exit_code, 127) << "soapbench not runnable: " << r.output;
  return r;
}

TEST(Cli, VersionNamesProjectVersionAndGitSha) {
  RunResult r = run_soapbench("--version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(
      r.output,
      testing::MatchesRegex(
          "soapbench [0-9]+\\.[0-9]+\\.[0-9]+ \\(git ([0-9a-f]{12}(-dirty)?|unknown)\\)\n"));
}

TEST(Cli, HelpListsUsage) {
  RunResult r = run_soapbench("--help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.output, testing::HasSubstr("Usage:"));
}

// Exit 1 with one line naming the flag: not the shell's 127 (a missing binary) nor a signal.
TEST(Cli, UnknownOptionFails) {
  RunResult r = run_soapbench("--no-such-flag");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_THAT(r.output, testing::StartsWith("soapbench: "));
  EXPECT_THAT(r.output, testing::HasSubstr("--no-such-flag"));
}

// tinyxml2 refuses a processing instruction that is not first in the document (a library fact,
// README "What the libraries do"): digest exits 1 and names the file, the parser and the reason;
// `list -v` states the fact; another adapter digests the same XML-RPC file.
TEST(Cli, Tinyxml2RefusesALateProcessingInstruction) {
  const std::string file =
      std::string(SB_SOURCE_DIR) + "/corpus/hostile/xml/pi-in-content-xmlrpc.xml";
  RunResult r = run_soapbench("digest --parser tinyxml2/dom " + file);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_THAT(r.output, testing::HasSubstr("pi-in-content-xmlrpc.xml"));
  EXPECT_THAT(r.output, testing::HasSubstr("tinyxml2/dom"));
  EXPECT_THAT(r.output, testing::HasSubstr("XML_ERROR_PARSING_DECLARATION"));
  EXPECT_EQ(run_soapbench("digest --parser expat/sax " + file).exit_code, 0);
  r = run_soapbench("list -v");
  EXPECT_THAT(r.output, testing::HasSubstr("refuses a processing instruction that is not first"));
}

// soapbench conformance: each case in a child, both modes, the JSON the report reads.
TEST(Cli, ConformanceRecordsEveryCaseAndItsVerdict) {
  const std::string hostile = std::string(SB_SOURCE_DIR) + "/corpus/hostile/";
  const std::string json = testing::TempDir() + "/conformance_test.json";
  RunResult r =
      run_soapbench("conformance --parser pugixml/dom --parser rapidjson/sax --json " + json + " " +
                    hostile + "xml/billion-laughs.xml " + hostile + "json/bom.json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // pugixml gets the XML file, RapidJSON the JSON one, each under both modes.
  EXPECT_THAT(r.output, testing::HasSubstr("pugixml/dom (policy)"));
  EXPECT_THAT(r.output, testing::HasSubstr("pugixml/dom (library)"));
  EXPECT_THAT(r.output, testing::HasSubstr("rapidjson/sax (policy)"));
  FILE* f = std::fopen(json.c_str(), "r");
  ASSERT_NE(f, nullptr);
  std::string text;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), f)) > 0) text.append(buf.data(), n);
  std::fclose(f);
  EXPECT_THAT(text, testing::HasSubstr("\"tool\":\"soapbench conformance\""));
  // The policy refuses the DOCTYPE of billion laughs, with the reason.
  EXPECT_THAT(text, testing::ContainsRegex("billion-laughs.xml\",\"error_class\":\"[^\"]*\","
                                           "\"mode\":\"policy\",\"result\":\"rejected\""));
  EXPECT_THAT(text, testing::HasSubstr("DOCTYPE is not allowed"));
  EXPECT_THAT(text, testing::HasSubstr("\"peak_bytes\":"));
}

// A timeout is a library fact at walk level, and a failure at decode level under the policy.
TEST(Cli, ConformanceTimeoutFailsOnlyWhereTheSuitePromisesABound) {
  const std::string file =
      std::string(SB_SOURCE_DIR) + "/corpus/hostile/xml/large-attribute.xml.gz";  // 16 MB value
  const std::string common = " --parser pugixml/dom --policy-only --timeout-ms 1 " + file;
  RunResult walk = run_soapbench("conformance --level walk" + common);
  EXPECT_EQ(walk.exit_code, 0) << walk.output;
  EXPECT_THAT(walk.output, testing::HasSubstr("timeout pugixml/dom (policy)"));
  RunResult decode = run_soapbench("conformance --level decode" + common);
  EXPECT_EQ(decode.exit_code, 1) << decode.output;
  EXPECT_THAT(decode.output, testing::HasSubstr("timeout pugixml/dom (policy)"));
}

}  // namespace
