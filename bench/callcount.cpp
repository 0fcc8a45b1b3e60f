// callcount: what one whole call costs on each side, counted exactly (docs/results.md
// "callcount"). Client and server run in this process, one I/O thread per server; per row it
// makes kWarmupCalls calls (answers checked), then --calls calls inside a window on each side
// (bench/callcount_window.h). tools/callcount runs it three times: under callgrind (user-space
// instructions and mutex locks per side), under strace (system calls per side, by name), and
// alone (allocations, voluntary context switches, bytes on the wire; those are written here).
//
// Exactness needs a fixed order of events, so the process runs on one CPU with SCHED_FIFO, the
// servers' threads at a higher priority than the client's: a request wakes the server, which
// runs at once and until it waits again; the client sees the answer already there. Nothing
// else decides which side runs, neither the machine's load nor valgrind's or strace's pauses.
#include <fmt/core.h>
#include <sched.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "bench/callcount_rows.h"
#include "bench/callcount_servers.h"
#include "bench/callcount_window.h"
#include "client/http_client.h"
#include "codecs/canonical_json.h"
#include "harness/answer_check.h"
#include "harness/corpus.h"
#include "harness/roundtrip_calls.h"
#include "harness/run_context.h"

namespace sb::bench {
namespace {

// JSON-RPC ids 1..10 warm up (the first two-digit id grows the buffers that hold it, once), so
// the counted calls' ids, 11..99, all have two digits: the same bytes and work in every call.
constexpr int kWarmupCalls = 10;
constexpr int kMaxCalls = 89;
constexpr int kServerPriority = 2;  // SCHED_FIFO: the servers' threads, above the client's
constexpr int kClientPriority = 1;

struct Options {
  std::string corpus;    // corpus folder (default: $SOAPBENCH_CORPUS or the source tree's)
  int calls = 20;        // measured calls per row
  std::string rows;      // regex on row ids (<variant>/<family>/<adapter>/<call>)
  std::string out;       // the JSON file
  bool list = false;     // print the rows and exit
  int cpu = -1;          // the CPU to run on (-1: the last one allowed)
  bool realtime = true;  // SCHED_FIFO priorities (needed for exact counts)
  Plants plants;         // --plant (tests only)
};

// What one row measured.
struct RowResult {
  CallRow row;
  WindowCounts client, server;
  double wall_ns = 0;          // the calls' wall time (both sides share the one CPU)
  std::uint64_t sent = 0;      // bytes the client wrote to the socket, all calls
  std::uint64_t received = 0;  // bytes it read
};

void print_help() {
  std::printf(
      "callcount: the whole call's exact counts per side (run it through tools/callcount)\n\n"
      "  --calls=N      measured calls per row, 1..%d (default 20)\n"
      "  --rows=REGEX   only rows whose id (<variant>/<family>/<adapter>/<call>) matches\n"
      "  --out=FILE     write the counts as Google Benchmark JSON\n"
      "  --list         print the rows' ids and exit\n"
      "  --corpus=DIR   corpus folder (default: $SOAPBENCH_CORPUS or the source tree's corpus/)\n"
      "  --cpu=N        run on CPU N (default: the last one allowed)\n"
      "  --no-realtime  no SCHED_FIFO priorities (counts may then vary from run to run)\n"
      "  --plant=NAME[,NAME]  a planted change, for the gate's tests:\n",
      kMaxCalls);
  for (const auto& [name, what] : plant_names()) {
    std::printf("                   %-13s %s\n", name.c_str(), what.c_str());
  }
}

// Parses argv; nullopt (and the reason on stderr) on a bad option, exits 0 on --help.
std::optional<Options> parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](std::string_view key) { return a.substr(key.size()); };
    if (a == "--help" || a == "-h") {
      print_help();
      std::exit(0);
    } else if (a.starts_with("--calls=")) {
      o.calls = std::atoi(value("--calls=").c_str());
    } else if (a.starts_with("--rows=")) {
      o.rows = value("--rows=");
    } else if (a.starts_with("--out=")) {
      o.out = value("--out=");
    } else if (a.starts_with("--corpus=")) {
      o.corpus = value("--corpus=");
    } else if (a.starts_with("--cpu=")) {
      o.cpu = std::atoi(value("--cpu=").c_str());
    } else if (a == "--list") {
      o.list = true;
    } else if (a == "--no-realtime") {
      o.realtime = false;
    } else if (a.starts_with("--plant=")) {
      std::string rest = value("--plant=") + ",";
      for (std::size_t at; (at = rest.find(',')) != std::string::npos; rest.erase(0, at + 1)) {
        const std::string name = rest.substr(0, at);
        if (!o.plants.add(name)) {
          std::fprintf(stderr, "callcount: unknown --plant %s (see --help)\n", name.c_str());
          return std::nullopt;
        }
      }
    } else {
      std::fprintf(stderr, "callcount: unknown option %s (see --help)\n", a.c_str());
      return std::nullopt;
    }
  }
  if (o.calls < 1 || o.calls > kMaxCalls) {
    std::fprintf(stderr, "callcount: --calls must be 1..%d\n", kMaxCalls);
    return std::nullopt;
  }
  return o;
}

// Pins this thread (and the threads it starts) to one CPU; "" or why not.
std::string pin(int cpu) {
  if (cpu < 0) return pin_to_one_cpu() >= 0 ? "" : "cannot pin to a CPU";
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  return sched_setaffinity(0, sizeof one, &one) == 0 ? ""
                                                     : "cannot pin to CPU " + std::to_string(cpu);
}

// This thread's SCHED_FIFO priority (threads it starts later inherit it); "" or why not.
std::string set_priority(int priority) {
  sched_param p{};
  p.sched_priority = priority;
  if (sched_setscheduler(0, SCHED_FIFO, &p) == 0) return "";
  return "cannot switch to SCHED_FIFO (needs root, CAP_SYS_NICE or RLIMIT_RTPRIO >= 2; "
         "--no-realtime runs without, inexactly)";
}

// A prepared call: what the client sends and what the answer must be.
struct Prepared {
  rpc::Message request;
  rpc::Message expected;
};

std::optional<Prepared> prepare(const Corpus& corpus, const CallRow& row, std::string& why) {
  std::optional<rpc::Message> request = request_from_corpus(corpus, row.stem);
  if (!request) {
    why = "no corpus call " + row.stem;
    return std::nullopt;
  }
  std::optional<rpc::Message> expected =
      expected_answer(corpus, std::string(rpc::family_name(row.family)), *request);
  if (!expected) {
    why = "no expected answer to " + row.stem;
    return std::nullopt;
  }
  return Prepared{std::move(*request), std::move(*expected)};
}

double now_ns() {
  return static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                 std::chrono::steady_clock::now().time_since_epoch())
                                 .count());
}

// One row: the warm-up calls (every answer checked), then the counted calls inside a window on
// each side. nullopt (and why) when a call fails or answers wrong.
std::optional<RowResult> run_row(const CallRow& row, const Prepared& p, CallcountServers& servers,
                                 const Options& opt, std::string& why) {
  ClientConfig cfg;
  cfg.url = servers.server_for(row).base_url();
  cfg.family = row.family;
  cfg.parser = row.adapter;
  cfg.keep_alive = row.keep_alive();
  cfg.rewrite_body = opt.plants.body_rewrite();
  RpcClient client(cfg);
  RowResult out{row, {}, {}, 0, 0, 0};
  servers.arm(row.name("server"), kWarmupCalls, opt.calls);
  for (int i = 0; i < kWarmupCalls; ++i) {
    const CallResult r = client.call(p.request);
    why = r.ok ? exact_check(r.response, p.expected) : "call failed: " + r.error;
    if (!why.empty()) return std::nullopt;
  }
  bool ok = true;
  CountWindow window;
  const double t0 = now_ns();
  window.begin(row.name("client"));
  for (int i = 0; i < opt.calls; ++i) {
    const CallResult r = client.call(p.request);
    ok = ok && r.ok;
    out.sent += r.wire.sent;
    out.received += r.wire.received;
  }
  out.client = window.end();
  out.wall_ns = now_ns() - t0;
  if (!ok) {
    why = "a counted call failed";
    return std::nullopt;
  }
  if (!servers.take(out.server)) {
    why = "the server's window did not close (a request was lost or added)";
    return std::nullopt;
  }
  return out;
}

// "2024-01-02T03:04:05+00:00", as Google Benchmark writes its context date.
std::string iso_date() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buf[40];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S%z", &tm);
  std::string s(buf);
  if (s.size() > 2) s.insert(s.size() - 2, ":");
  return s;
}

void append_pair(std::string& out, std::string_view key, std::string_view value) {
  rpc::append_json_string(out, key);
  out += ": ";
  rpc::append_json_string(out, value);
}

// One Google Benchmark run entry: per-call counters over `calls` calls.
void append_entry(std::string& out, const std::string& name, int calls, double wall_ns,
                  const WindowCounts& c, const std::vector<std::pair<std::string, double>>& more) {
  out += "    {";
  append_pair(out, "name", name);
  out += ", ";
  append_pair(out, "run_name", name);
  out += fmt::format(
      ", \"run_type\": \"iteration\", \"repetitions\": 1, \"repetition_index\": 0, "
      "\"threads\": 1, \"iterations\": {}, \"real_time\": {:.1f}, \"cpu_time\": {:.1f}, "
      "\"time_unit\": \"ns\", \"allocs_per_call\": {}, \"voluntary_switches\": {}",
      calls, wall_ns / calls, static_cast<double>(c.cpu_ns) / calls,
      rpc::format_double(static_cast<double>(c.allocations) / calls),
      rpc::format_double(static_cast<double>(c.voluntary_switches) / calls));
  for (const auto& [key, v] : more) out += fmt::format(", \"{}\": {}", key, rpc::format_double(v));
  out += "}";
}

std::string to_json(const std::vector<RowResult>& results, const Options& opt,
                    const std::string& executable, const std::string& realtime) {
  std::string out = "{\n  \"context\": {\n";
  std::vector<std::pair<std::string, std::string>> ctx = run_context();
  ctx.insert(ctx.end(), {{"date", iso_date()},
                         {"executable", executable},
                         {"bench_set", "callcount"},
                         {"calls_per_row", std::to_string(opt.calls)},
                         {"warmup_calls", std::to_string(kWarmupCalls)},
                         {"realtime", realtime}});
  for (std::size_t i = 0; i < ctx.size(); ++i) {
    out += "    ";
    append_pair(out, ctx[i].first, ctx[i].second);
    out += i + 1 < ctx.size() ? ",\n" : "\n";
  }
  out += "  },\n  \"benchmarks\": [\n";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const RowResult& r = results[i];
    const double n = opt.calls;
    append_entry(out, r.row.name("client"), opt.calls, r.wall_ns, r.client,
                 {{"request_bytes", static_cast<double>(r.sent) / n},
                  {"response_bytes", static_cast<double>(r.received) / n}});
    out += ",\n";
    append_entry(out, r.row.name("server"), opt.calls, r.wall_ns, r.server, {});
    out += i + 1 < results.size() ? ",\n" : "\n";
  }
  out += "  ]\n}\n";
  return out;
}

}  // namespace
}  // namespace sb::bench

int main(int argc, char** argv) {
  using namespace sb;
  using namespace sb::bench;
  std::optional<Options> opt = parse_options(argc, argv);
  if (!opt) return 2;
  std::vector<CallRow> rows;
  try {
    const std::regex only(opt->rows.empty() ? ".*" : opt->rows);
    for (CallRow& r : callcount_rows()) {
      if (std::regex_search(r.id(), only)) rows.push_back(std::move(r));
    }
  } catch (const std::regex_error& e) {
    std::fprintf(stderr, "callcount: bad --rows: %s\n", e.what());
    return 2;
  }
  if (opt->list) {
    for (const CallRow& r : rows) std::printf("%s\n", r.id().c_str());
    return 0;
  }
  if (rows.empty()) {
    std::fprintf(stderr, "callcount: no row matches --rows=%s (see --list)\n", opt->rows.c_str());
    return 2;
  }
  const std::filesystem::path corpus_dir =
      opt->corpus.empty() ? default_corpus_dir() : std::filesystem::path(opt->corpus);
  Corpus corpus;
  std::vector<Prepared> calls;
  std::string why;
  try {
    corpus = Corpus::load(corpus_dir);
    for (const CallRow& r : rows) {
      std::optional<Prepared> p = prepare(corpus, r, why);
      if (!p) throw std::runtime_error(r.id() + ": " + why);
      calls.push_back(std::move(*p));
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "callcount: %s\n", e.what());
    return 1;
  }
  // One CPU; servers started at the higher priority (their threads inherit it), then this
  // thread, the client, drops to the lower one.
  std::string realtime = "off";
  if (opt->realtime) {
    why = pin(opt->cpu);
    if (why.empty()) why = set_priority(kServerPriority);
    if (!why.empty()) {
      std::fprintf(stderr, "callcount: %s\n", why.c_str());
      return 2;
    }
    realtime = "SCHED_FIFO servers " + std::to_string(kServerPriority) + " > client " +
               std::to_string(kClientPriority) + ", cpu " + std::to_string(sched_getcpu());
  }
  CallcountServers servers(corpus_dir, opt->plants);
  std::vector<RowResult> results;
  try {
    for (const CallRow& r : rows) servers.start_for(r);
    if (opt->realtime) set_priority(kClientPriority);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      std::optional<RowResult> got = run_row(rows[i], calls[i], servers, *opt, why);
      if (!got) throw std::runtime_error(rows[i].id() + ": " + why);
      results.push_back(std::move(*got));
      std::fprintf(stderr, "callcount: %zu/%zu %s\n", i + 1, rows.size(), rows[i].id().c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "callcount: %s\n", e.what());
    return 1;
  }
  if (!opt->out.empty()) {
    std::FILE* f = std::fopen(opt->out.c_str(), "w");
    const std::string json =
        to_json(results, *opt, std::filesystem::absolute(argv[0]).string(), realtime);
    if (f == nullptr || std::fwrite(json.data(), 1, json.size(), f) != json.size() ||
        std::fclose(f) != 0) {
      std::fprintf(stderr, "callcount: cannot write %s\n", opt->out.c_str());
      return 1;
    }
  }
  return 0;
}
