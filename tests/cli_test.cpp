// The soapbench executable's common flags, and every subcommand's output into a closed pipe.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "server/http_server.h"

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
// docs/findings.md): digest exits 1 and names the file, the parser and the reason;
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

// How a run whose stdout was a pipe nobody reads ended.
struct ClosedPipeRun {
  int status = -1;        // waitpid's status
  std::string stderr;     // what it wrote to stderr
  bool finished = false;  // it ended within the bound (else it was killed)
};

// Runs soapbench ARGS with stdout a pipe whose read end is already closed (every write fails
// with EPIPE), SIGPIPE ignored or default as the parent leaves it, for at most 60 s.
ClosedPipeRun run_into_closed_pipe(const std::vector<std::string>& args, bool ignore_sigpipe) {
  ClosedPipeRun r;
  int fds[2];
  if (pipe(fds) != 0) return r;
  close(fds[0]);  // no reader, ever
  char err_path[] = "/tmp/sb-cli-stderr-XXXXXX";
  const int err_fd = mkstemp(err_path);
  std::vector<std::string> argv_storage{SB_SOAPBENCH_EXE};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {  // only async-signal-safe calls until exec
    signal(SIGPIPE, ignore_sigpipe ? SIG_IGN : SIG_DFL);
    dup2(fds[1], STDOUT_FILENO);
    dup2(err_fd, STDERR_FILENO);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(fds[1]);
  close(err_fd);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (pid > 0) {
    const pid_t done = waitpid(pid, &r.status, WNOHANG);
    if (done == pid) {
      r.finished = true;
      break;
    }
    if (done < 0 || std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &r.status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::ifstream err(err_path);
  std::stringstream text;
  text << err.rdbuf();
  r.stderr = text.str();
  unlink(err_path);
  return r;
}

// Every subcommand that prints, its output into a closed pipe, whether the parent ignored
// SIGPIPE or not: it ends quietly, killed by SIGPIPE (status 141 in a shell) or exiting 0, never
// aborting with "cannot write to file: Broken pipe" (`soapbench list -v | head -5` did).
TEST(Cli, EveryCommandEndsQuietlyOnAClosedPipe) {
  sb::ServerConfig config;
  config.threads = 1;
  sb::RpcServer server(config);
  server.start();
  const std::string url = server.base_url();
  const std::string corpus = std::string(SB_SOURCE_DIR) + "/corpus/";
  const std::string xmlrpc_call = corpus + "xmlrpc/add.call.xml";
  const std::vector<std::vector<std::string>> commands = {
      {"--help"},
      {"--version"},
      {"list", "-v"},
      {"load", "--help"},
      {"digest", "--parser", "pugixml/dom", xmlrpc_call},
      {"decode", "--parser", "pugixml/dom", xmlrpc_call},
      {"wsdl"},
      {"conformance", "--parser", "pugixml/dom", "--policy-only",
       corpus + "hostile/xml/billion-laughs.xml"},
      {"interop", "--only", "representative", "--gsoap-server", "", "--gsoap-client", "",
       "--xmlrpc-c-server", "", "--xmlrpc-c-client", "", "--soaplite-server", "",
       "--frontier-server", "", "--python-xmlrpc-server", ""},
      {"call", "--url", url, "--protocol", "xmlrpc", "--repeat", "2000", "add", "2", "3"},
      {"load", "--url", url, "--protocol", "xmlrpc", "--call", "add", "--duration", "0.2",
       "--warmup", "0"},
      {"serve", "--port", "0", "--threads", "1"},
  };
  for (const bool ignored : {true, false}) {
    for (const std::vector<std::string>& args : commands) {
      std::string line = ignored ? "SIGPIPE ignored:" : "SIGPIPE default:";
      for (const std::string& a : args) line += " " + a;
      SCOPED_TRACE(line);
      const ClosedPipeRun r = run_into_closed_pipe(args, ignored);
      ASSERT_TRUE(r.finished) << "still running after 60 s; stderr: " << r.stderr;
      const bool quiet_signal = WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGPIPE;
      const bool quiet_exit =
          WIFEXITED(r.status) && (WEXITSTATUS(r.status) == 0 || WEXITSTATUS(r.status) == 141);
      EXPECT_TRUE(quiet_signal || quiet_exit)
          << "status " << r.status << " (signal "
          << (WIFSIGNALED(r.status) ? WTERMSIG(r.status) : 0) << "); stderr: " << r.stderr;
      EXPECT_THAT(r.stderr, testing::Not(testing::HasSubstr("Broken pipe")));
      EXPECT_THAT(r.stderr, testing::Not(testing::HasSubstr("terminate")));
    }
  }
}

}  // namespace
