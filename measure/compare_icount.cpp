#include "measure/compare_icount.h"

#include <fmt/core.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "codecs/canonical_json.h"
#include "harness/peer_process.h"
#include "harness/run_context.h"

namespace sb::bench {

namespace fs = std::filesystem;

namespace {

std::string find_valgrind() {
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
  for (std::size_t at = 0; at <= dirs.size();) {
    const std::size_t end = std::min(dirs.find(':', at), dirs.size());
    const fs::path candidate = fs::path(dirs.substr(at, end - at)) / "valgrind";
    if (access(candidate.c_str(), X_OK) == 0) return candidate.string();
    at = end + 1;
  }
  return {};
}

// tools/icount's determinism shim (fixed time and randomness, an allocator whose cost does not
// depend on the heap's history), compiled into `dir` with the system's C compiler; "" when
// there is none (the counts then carry glibc malloc's history: a few tenths of a percent).
std::string build_shim(const std::string& dir) {
  const std::string so = dir + "/libsbfix.so";
  for (const char* cc : {"/usr/bin/cc", "/usr/bin/gcc", "/usr/bin/clang"}) {
    if (access(cc, X_OK) != 0) continue;
    const peers::ChildRun r = peers::run_child(
        cc, {"-O2", "-shared", "-fPIC", "-o", so, SB_ICOUNT_SHIM_SOURCE}, std::chrono::minutes(2));
    return r.exit_code == 0 ? so : std::string();
  }
  return {};
}

// The command line of the counted run: this one's options, fixed iterations, no JSON.
std::vector<std::string> child_args(const CompareOptions& o, const std::string& out_dir,
                                    long iterations) {
  std::vector<std::string> a = {"--tool=callgrind",
                                "--collect-atstart=no",
                                "-q",
                                "--callgrind-out-file=" + out_dir + "/cg.%p",
                                o.self,
                                "compare",
                                "--iterations",
                                std::to_string(iterations),
                                "--json",
                                "-",
                                "--no-pin",
                                "--max-files",
                                std::to_string(o.scan.max_files),
                                "--max-file-bytes",
                                std::to_string(o.scan.max_bytes)};
  for (const std::string& p : o.parsers) a.insert(a.end(), {"--parser", p});
  for (Level l : o.levels) a.insert(a.end(), {"--level", level_name(l)});
  for (const std::string& w : o.wsdl) a.insert(a.end(), {"--wsdl", w});
  a.insert(a.end(), o.paths.begin(), o.paths.end());
  return a;
}

// {benchmark name: instructions} from callgrind's dumps (one per benchmark loop).
std::map<std::string, double> read_dumps(const std::string& dir) {
  static const std::regex desc("^desc: Trigger: Client Request: (.*)$");
  static const std::regex totals("^(?:totals|summary): (\\d+)");
  std::map<std::string, double> counts;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::ifstream in(e.path());
    std::string line, name;
    double total = -1;
    std::smatch m;
    while (std::getline(in, line)) {
      if (name.empty() && std::regex_match(line, m, desc)) name = m[1];
      if (std::regex_search(line, m, totals)) total = std::stod(m[1]);
    }
    if (!name.empty() && total >= 0) counts[name] = total;
  }
  return counts;
}

void print_counts(const ComparePlan& plan, const std::map<std::string, double>& per_message) {
  for (const PlannedFile& f : plan.files) {
    if (f.timed.empty()) continue;
    fmt::print("\n== {} ({}, {} bytes): instructions per message ==\n", f.file.label, f.family,
               f.file.bytes.size());
    for (Level level : {Level::parse, Level::walk, Level::decode}) {
      std::vector<std::pair<double, const PlannedBenchmark*>> rows;
      for (const PlannedBenchmark& b : f.timed) {
        auto it = per_message.find(b.name);
        if (b.level == level && it != per_message.end()) rows.emplace_back(it->second, &b);
      }
      std::sort(rows.begin(), rows.end());
      for (const auto& [n, b] : rows) {
        fmt::print("{:<7} {:<24} {:>14.0f} {:>7.2f}×{}\n", level_name(level),
                   b->adapter->info().name, n, n / rows.front().first,
                   b->flag.empty() ? "" : "  † " + b->flag);
      }
    }
  }
}

void write_json(const std::string& path, const std::map<std::string, double>& per_message,
                long iterations) {
  std::string out = "{\"context\":{";
  bool first = true;
  for (const auto& [k, v] : run_context()) {
    out += first ? "" : ",";
    first = false;
    rpc::append_json_string(out, k);
    out += ':';
    rpc::append_json_string(out, v);
  }
  out += ",\"executable\":\"compare\"},\"instructions\":{";
  first = true;
  for (const auto& [name, n] : per_message) {
    out += first ? "" : ",";
    first = false;
    rpc::append_json_string(out, name);
    out += ':' + rpc::format_double(n);
  }
  out += "},\"icount\":{\"iterations\":" + std::to_string(iterations) +
         ",\"tool\":\"soapbench compare --icount\"}}\n";
  std::ofstream(path) << out;
}

}  // namespace

int count_instructions(const ComparePlan& plan, const CompareOptions& o) {
  const std::string valgrind = find_valgrind();
  if (valgrind.empty()) {
    std::fprintf(stderr,
                 "soapbench: compare --icount needs valgrind (tools/setup.sh installs it)\n");
    return 1;
  }
  char tmpl[] = "/tmp/sb-compare-icount-XXXXXX";
  if (mkdtemp(tmpl) == nullptr) return 1;
  const std::string dir = tmpl;
  const long iterations = o.iterations > 0 ? o.iterations : 10;
  // As tools/icount runs parse_bench: symbols bound at start, not inside the counted loops; Qt's
  // hash seed fixed; the determinism shim preloaded.
  setenv("LD_BIND_NOW", "1", 1);
  setenv("QT_HASH_SEED", "0", 1);
  if (const std::string shim = build_shim(dir); !shim.empty())
    setenv("LD_PRELOAD", shim.c_str(), 1);
  std::fprintf(stderr, "counting instructions under callgrind (%ld iterations per benchmark)...\n",
               iterations);
  const peers::ChildRun run =
      peers::run_child(valgrind, child_args(o, dir, iterations), std::chrono::hours(2));
  std::map<std::string, double> per_message;
  for (const auto& [name, total] : read_dumps(dir)) per_message[name] = total / iterations;
  fs::remove_all(dir);
  if (run.exit_code != 0 || per_message.empty()) {
    std::fprintf(stderr, "soapbench: compare --icount: the callgrind run failed (exit %d)\n",
                 run.exit_code);
    return 1;
  }
  print_counts(plan, per_message);
  if (!o.json.empty() && o.json != "-") write_json(o.json, per_message, iterations);
  return 0;
}

}  // namespace sb::bench
