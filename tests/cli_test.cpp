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

TEST(Cli, UnknownOptionFails) {
  RunResult r = run_soapbench("--no-such-flag");
  EXPECT_NE(r.exit_code, 0);
}

}  // namespace
