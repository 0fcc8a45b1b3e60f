// roundtrip_bench: the same calls as real HTTP round trips (client and server in this process,
// on 127.0.0.1), so parser cost stands beside wire bytes and network time. Per call it reports
// client encode, server decode, dispatch, server encode, client decode (each measured where it
// happens), transport = total − those five, and the bytes each way counted at the socket.
// Names: roundtrip/<variant>/<family>/<parser>/<call>, messaging/<family>/<call> and the raw
// loopback floor roundtrip/floor/<mode>/<bytes> (docs/results.md).
#include <benchmark/benchmark.h>
#include <fmt/core.h>
#include <sched.h>
#include <unistd.h>

#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "bench/floor_wire.h"
#include "harness/answer_check.h"
#include "harness/binary/binary_rpc.h"
#include "harness/client/http_client.h"
#include "harness/client/wire_meter.h"
#include "harness/corpus.h"
#include "harness/peer_process.h"
#include "harness/roundtrip_calls.h"
#include "harness/run_context.h"
#include "harness/server/http_server.h"
#include "measure/bench_names.h"
#include "measure/summary_reporter.h"
#include "parsers/registry.h"

namespace sb::bench {
namespace {

struct Variant {
  const char* name;  // variant part of the benchmark name
  bool tls;          // https
  bool keep_alive;   // one connection for every call
  bool resume;       // TLS: resume the session on reconnect
  int round_trips;   // link model: round trips per call
};

constexpr Variant kVariants[] = {
    {"keepalive", false, true, false, 1},   {"newconn", false, false, false, 2},
    {"tls-keepalive", true, true, true, 1}, {"tls-full", true, false, false, 3},
    {"tls-resumed", true, false, true, 3},
};

// roundtrip_bench's benchmark names (bench/benchmark_names.json's kinds roundtrip, messaging and
// floor; measure/bench_names.h).
std::string roundtrip_name(std::string_view variant, std::string_view family,
                           std::string_view parser, std::string_view call) {
  return bench_name(name_pattern::roundtrip, fmt::arg("variant", variant),
                    fmt::arg("family", family), fmt::arg("parser", name_field(parser)),
                    fmt::arg("call", call));
}

std::string messaging_name(std::string_view stack, std::string_view call) {
  return bench_name(name_pattern::messaging, fmt::arg("stack", stack), fmt::arg("call", call));
}

std::string floor_name(std::string_view mode, std::size_t bytes) {
  return bench_name(name_pattern::floor, fmt::arg("mode", mode), fmt::arg("bytes", bytes));
}

// Servers by (parser, tls), started on first use and kept for the run: one server per parser
// keeps X-Parser headers (and their bytes) off the wire.
class ServerPool {
 public:
  explicit ServerPool(std::filesystem::path corpus_dir) : corpus_dir_(std::move(corpus_dir)) {}

  RpcServer& get(const std::string& parser, bool json, bool tls) {
    const std::string key = parser + (tls ? "|tls" : "");
    auto it = servers_.find(key);
    if (it != servers_.end()) return *it->second;
    ServerConfig cfg;
    cfg.threads = 1;  // one server thread, one client thread: the two cores of a small machine
    if (json) {
      cfg.json_parser = parser;
    } else {
      cfg.parser = parser;
    }
    cfg.tls = tls;
    cfg.corpus_dir = corpus_dir_;
    auto server = std::make_unique<RpcServer>(cfg);
    server->on_request([this](const ServerTiming& t) {
      std::lock_guard<std::mutex> lock(mutex_);
      last_ = t;
    });
    server->start();
    return *servers_.emplace(key, std::move(server)).first->second;
  }

  // The server-side phases of the most recent request (the client calls sequentially).
  ServerTiming last() {
    std::lock_guard<std::mutex> lock(mutex_);
    return last_;
  }

 private:
  std::filesystem::path corpus_dir_;                           // getChain documents
  std::map<std::string, std::unique_ptr<RpcServer>> servers_;  // by parser and TLS
  std::mutex mutex_;                                           // guards last_
  ServerTiming last_;                                          // written by server threads
};

// A prepared call: the request, and what a correct answer looks like.
struct Prepared {
  rpc::Message request;                  // decoded from the corpus (JSON-RPC file: every family)
  std::optional<rpc::Message> expected;  // harness/answer_check.h's; none: the corpus lacks it
};

// Sums over the timed calls.
struct Totals {
  double encode = 0, decode = 0, total = 0, s_decode = 0, dispatch = 0, s_encode = 0;
  double sent = 0, received = 0, connections = 0;
  void add(const CallResult& r, const ServerTiming& s) {
    encode += r.timing.encode_ns;
    decode += r.timing.decode_ns;
    total += r.timing.total_ns;
    s_decode += s.decode_ns;
    dispatch += s.dispatch_ns;
    s_encode += s.encode_ns;
    sent += r.wire.sent;
    received += r.wire.received;
    connections += r.connected ? 1 : 0;
  }
  void add(const CallResult& r) { add(r, ServerTiming{}); }
  void report(benchmark::State& state) const {
    auto avg = [](double v) { return benchmark::Counter(v, benchmark::Counter::kAvgIterations); };
    state.counters["client_encode_ns"] = avg(encode);
    state.counters["server_decode_ns"] = avg(s_decode);
    state.counters["dispatch_ns"] = avg(dispatch);
    state.counters["server_encode_ns"] = avg(s_encode);
    state.counters["client_decode_ns"] = avg(decode);
    state.counters["transport_ns"] = avg(total - encode - decode - s_decode - dispatch - s_encode);
    state.counters["total_ns"] = avg(total);
    state.counters["bytes_sent"] = avg(sent);
    state.counters["bytes_received"] = avg(received);
    state.counters["connections"] = avg(connections);
  }
};

// Checks one response against what the service must answer; "" when right.
std::string check_response(const CallResult& r, const Prepared& p) {
  if (!r.ok) return "call failed: " + r.error;
  if (!p.expected) return "no expected answer: the corpus response is missing or wrong";
  return exact_check(r.response, *p.expected);
}

void http_benchmark(benchmark::State& state, ServerPool& pool, const Variant& v, rpc::Family family,
                    const std::string& parser, const Prepared& p) {
  const bool json = family == rpc::Family::jsonrpc;
  RpcServer& server = pool.get(parser, json, v.tls);
  ClientConfig cfg;
  cfg.url = server.base_url();
  cfg.family = family;
  cfg.parser = parser;
  cfg.keep_alive = v.keep_alive;
  cfg.tls_resume = v.resume;
  RpcClient client(cfg);
  // Correctness first (also warms the connection, TLS session and pools).
  for (int i = 0; i < 2; ++i) {
    const std::string why = check_response(client.call(p.request), p);
    if (!why.empty()) {
      state.SkipWithError(why.c_str());
      return;
    }
  }
  Totals totals;
  for (auto _ : state) {
    CallResult r = client.call(p.request);
    totals.add(r, pool.last());
    benchmark::DoNotOptimize(r);
  }
  totals.report(state);
}

void binary_benchmark(benchmark::State& state, BinaryServer& server, bool keep_alive,
                      const Prepared& p) {
  BinaryClientConfig cfg;
  cfg.port = server.port();
  cfg.keep_alive = keep_alive;
  BinaryClient client(cfg);
  for (int i = 0; i < 2; ++i) {
    const std::string why = check_response(client.call(p.request), p);
    if (!why.empty()) {
      state.SkipWithError(why.c_str());
      return;
    }
  }
  Totals totals;
  for (auto _ : state) {
    CallResult r = client.call(p.request);
    totals.add(r);
    benchmark::DoNotOptimize(r);
  }
  totals.report(state);
}

// The raw loopback floor: a ping-pong of `bytes` with floor_echo (a child process, no framework)
// in one of the wait modes that decide loopback latency on a small VM.
struct FloorMode {
  const char* name;       // <mode> in roundtrip/floor/<mode>/<bytes>
  floor_wire::Wait wait;  // how both ends wait for the other
  bool same_cpu;          // floor_echo and the benchmark thread pinned to one CPU
};

constexpr FloorMode kFloorModes[] = {
    {"blocking", floor_wire::Wait::blocking, false},  // placed as every other round trip
    {"same-cpu", floor_wire::Wait::blocking, true},
    {"busy-poll", floor_wire::Wait::busy_poll, false},
};

// Payload bytes each way, the sizes of the round trips' calls: the binary control's getRate
// (~60 B on the wire in all), an HTTP getRate (~300 B each way), respond.2500B, respond.7500B,
// the binary control's getChain (~60 KB in all) and an XML getChain's ~450 KB response.
constexpr std::size_t kFloorBytes[] = {32, 300, 2500, 7500, 30000, 450000};

// Pins the calling thread to the CPU it runs on, and restores its CPU mask when destroyed.
class ThreadPin {
 public:
  explicit ThreadPin(bool pin) {
    if (!pin || sched_getaffinity(0, sizeof saved_, &saved_) != 0) return;
    cpu_ = sched_getcpu();
    if (cpu_ >= 0 && !floor_wire::pin_to_cpu(cpu_)) cpu_ = -1;
  }
  ~ThreadPin() {
    if (cpu_ >= 0) sched_setaffinity(0, sizeof saved_, &saved_);
  }
  ThreadPin(const ThreadPin&) = delete;
  ThreadPin& operator=(const ThreadPin&) = delete;
  // The CPU pinned to, or -1.
  int cpu() const { return cpu_; }

 private:
  cpu_set_t saved_{};  // the thread's mask before
  int cpu_ = -1;       // the CPU pinned to, -1 when not pinned
};

// The floor_echo child for a mode (one per distinct command line, kept for the run); its port.
std::uint16_t floor_echo_port(const FloorMode& mode, int cpu) {
  std::vector<std::string> args{"--mode", floor_wire::wait_name(mode.wait)};
  if (cpu >= 0) args.insert(args.end(), {"--cpu", std::to_string(cpu)});
  const std::string& url = peers::peer_url(SB_FLOOR_ECHO_PATH, args);
  return static_cast<std::uint16_t>(std::stoi(url.substr(url.rfind(':') + 1)));
}

void floor_benchmark(benchmark::State& state, const FloorMode& mode, std::size_t bytes) {
  using namespace std::chrono;
  const ThreadPin pin(mode.same_cpu);
  if (mode.same_cpu && pin.cpu() < 0) return state.SkipWithError("cannot pin to a CPU");
  int fd = -1;
  try {
    fd = floor_wire::connect_loopback(floor_echo_port(mode, pin.cpu()), seconds(30));
  } catch (const std::exception& e) {
    return state.SkipWithError(e.what());
  }
  if (fd < 0) return state.SkipWithError("cannot connect to floor_echo");
  const std::string frame = floor_wire::make_frame(bytes);
  std::string echo;
  auto ping = [&] {
    return floor_wire::send_all(fd, frame, mode.wait, seconds(30)) &&
           floor_wire::recv_frame(fd, echo, mode.wait, bytes, seconds(30));
  };
  for (int i = 0; i < 2; ++i) {  // the echo is checked first (and the connection warmed)
    if (!ping() || echo != frame) {
      ::close(fd);
      return state.SkipWithError("floor_echo did not echo the message");
    }
  }
  WireMeter meter;  // over the whole loop: no counter reads between the messages
  meter.start(fd);
  double total = 0;
  for (auto _ : state) {
    const auto t0 = steady_clock::now();
    if (!ping()) {
      state.SkipWithError("floor_echo connection lost");
      break;
    }
    total += static_cast<double>(duration_cast<nanoseconds>(steady_clock::now() - t0).count());
  }
  const SocketBytes wire = meter.delta(fd);
  ::close(fd);
  auto avg = [](double v) { return benchmark::Counter(v, benchmark::Counter::kAvgIterations); };
  state.counters["total_ns"] = avg(total);
  state.counters["bytes_sent"] = avg(static_cast<double>(wire.sent));
  state.counters["bytes_received"] = avg(static_cast<double>(wire.received));
}

struct Options {
  std::string set = "default";  // default | full
  std::string corpus;           // corpus directory
  bool verbose = false;         // Google Benchmark's table too
  int core_repetitions = 5;     // repetitions of the headline call in the default set
};

// The call the report's headline claims rest on (round trip per family, parser share): its
// keep-alive benchmarks run core_repetitions times in the default set, the rest once.
constexpr std::string_view kHeadlineCall = "getRate";

// Gives the headline call's keep-alive benchmarks their repetitions in the default set (Google
// Benchmark then appends /repeats:N to the name, which the tools strip when they pair results).
benchmark::internal::Benchmark* headline(benchmark::internal::Benchmark* b, const Options& opt,
                                         std::string_view call, std::string_view variant) {
  if (opt.set == "default" && call == kHeadlineCall && variant == "keepalive" &&
      opt.core_repetitions > 1) {
    b->Repetitions(opt.core_repetitions);
  }
  return b;
}

void print_help() {
  std::printf(
      "roundtrip_bench: real HTTP round trips per family × parser × call, with per-phase cost and\n"
      "socket-level wire bytes; a length-prefixed binary TCP control; the classic messaging "
      "table;\nthe raw loopback floor (a ping-pong with floor_echo, a child process)\n\n"
      "  --set=NAME     default (every parser keep-alive; connection/TLS variants for the default\n"
      "                 parsers; binary control; messaging; the floor, its same-cpu and busy-poll\n"
      "                 modes at the two smallest sizes) or full (every variant for every parser,\n"
      "                 every floor mode at every size)\n"
      "  --corpus=DIR   corpus directory (default: $SOAPBENCH_CORPUS or the source tree's "
      "corpus/)\n"
      "  --core-repetitions=N  repetitions of the headline call (getRate, keep-alive) in the "
      "default set (5)\n"
      "  --verbose      print Google Benchmark's table too\n\n");
  benchmark::PrintDefaultHelp();
}

// A counter of a finished benchmark, 0 when it or the counter is missing.
double result_counter(const std::map<std::string, RunResult>& results, const std::string& name,
                      const char* key) {
  auto it = results.find(name);
  if (it == results.end()) return 0;
  auto c = it->second.counters.find(key);
  return c == it->second.counters.end() ? 0 : c->second;
}

// The classic messaging table: µs and wire bytes per call for every stack this run has.
void print_messaging(const std::map<std::string, RunResult>& results) {
  std::printf(
      "\n== the classic messaging table: 5,000 keep-alive calls each (binary-newconn: a new TCP "
      "connection per call), µs and bytes per call; CORBA and gRPC are stacks_bench rows ==\n");
  std::printf("%-20s", "stack");
  for (const auto& [call, stem] : messaging_calls()) std::printf(" %13s µs %8s", call.c_str(), "B");
  std::printf("\n");
  std::vector<std::string> stacks;
  for (rpc::Family f : rpc::kAllFamilies) stacks.emplace_back(rpc::family_name(f));
  stacks.insert(stacks.end(), {"binary", "binary-newconn"});
  for (const std::string& stack : stacks) {
    std::printf("%-20s", stack.c_str());
    for (const auto& [call, stem] : messaging_calls()) {
      const std::string n = messaging_name(stack, call);
      std::printf(
          " %16.1f %8.0f", result_counter(results, n, "total_ns") / 1e3,
          result_counter(results, n, "bytes_sent") + result_counter(results, n, "bytes_received"));
    }
    std::printf("\n");
  }
}

// The raw loopback floor per mode and size, and the binary control against it.
void print_floor(const std::map<std::string, RunResult>& results) {
  std::printf("\n== the raw loopback floor: µs per ping-pong (floor_echo, no framework) ==\n");
  std::printf("%-10s", "mode");
  for (std::size_t bytes : kFloorBytes) std::printf(" %10zu B", bytes);
  std::printf("\n");
  for (const FloorMode& mode : kFloorModes) {
    std::printf("%-10s", mode.name);
    for (std::size_t bytes : kFloorBytes) {
      const std::string n = floor_name(mode.name, bytes);
      std::printf(" %12.1f", result_counter(results, n, "total_ns") / 1e3);
    }
    std::printf("\n");
  }
  const double floor = result_counter(results, floor_name("blocking", kFloorBytes[0]), "total_ns");
  const double binary =
      result_counter(results, roundtrip_name("keepalive", "binary", "none", "getRate"), "total_ns");
  if (floor > 0 && binary > 0) {
    std::printf("binary control getRate keep-alive: %.1f µs = %.2f× the blocking floor at %zu B\n",
                binary / 1e3, binary / floor, kFloorBytes[0]);
  }
}

void print_summary(const std::map<std::string, RunResult>& results) {
  auto counter = [&](const std::string& name, const char* key) -> double {
    return result_counter(results, name, key);
  };
  auto default_parser = [](rpc::Family f) {
    return std::string(default_adapter(f == rpc::Family::jsonrpc));
  };

  std::printf(
      "\n== one call, keep-alive, default parsers: where the time goes (µs) and the bytes ==\n");
  std::printf("%-20s %-10s %8s %8s %8s %8s %8s %8s %9s %8s %8s\n", "family", "call", "total",
              "c.enc", "s.dec", "disp", "s.enc", "c.dec", "transport", "sent", "recv");
  for (const char* call : {"getRate", "complex", "respond.7500B"}) {
    for (rpc::Family f : rpc::kAllFamilies) {
      const std::string n =
          roundtrip_name("keepalive", rpc::family_name(f), default_parser(f), call);
      if (results.count(n) == 0) continue;
      std::printf("%-20s %-10s %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %9.1f %8.0f %8.0f\n",
                  std::string(rpc::family_name(f)).c_str(), call, counter(n, "total_ns") / 1e3,
                  counter(n, "client_encode_ns") / 1e3, counter(n, "server_decode_ns") / 1e3,
                  counter(n, "dispatch_ns") / 1e3, counter(n, "server_encode_ns") / 1e3,
                  counter(n, "client_decode_ns") / 1e3, counter(n, "transport_ns") / 1e3,
                  counter(n, "bytes_sent"), counter(n, "bytes_received"));
    }
    const std::string b = roundtrip_name("keepalive", "binary", "none", call);
    if (results.count(b) != 0) {
      std::printf("%-20s %-10s %8.1f %8.1f %8s %8s %8s %8.1f %9.1f %8.0f %8.0f\n", "binary", call,
                  counter(b, "total_ns") / 1e3, counter(b, "client_encode_ns") / 1e3, "", "", "",
                  counter(b, "client_decode_ns") / 1e3, counter(b, "transport_ns") / 1e3,
                  counter(b, "bytes_sent"), counter(b, "bytes_received"));
    }
  }

  // The parser's share on other links is tools/report's (tools/sbtools/linkmodel.py, the one
  // place the link model's formula is written); its parameters travel in this file's context.
  std::printf(
      "\n(the parser's share of a call on other links: tools/report, section \"Parser share of a "
      "call per link model\")\n");

  std::printf(
      "\n== connection set-up: getRate over soap11-rpc-encoded, µs per call and bytes ==\n");
  for (const Variant& v : kVariants) {
    const std::string n = roundtrip_name(v.name, "soap11-rpc-encoded", "pugixml/dom", "getRate");
    if (results.count(n) == 0) continue;
    std::printf("%-14s %9.1f µs %8.0f bytes\n", v.name, counter(n, "total_ns") / 1e3,
                counter(n, "bytes_sent") + counter(n, "bytes_received"));
  }
  print_messaging(results);
  print_floor(results);
}

// Takes this program's own flags out of argv (Google Benchmark reads the rest).
Options take_options(int& argc, char** argv) {
  Options opt;
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a.starts_with("--set=")) {
      opt.set = a.substr(6);
    } else if (a.starts_with("--corpus=")) {
      opt.corpus = a.substr(9);
    } else if (a == "--verbose") {
      opt.verbose = true;
    } else if (a.starts_with("--core-repetitions=")) {
      opt.core_repetitions = std::atoi(std::string(a.substr(19)).c_str());
    } else {
      argv[out++] = argv[i];
    }
  }
  argc = out;
  return opt;
}

// Registers the rows of one run; every row's call is prepared (request and expected answer)
// once, before timing, and lives as long as the program (prepared_).
class RowRegistry {
 public:
  RowRegistry(const Corpus& corpus, const Options& opt, ServerPool& pool, BinaryServer& binary)
      : corpus_(corpus), opt_(opt), pool_(pool), binary_(binary) {}

  // The HTTP rows: every adapter per family and call (keep-alive; every variant for the default
  // parser, or for all in the full set), then the classic table's messaging calls.
  void http_rows() {
    for (rpc::Family f : rpc::kAllFamilies) {
      const std::string family(rpc::family_name(f));
      const bool json = f == rpc::Family::jsonrpc;
      const std::string default_parser(default_adapter(json));
      for (const auto& [call, stem] : roundtrip_default_calls()) {
        const Prepared* p = prepare(family, stem);
        if (p == nullptr) continue;
        for (const AdapterEntry& a : adapters()) {
          const AdapterInfo& info = a.info();
          if ((info.format == Format::json) != json || info.digest_exempt) continue;
          for (const Variant& v : kVariants) {
            if (opt_.set == "full" || std::string_view(v.name) == "keepalive" ||
                info.name == default_parser) {
              http_row(v, f, info.name, call, p);
            }
          }
        }
      }
      for (const auto& [call, stem] : messaging_calls()) {
        const Prepared* p = prepare(family, stem);
        if (p == nullptr) continue;
        ServerPool& pool = pool_;
        benchmark::RegisterBenchmark(messaging_name(family, call).c_str(),
                                     [&pool, f, default_parser, p](benchmark::State& s) {
                                       http_benchmark(s, pool, kVariants[0], f, default_parser, *p);
                                     })
            ->Iterations(5000)
            ->Unit(benchmark::kMicrosecond);
        ++count_;
      }
    }
  }

  // The binary control: the same calls as length-prefixed frames over raw TCP, keep-alive and a
  // new connection per call, as round-trip rows and as the classic table's raw socket.
  void binary_rows() {
    BinaryServer& server = binary_;
    for (const auto& [call, stem] : roundtrip_default_calls()) {
      const Prepared* p = prepare("binary", stem);
      if (p == nullptr) continue;
      for (bool keep_alive : {true, false}) {
        const char* variant = keep_alive ? "keepalive" : "newconn";
        const std::string name = roundtrip_name(variant, "binary", "none", call);
        headline(benchmark::RegisterBenchmark(name.c_str(),
                                              [&server, keep_alive, p](benchmark::State& s) {
                                                binary_benchmark(s, server, keep_alive, *p);
                                              }),
                 opt_, call, variant)
            ->Unit(benchmark::kMicrosecond);
        ++count_;
      }
    }
    for (const auto& [call, stem] : messaging_calls()) {
      const Prepared* p = prepare("binary", stem);
      if (p == nullptr) continue;
      for (bool keep_alive : {true, false}) {
        const std::string name = messaging_name(keep_alive ? "binary" : "binary-newconn", call);
        benchmark::RegisterBenchmark(name.c_str(),
                                     [&server, keep_alive, p](benchmark::State& s) {
                                       binary_benchmark(s, server, keep_alive, *p);
                                     })
            ->Iterations(5000)
            ->Unit(benchmark::kMicrosecond);
        ++count_;
      }
    }
  }

  // The raw loopback floor: blocking (every round trip's placement) at every size; the other
  // modes at the two smallest sizes in the default set (busy-polling on a loaded machine costs a
  // scheduler slice per message), at every size in the full set.
  void floor_rows() {
    for (const FloorMode& mode : kFloorModes) {
      for (std::size_t bytes : kFloorBytes) {
        if (opt_.set == "default" && &mode != &kFloorModes[0] && bytes > kFloorBytes[1]) continue;
        const std::string name = floor_name(mode.name, bytes);
        benchmark::RegisterBenchmark(name.c_str(), [&mode, bytes](benchmark::State& s) {
          floor_benchmark(s, mode, bytes);
        })->Unit(benchmark::kMicrosecond);
        ++count_;
      }
    }
  }

  std::size_t count() const { return count_; }

 private:
  // One call for one family: the request and its expected answer, or nullptr (said on stderr).
  const Prepared* prepare(const std::string& family, const std::string& stem) {
    auto request = request_from_corpus(corpus_, stem);
    if (!request) {
      std::fprintf(stderr, "roundtrip_bench: no corpus call %s\n", stem.c_str());
      return nullptr;
    }
    // The binary control answers getChain with the JSON-RPC corpus document.
    const std::string answer_family = family == "binary" ? "jsonrpc" : family;
    prepared_.push_back({*request, expected_answer(corpus_, answer_family, *request)});
    return &prepared_.back();
  }

  void http_row(const Variant& v, rpc::Family f, const std::string& parser, const std::string& call,
                const Prepared* p) {
    const std::string name = roundtrip_name(v.name, rpc::family_name(f), parser, call);
    ServerPool& pool = pool_;
    headline(benchmark::RegisterBenchmark(name.c_str(),
                                          [&pool, &v, f, parser, p](benchmark::State& s) {
                                            http_benchmark(s, pool, v, f, parser, *p);
                                          }),
             opt_, call, v.name)
        ->Unit(benchmark::kMicrosecond);
    ++count_;
  }

  const Corpus& corpus_;           // where the calls come from
  const Options& opt_;             // the set and the headline repetitions
  ServerPool& pool_;               // the HTTP servers the rows call
  BinaryServer& binary_;           // the binary control's server
  std::deque<Prepared> prepared_;  // every row's call (a deque: pointers stay valid)
  std::size_t count_ = 0;          // rows registered
};

}  // namespace
}  // namespace sb::bench

int main(int argc, char** argv) {
  using namespace sb;
  using namespace sb::bench;
  static const Options opt = take_options(argc, argv);
  benchmark::Initialize(&argc, argv, print_help);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  if (opt.set != "default" && opt.set != "full") {
    std::fprintf(stderr, "roundtrip_bench: unknown --set=%s (default, full)\n", opt.set.c_str());
    return 1;
  }
  const std::filesystem::path corpus_dir =
      opt.corpus.empty() ? default_corpus_dir() : std::filesystem::path(opt.corpus);
  static Corpus corpus;
  try {
    corpus = Corpus::load(corpus_dir);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "roundtrip_bench: %s\n", e.what());
    return 1;
  }
  for (const auto& [k, v] : run_context()) benchmark::AddCustomContext(k, v);
  benchmark::AddCustomContext("bench_set", opt.set);
  // Round trips per call of each connection variant: the link model's input (harness/link_model.h).
  for (const Variant& v : kVariants) {
    benchmark::AddCustomContext(std::string("variant:") + v.name,
                                "round_trips=" + std::to_string(v.round_trips));
  }

  static ServerPool pool(corpus_dir);
  BinaryServerConfig binary_cfg;
  binary_cfg.corpus_dir = corpus_dir;
  static BinaryServer binary_server(binary_cfg);
  binary_server.start();
  static RowRegistry rows(corpus, opt, pool, binary_server);
  rows.http_rows();
  rows.binary_rows();
  rows.floor_rows();

  SummaryReporter reporter(rows.count(), opt.verbose);
  reporter.on_finish(print_summary);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return reporter.errors() > 0 ? 1 : 0;
}
