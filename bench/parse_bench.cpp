// parse_bench: every adapter × corpus file × level (parse, walk, decode), with speed-of-light
// floors, direct-call references and the classic 2001 DOM-versus-pull experiment, in one run.
// Benchmark names: level/adapter/family/file, e.g.
// decode/pugixml-dom/soap11-rpc-encoded/getRate.call.
#include <benchmark/benchmark.h>
#include <fmt/core.h>

#include <cmath>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "codecs/family.h"
#include "harness/corpus.h"
#include "harness/encoders.h"
#include "harness/equal_work.h"
#include "harness/run_context.h"
#include "measure/adapter_benchmarks.h"
#include "measure/bench_names.h"
#include "measure/benchmark_filter.h"
#include "measure/planted_slowdown.h"
#include "measure/summary_reporter.h"
#include "parsers/registry.h"

namespace sb::bench {
namespace {

// Command-line options of our own (Google Benchmark's --benchmark_* flags pass through).
struct Options {
  std::string set = "default";  // default | full | sweep | classic
  std::string corpus;           // corpus directory ("" = default_corpus_dir())
  bool pin = true;              // pin to one CPU
  bool verbose = false;         // print Google Benchmark's table as well
  long iterations = 0;          // fixed iterations per benchmark (tools/icount); 0: timed
  int core_repetitions = 5;     // repetitions of the headline benchmarks in the default set
  double tail_min_time = 0;     // seconds per once-run benchmark of the default set; 0: the flag's
};

void print_help() {
  std::printf(
      "parse_bench: parse/walk/decode cost of every parser adapter on the soapbench corpus\n\n"
      "  --set=NAME        default (seed messages at decode; 1KB/64KB/1MB sweep at parse, walk "
      "and\n"
      "                    decode; floors; direct references; classic), full (every corpus file "
      "at\n"
      "                    every level), sweep (every sweep size), classic (2001 DOM vs pull "
      "only)\n"
      "  --corpus=DIR      corpus directory (default: $SOAPBENCH_CORPUS or the source tree's "
      "corpus/)\n"
      "  --no-pin          do not pin to one CPU\n"
      "  --core-repetitions=N  repetitions of the default set's headline benchmarks (5)\n"
      "  --tail-min-time=S     minimum seconds of each once-run benchmark of the default set\n"
      "                        (default: --benchmark_min_time)\n"
      "  --iterations=N    exactly N iterations per benchmark, no repetitions (tools/icount)\n"
      "  --verbose         print Google Benchmark's result table too\n\n"
      "Google Benchmark flags (--benchmark_filter, --benchmark_out, --benchmark_repetitions,\n"
      "--benchmark_min_time in plain seconds, ...) are accepted as usual:\n\n");
  benchmark::PrintDefaultHelp();
}

Options parse_options(int* argc, char** argv) {
  Options o;
  int out = 1;
  for (int i = 1; i < *argc; ++i) {
    std::string_view a = argv[i];
    if (a.starts_with("--set=")) {
      o.set = a.substr(6);
    } else if (a.starts_with("--corpus=")) {
      o.corpus = a.substr(9);
    } else if (a == "--no-pin") {
      o.pin = false;
    } else if (a == "--verbose") {
      o.verbose = true;
    } else if (a.starts_with("--core-repetitions=")) {
      o.core_repetitions = std::atoi(std::string(a.substr(19)).c_str());
    } else if (a.starts_with("--tail-min-time=")) {
      o.tail_min_time = std::atof(std::string(a.substr(16)).c_str());
    } else if (a.starts_with("--iterations=")) {
      o.iterations = std::atol(std::string(a.substr(13)).c_str());
    } else {
      argv[out++] = argv[i];
    }
  }
  *argc = out;
  return o;
}

// The file name part of a benchmark name: "getRate.call".
std::string file_part(const CorpusEntry& e) {
  const std::string n = e.name();
  return n.substr(n.find('/') + 1);
}

// The benchmarks the summary sets side by side, recorded as they are registered (the summary
// never splits a name): the direct-call references with their adapter's parse benchmark, per
// library, and the classic benchmarks with their adapter.
struct Registered {
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> direct;  // lib -> pairs
  std::vector<std::pair<std::string, std::string>> classic;  // (benchmark, adapter)
};

Registered& registered() {
  static Registered r;
  return r;
}

// Holds the bytes of every registered file for the life of the run.
std::deque<std::string>& file_store() {
  static std::deque<std::string> store;
  return store;
}

class Registrar {
 public:
  // tail_min_time: minimum seconds of a benchmark that runs once (0: --benchmark_min_time).
  Registrar(const Corpus& corpus, long iterations, double tail_min_time)
      : corpus_(corpus), iterations_(iterations), tail_min_time_(tail_min_time) {}

  // The entry the benchmarks check against: the manifest's own, or for a folder without a
  // manifest the reference most adapters agree on (harness/equal_work.h), with the adapters
  // that disagree or refuse named on stderr and left out; nullptr when no adapter reads it.
  const CorpusEntry* checked(const CorpusEntry& e) {
    if (e.digest) return &e;
    if (auto it = derived_.find(&e); it != derived_.end()) return it->second.entry.get();
    Derived& d = derived_[&e];
    std::vector<const AdapterEntry*> list;
    for (const AdapterEntry& a : sb::adapters()) {
      if (a.info().format == e.format) list.push_back(&a);
    }
    d.work = check_equal_work(bytes_of(e), list, decode_context(e, nullptr), true);
    if (!d.work.digest) {
      std::fprintf(stderr, "not timed: %s: %s\n", e.path.c_str(), d.work.digest_refusal.c_str());
      return nullptr;
    }
    d.entry = std::make_unique<CorpusEntry>(e);
    d.entry->digest = d.work.digest;
    d.entry->canonical = d.work.canonical;
    d.entry->family = d.work.family ? std::string(rpc::family_name(*d.work.family))
                                    : std::string(format_name(e.format));
    loaded_[d.entry.get()] = loaded_[&e];
    for (const AdapterVerdicts& v : d.work.adapters) {
      if (v.decode.wrong) {
        std::fprintf(stderr, "wrong answer: %s: %s %s (timed at no level of this message)\n",
                     e.path.c_str(), v.adapter->info().name.c_str(), v.decode.why.c_str());
        continue;
      }
      for (const auto& [level, verdict] : {std::pair{"walk", &v.walk}, {"decode", &v.decode}}) {
        if (!verdict->timed && !(level == std::string_view("decode") && d.work.canonical.empty())) {
          std::fprintf(stderr, "not timed: %s: %s at %s: %s\n", e.path.c_str(),
                       v.adapter->info().name.c_str(), level, verdict->why.c_str());
        }
      }
    }
    return d.entry.get();
  }

  // Registers level × every adapter of the file's format, plus the file's floors (once).
  void adapters(const CorpusEntry& e, Level level) {
    const std::string& bytes = bytes_of(e);
    const EqualWork* work = work_of(e);
    if (work != nullptr && level == Level::decode && work->canonical.empty()) return;
    for (const AdapterEntry& a : sb::adapters()) {
      if (a.info().format != e.format) continue;
      if (work != nullptr && !work->verdict(a, level)->timed) continue;
      // A wrong answer keeps an adapter out of every level of the message (said in checked()).
      if (work != nullptr && work->verdict(a, Level::decode)->wrong) continue;
      const std::string name =
          level_bench(level_name(level), a.info().name, e.family, file_part(e));
      if (!names_.insert(name).second) continue;
      fixed(benchmark::RegisterBenchmark(name.c_str(),
                                         [name, level, &a, &e, &bytes](benchmark::State& s) {
                                           adapter_benchmark(s, name, level, a, e, bytes);
                                         }));
    }
    floors(e);
  }

  // The direct-call references for the libraries that have one.
  void direct(const CorpusEntry& e) {
    if (e.format != Format::xml) return;
    const std::string& bytes = bytes_of(e);
    for (const char* lib : {"pugixml", "libxml2"}) {
      if (find_adapter(std::string(lib) + "/dom") == nullptr) continue;
      const std::string name =
          level_bench("parse", std::string(lib) + "-dom-direct", e.family, file_part(e));
      if (!names_.insert(name).second) continue;
      registered().direct[lib].emplace_back(
          name, level_bench("parse", std::string(lib) + "/dom", e.family, file_part(e)));
      const std::string library = lib;
      fixed(benchmark::RegisterBenchmark(name.c_str(),
                                         [name, library, &e, &bytes](benchmark::State& s) {
                                           direct_benchmark(s, name, library, e, bytes);
                                         }));
    }
  }

  // The 2001 experiment: the getRate envelope decoded 100,000 times by every XML adapter.
  void classic() {
    const CorpusEntry* e = corpus_.find("soap11-rpc-encoded/getRate.call.xml");
    if (e == nullptr) return;
    const std::string& bytes = bytes_of(*e);
    for (const AdapterEntry& a : sb::adapters()) {
      if (a.info().format != Format::xml || a.info().digest_exempt) continue;
      const std::string name = level_bench("classic", a.info().name, e->family, file_part(*e));
      benchmark::RegisterBenchmark(name.c_str(),
                                   [name, &a, e, &bytes](benchmark::State& s) {
                                     adapter_benchmark(s, name, Level::decode, a, *e, bytes);
                                   })
          ->Iterations(100000)
          ->Unit(benchmark::kMicrosecond);
      names_.insert(name);
      registered().classic.emplace_back(name, name_field(a.info().name));
    }
  }

  // Every encoder writing the message of a corpus response (or fault) in its family.
  void encoders(const CorpusEntry& e) {
    const auto family = rpc::family_from_name(e.family);
    const AdapterEntry* reader = find_adapter(default_adapter(e.format == Format::json));
    if (!family || reader == nullptr) return;
    // The message to write: the response decoded once, here, with the reference reader.
    rpc::Message message;
    {
      MessageBuffer buf(bytes_of(e));
      rpc::DecodeContext ctx;
      ctx.method = e.operation;
      DecodeReport report;
      if (!reader->make({})->decode(buf, ctx, message, report).ok()) return;
    }
    messages_.push_back(std::move(message));
    const rpc::Message& m = messages_.back();
    for (const EncoderEntry& enc : sb::encoders()) {
      if (!enc.supports(*family)) continue;
      const std::string name =
          bench_name(name_pattern::encode, fmt::arg("encoder", name_field(enc.name)),
                     fmt::arg("family", e.family), fmt::arg("file", file_part(e)));
      if (!names_.insert(name).second) continue;
      fixed(benchmark::RegisterBenchmark(name.c_str(),
                                         [name, &enc, &m, &e, reader](benchmark::State& s) {
                                           encode_benchmark(s, name, enc, m, e, *reader);
                                         }));
    }
  }

  std::size_t count() const { return names_.size(); }

  // Repetitions for the benchmarks registered next (0 or 1: Google Benchmark's default).
  void set_repetitions(int n) { repetitions_ = n; }

 private:
  void floors(const CorpusEntry& e) {
    const std::string& bytes = bytes_of(e);
    auto scan = [&](const char* kind) {
      return bench_name(name_pattern::scan, fmt::arg("scan", kind), fmt::arg("family", e.family),
                        fmt::arg("file", file_part(e)));
    };
    const std::string copy_name = scan("memcpy");
    if (names_.insert(copy_name).second) {
      fixed(benchmark::RegisterBenchmark(
          copy_name.c_str(),
          [copy_name, &bytes](benchmark::State& s) { memcpy_floor(s, copy_name, bytes); }));
    }
    const std::string scan_name = scan("memchr");
    if (names_.insert(scan_name).second) {
      fixed(benchmark::RegisterBenchmark(
          scan_name.c_str(),
          [scan_name, &e, &bytes](benchmark::State& s) { memchr_floor(s, scan_name, e, bytes); }));
    }
  }

  // In fixed-iteration mode every benchmark runs exactly iterations_ times; otherwise the
  // headline benchmarks get their repetitions and the long tail its shorter minimum time.
  void fixed(benchmark::internal::Benchmark* b) const {
    if (iterations_ > 0) {
      b->Iterations(iterations_);
    } else if (repetitions_ > 1) {
      b->Repetitions(repetitions_);
    } else if (tail_min_time_ > 0) {
      b->MinTime(tail_min_time_);
    }
  }

  // The equal-work verdicts of a derived entry (checked()), else nullptr.
  const EqualWork* work_of(const CorpusEntry& e) const {
    for (const auto& [original, d] : derived_) {
      if (d.entry.get() == &e) return &d.work;
    }
    return nullptr;
  }

  const std::string& bytes_of(const CorpusEntry& e) {
    auto it = loaded_.find(&e);
    if (it != loaded_.end()) return *it->second;
    file_store().push_back(corpus_.read(e));
    loaded_[&e] = &file_store().back();
    return file_store().back();
  }

  const Corpus& corpus_;         // the manifest and files
  long iterations_;              // fixed iterations, 0: timed
  double tail_min_time_;         // minimum seconds of a once-run benchmark, 0: the flag's
  int repetitions_ = 0;          // repetitions for the next registrations
  std::set<std::string> names_;  // registered benchmark names
  std::map<const CorpusEntry*, const std::string*> loaded_;  // file bytes, read once
  std::deque<rpc::Message> messages_;                        // encode benchmarks' inputs
  // A manifest-less file's reference entry and the adapters' verdicts on it.
  struct Derived {
    std::unique_ptr<CorpusEntry> entry;  // the file's entry with the agreed Digest and value
    EqualWork work;                      // who agreed, who was left out
  };
  std::map<const CorpusEntry*, Derived> derived_;  // by the corpus's entry
};

bool default_sweep_tag(const std::string& tag) {
  return tag == "1KB" || tag == "64KB" || tag == "1MB";
}

void register_set(Registrar& r, const Corpus& corpus, const std::string& set,
                  int core_repetitions) {
  for (const CorpusEntry& original : corpus.entries()) {
    if (original.hostile) continue;
    const CorpusEntry* checked = r.checked(original);
    if (checked == nullptr) continue;
    const CorpusEntry& e = *checked;
    // A folder without a manifest holds the user's own messages: seed messages, every set.
    const bool seed = e.in_set("seed") || e.sets.empty();
    const bool respond_sweep =
        e.in_set("sweep") && e.operation == "respond" && e.direction == "response";
    if (set == "full") {
      for (Level l : {Level::parse, Level::walk, Level::decode}) r.adapters(e, l);
      r.direct(e);
      if (seed && !e.direction.empty() && e.direction != "call") r.encoders(e);
    } else if (set == "sweep") {
      if (respond_sweep || (e.in_set("sweep") && e.direction == "call")) {
        for (Level l : {Level::parse, Level::decode}) r.adapters(e, l);
        r.direct(e);
      }
    } else if (set == "default") {
      // The headline benchmarks (the summary's representative message and the size sweep)
      // are repeated; the long tail of seed messages runs once.
      const bool sweep = respond_sweep && default_sweep_tag(e.tag);
      r.set_repetitions(sweep || (seed && e.name() == e.family + "/complex.call") ? core_repetitions
                                                                                  : 0);
      if (seed) r.adapters(e, Level::decode);
      if (seed && !e.direction.empty() && e.direction != "call") r.encoders(e);
      if (sweep) {
        for (Level l : {Level::parse, Level::walk, Level::decode}) r.adapters(e, l);
        r.direct(e);
      }
      r.set_repetitions(0);
    }
  }
  r.classic();
}

using Results = std::map<std::string, RunResult>;

// Median ns per iteration of `name`, 0 when it did not run.
double time_of(const Results& results, const std::string& name) {
  auto it = results.find(name);
  return it == results.end() ? 0.0 : it->second.ns_per_iter;
}

// Decode of the representative message per family, relative to the family's fastest adapter;
// only the families where it ran (a corpus of one's own may have none).
void print_representative(const Results& results) {
  const char* kFile = "complex.call";
  std::vector<std::string> families;  // corpus order (codecs/family.h), those that ran
  std::map<std::string, double> fastest;
  for (rpc::Family f : rpc::kAllFamilies) {
    const std::string fam(rpc::family_name(f));
    double best = 0;
    for (const AdapterEntry& a : adapters()) {
      const double t = time_of(results, level_bench("decode", a.info().name, fam, kFile));
      if (t > 0 && (best == 0 || t < best)) best = t;
    }
    if (best > 0) {
      families.push_back(fam);
      fastest[fam] = best;
    }
  }
  if (families.empty()) return;
  std::printf(
      "\n== decode of %s: time relative to the fastest adapter (1.00), (× the memcpy floor) ==\n",
      kFile);
  std::printf("%-22s", "adapter");
  for (const std::string& f : families) std::printf(" %18.18s", f.c_str());
  std::printf("\n");
  for (const AdapterEntry& a : adapters()) {
    const std::string an = name_field(a.info().name);
    bool any = false;
    std::string line = fmt::format("{:<22}", an);
    for (const std::string& f : families) {
      const double t = time_of(results, level_bench("decode", an, f, kFile));
      const double floor =
          time_of(results, bench_name(name_pattern::scan, fmt::arg("scan", "memcpy"),
                                      fmt::arg("family", f), fmt::arg("file", kFile)));
      if (t > 0) {
        any = true;
        line +=
            fmt::format("     {:>6.2f} ({:>4.0f}×)", t / fastest[f], floor > 0 ? t / floor : 0.0);
      } else {
        line += fmt::format(" {:>18}", "-");
      }
    }
    if (any) std::printf("%s\n", line.c_str());
  }
  std::printf("%-22s", "fastest (µs)");
  for (const std::string& f : families) std::printf(" %18.2f", fastest[f] / 1000);
  std::printf("\n");
}

// The 2001 experiment.
void print_classic(const Results& results) {
  std::vector<std::pair<double, std::string>> classic;
  for (const auto& [name, adapter] : registered().classic) {
    auto it = results.find(name);
    if (it != results.end()) classic.emplace_back(it->second.ns_per_iter, adapter);
  }
  std::sort(classic.begin(), classic.end());
  if (classic.empty()) return;
  std::printf(
      "\n== 2001 DOM vs pull, now: getRate envelope decoded 100,000 times (2001: 740 µs DOM, "
      "150 µs pull, 450 MHz) ==\n");
  std::printf("%-22s %10s %12s %14s %14s\n", "adapter", "µs/iter", "iter/s", "× faster DOM",
              "× faster pull");
  for (const auto& [ns, an] : classic) {
    std::printf("%-22s %10.2f %12.0f %14.0f %14.0f\n", an.c_str(), ns / 1000, 1e9 / ns, 740e3 / ns,
                150e3 / ns);
  }
}

// Adapter overhead over direct library calls, parse level, same files: the geometric mean of
// adapter ÷ direct, with the range, so that one odd file (or one noisy run) shows as such.
void print_overhead(const Results& results) {
  for (const char* lib : {"pugixml", "libxml2"}) {
    std::vector<double> ratios;
    for (const auto& [direct, adapter] : registered().direct[lib]) {
      const double direct_time = time_of(results, direct);
      const double adapter_time = time_of(results, adapter);
      if (adapter_time > 0 && direct_time > 0) ratios.push_back(adapter_time / direct_time);
    }
    if (ratios.empty()) continue;
    double log_sum = 0;
    for (double x : ratios) log_sum += std::log(x);
    const auto [lo, hi] = std::minmax_element(ratios.begin(), ratios.end());
    std::printf(
        "\nadapter overhead, %s/dom vs direct calls (parse level, geometric mean of %zu files): "
        "%+.1f%% (per file %+.1f%% to %+.1f%%; timings of one run each: compare instruction "
        "counts, tools/icount, for a claim)",
        lib, ratios.size(), (std::exp(log_sum / static_cast<double>(ratios.size())) - 1) * 100,
        (*lo - 1) * 100, (*hi - 1) * 100);
  }
  std::printf("\n");
}

// The one-screen summary printed after the run.
void print_summary(const Results& results) {
  print_representative(results);
  print_classic(results);
  print_overhead(results);
}

}  // namespace
}  // namespace sb::bench

int main(int argc, char** argv) {
  using namespace sb;
  using namespace sb::bench;
  Options opt = parse_options(&argc, argv);
  benchmark::Initialize(&argc, argv, print_help);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  use_linear_filter();
  if (opt.set != "default" && opt.set != "full" && opt.set != "sweep" && opt.set != "classic") {
    std::fprintf(stderr, "parse_bench: unknown --set=%s (default, full, sweep, classic)\n",
                 opt.set.c_str());
    return 1;
  }
  Corpus corpus;
  try {
    corpus =
        Corpus::load(opt.corpus.empty() ? default_corpus_dir() : std::filesystem::path(opt.corpus));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "parse_bench: %s\n", e.what());
    return 1;
  }
  for (const std::string& note : corpus.notes())
    std::fprintf(stderr, "skipped: %s\n", note.c_str());
  for (const auto& [k, v] : run_context()) benchmark::AddCustomContext(k, v);
  benchmark::AddCustomContext("bench_set", opt.set);
  // A calibration run says so in its results (measure/planted_slowdown.h).
  if (const std::string planted = planted_slowdown_setting(); !planted.empty())
    benchmark::AddCustomContext("planted_slowdown", planted);
  if (opt.pin) {
    const int cpu = pin_to_one_cpu();
    benchmark::AddCustomContext("pinned_cpu", cpu >= 0 ? std::to_string(cpu) : "none");
  }
  Registrar registrar(corpus, opt.iterations, opt.set == "default" ? opt.tail_min_time : 0);
  register_set(registrar, corpus, opt.set, opt.core_repetitions);
  if (opt.iterations > 0)
    benchmark::AddCustomContext("fixed_iterations", std::to_string(opt.iterations));
  SummaryReporter reporter(registrar.count(), opt.verbose);
  reporter.on_finish(print_summary);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return reporter.errors() > 0 ? 1 : 0;
}
