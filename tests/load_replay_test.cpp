// `soapbench load --replay` (load/replay_plan.h) against a real server: the calls judged by their
// status alone are counted and listed from one source, so the count and the list always agree.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "server/http_server.h"

namespace {

namespace fs = std::filesystem;

std::string add_call(int a, int b) {
  return "<?xml version=\"1.0\"?><methodCall><methodName>add</methodName><params>"
         "<param><value><int>" +
         std::to_string(a) + "</int></value></param><param><value><int>" + std::to_string(b) +
         "</int></value></param></params></methodCall>";
}

std::string add_response(int sum) {
  return "<?xml version=\"1.0\"?><methodResponse><params><param><value><int>" +
         std::to_string(sum) + "</int></value></param></params></methodResponse>";
}

// A folder as `soapbench record` writes it (docs/corpus.md "Recorded folders").
class RecordedFolder {
 public:
  explicit RecordedFolder(const std::string& name) : dir_(testing::TempDir() + "/" + name) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }

  // One exchange: the request and the recorded answer (status 200).
  void add(const std::string& request, const std::string& answer, const char* answer_ext,
           const char* family = "xmlrpc", const char* target = "/RPC2") {
    const int n = ++exchanges_;
    char stem[16];
    std::snprintf(stem, sizeof stem, "%04d", n);
    const std::string call = std::string(stem) + ".call." + answer_ext;
    const std::string response = std::string(stem) + ".response." + answer_ext;
    std::ofstream(dir_ / call, std::ios::binary) << request;
    std::ofstream(dir_ / response, std::ios::binary) << answer;
    const std::string fam = family;
    entries_ += std::string(entries_.empty() ? "" : ",\n") + R"({"path":")" + call +
                R"(","family":")" + fam + R"(","operation":"add","direction":"call","exchange":)" +
                std::to_string(n) + R"(,"target":")" + target + R"(","at_us":)" +
                std::to_string(n * 1000) + "},\n" + R"({"path":")" + response + R"(","family":")" +
                fam + R"(","operation":"add","direction":"response","exchange":)" +
                std::to_string(n) + R"(,"status":200,"at_us":)" + std::to_string(n * 1000 + 500) +
                "}";
  }

  // Writes the manifest; returns the folder.
  std::string finish() {
    std::ofstream(dir_ / "manifest.json")
        << R"({"version":1,"generator":"soapbench record","entries":[)" << entries_ << "]}\n";
    return dir_.string();
  }

 private:
  fs::path dir_;
  int exchanges_ = 0;
  std::string entries_;  // the manifest's entries so far
};

std::string run_soapbench(const std::string& args) {
  const std::string cmd = std::string(SB_SOAPBENCH_EXE) + " " + args + " 2>&1";
  std::string out;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return out;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
  pclose(pipe);
  return out;
}

// Seven answers the decoders cannot type and one request answered two ways (both its calls are
// judged by status): nine listed, more than the five the list once stopped at.
TEST(LoadReplay, EveryCallJudgedByStatusAloneIsListed) {
  RecordedFolder folder("replay-status-only");
  for (int i = 0; i < 7; ++i) folder.add(add_call(i, 100), "a page, not XML-RPC", "txt");
  folder.add(add_call(1, 1), add_response(2), "xml");
  folder.add(add_call(1, 1), add_response(3), "xml");
  folder.add(add_call(2, 3), add_response(5), "xml");  // typed and deterministic: judged in full
  const std::string dir = folder.finish();

  sb::ServerConfig config;
  config.threads = 1;
  sb::RpcServer server(config);
  server.start();
  const std::string out =
      run_soapbench("load --replay " + dir + " --url " + server.base_url() +
                    " --connections 1 --duration 0.2 --warmup 0 --decode-every 1");
  EXPECT_THAT(out, testing::HasSubstr("replay: 10 recorded requests from " + dir +
                                      " (9 judged by status alone)\n"));
  std::istringstream lines(out);
  std::vector<std::string> listed;
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("replay: ") && line.find("recorded requests from") == std::string::npos)
      listed.push_back(line);
  }
  ASSERT_EQ(listed.size(), 9u) << out;
  for (int n = 1; n <= 9; ++n) {
    char path[32];
    std::snprintf(path, sizeof path, "%04d.call.%s: ", n, n <= 7 ? "txt" : "xml");
    EXPECT_THAT(listed[static_cast<std::size_t>(n - 1)],
                testing::HasSubstr(std::string("judged by status alone: ") + path));
  }
  EXPECT_THAT(listed[0], testing::HasSubstr("cannot type its answer 0001.response.txt"));
  EXPECT_THAT(listed[8], testing::HasSubstr("answered differently (0008.call.xml, 0009.call.xml)"));
  EXPECT_THAT(out, testing::HasSubstr(" 0 errors"));
}

// A recorded JSON-RPC batch is replayed as sent and its answer judged as a batch, in full.
TEST(LoadReplay, ABatchIsJudgedByItsAnswers) {
  RecordedFolder folder("replay-batch");
  folder.add(R"([{"jsonrpc":"2.0","method":"add","params":[2,3],"id":1},)"
             R"({"jsonrpc":"2.0","method":"concat","params":["a","b","c"],"id":2}])",
             R"([{"jsonrpc":"2.0","result":5,"id":1},{"jsonrpc":"2.0","result":"abc","id":2}])",
             "json", "jsonrpc", "/jsonrpc");
  const std::string dir = folder.finish();
  sb::ServerConfig config;
  config.threads = 1;
  sb::RpcServer server(config);
  server.start();
  const std::string out =
      run_soapbench("load --replay " + dir + " --url " + server.base_url() +
                    " --connections 1 --duration 0.2 --warmup 0 --decode-every 1");
  EXPECT_THAT(out, testing::HasSubstr("(0 judged by status alone)")) << out;
  EXPECT_THAT(out, testing::HasSubstr(" 0 errors")) << out;
}

}  // namespace
