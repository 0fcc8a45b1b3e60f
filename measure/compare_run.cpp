// `soapbench compare`: plan (messages, WSDL, equal work), then time or count, then the table.
#include "measure/compare_run.h"

#include <benchmark/benchmark.h>
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>

#include "codecs/family.h"
#include "harness/run_context.h"
#include "harness/wsdl_file.h"
#include "measure/adapter_benchmarks.h"
#include "measure/bench_names.h"
#include "measure/benchmark_filter.h"
#include "measure/compare_icount.h"
#include "measure/compare_plan.h"
#include "measure/compare_table.h"
#include "measure/summary_reporter.h"

namespace sb::bench {

namespace {

using Clock = std::chrono::steady_clock;

bool wants(const CompareOptions& o, Level level) {
  return o.levels.empty() || std::find(o.levels.begin(), o.levels.end(), level) != o.levels.end();
}

// The adapters compared on a message of `format`: the named ones of that format, else all.
std::vector<const AdapterEntry*> adapters_for(const CompareOptions& o, Format format) {
  std::vector<const AdapterEntry*> out;
  for (const AdapterEntry& a : adapters()) {
    if (a.info().format != format) continue;
    if (!o.parsers.empty() &&
        std::find(o.parsers.begin(), o.parsers.end(), a.info().name) == o.parsers.end()) {
      continue;
    }
    out.push_back(&a);
  }
  return out;
}

// Names every --parser that is no adapter of this build.
void check_parsers(const CompareOptions& o) {
  for (const std::string& p : o.parsers) {
    if (find_adapter(p) == nullptr) {
      throw std::runtime_error("--parser: no adapter named '" + p + "' (see soapbench list)");
    }
  }
}

// The reference the benchmark body checks, the timed benchmarks and the left-out adapters.
void settle(PlannedFile& f, const CompareOptions& o, bool decode_wanted) {
  const EqualWork& w = f.work;
  f.reference = f.file.entry;
  f.reference.path = f.file.label;
  f.reference.digest = w.digest;
  f.reference.canonical = w.canonical;
  f.reference.canonical_sha256.clear();
  if (w.family) f.reference.family = std::string(rpc::family_name(*w.family));
  f.family = !f.reference.family.empty() ? f.reference.family
                                         : std::string(format_name(f.file.entry.format));
  if (!w.digest) {
    f.level_notes.push_back("not read by any adapter: " + w.digest_refusal);
    return;
  }
  if (decode_wanted && w.canonical.empty()) {
    f.level_notes.push_back("decode: no adapter decodes it: " + w.decode_refusal);
  }
  for (const AdapterVerdicts& v : w.adapters) {
    for (Level level : {Level::parse, Level::walk, Level::decode}) {
      if (!wants(o, level) || (level == Level::decode && w.canonical.empty())) continue;
      // An adapter whose answer is wrong is timed at no level of this message: its parse or
      // walk number must not rank where its answer is wrong (docs/architecture.md).
      const LevelVerdict& verdict = level == Level::decode || v.decode.wrong ? v.decode : v.walk;
      if (!verdict.timed) {
        // Said once: parse and walk share the walk verdict (at the first of them); a wrong
        // answer is decode's (at the first level wanted when decode is not).
        const bool said = v.decode.wrong ? level != (wants(o, Level::decode)  ? Level::decode
                                                     : wants(o, Level::parse) ? Level::parse
                                                                              : Level::walk)
                                         : level == Level::walk && wants(o, Level::parse);
        if (!said) f.left_out.push_back({v.adapter, level, verdict.why, verdict.wrong});
        continue;
      }
      const std::string name =
          level_bench(level_name(level), v.adapter->info().name, f.family, f.file.label);
      f.timed.push_back({name, level, v.adapter, level == Level::decode ? "" : verdict.flag});
    }
  }
}

// Equal work for every message, with a progress line every two seconds.
void check_all(ComparePlan& plan, const CompareOptions& o) {
  const bool decode = wants(o, Level::decode);
  Clock::time_point last = Clock::now();
  for (std::size_t i = 0; i < plan.files.size(); ++i) {
    PlannedFile& f = plan.files[i];
    const std::vector<const AdapterEntry*> list = adapters_for(o, f.file.entry.format);
    rpc::DecodeContext ctx =
        decode_context(f.file.entry, plan.contract ? &*plan.contract : nullptr);
    // Decoded whatever the levels asked: an adapter that answers wrong is timed at none.
    f.work = check_equal_work(f.file.bytes, list, ctx, true);
    settle(f, o, decode);
    if (Clock::now() - last > std::chrono::seconds(2)) {
      last = Clock::now();
      std::fprintf(stderr, "equal work: %zu/%zu messages checked\n", i + 1, plan.files.size());
    }
  }
}

std::size_t count_timed(const ComparePlan& plan) {
  std::size_t n = 0;
  for (const PlannedFile& f : plan.files) n += f.timed.size();
  return n;
}

// A benchmark costs its repetitions at the minimum time, plus the first repetition's search for
// an iteration count (about twice the minimum), plus, every time Google Benchmark calls the body
// (about ten times: the search's rounds and each repetition), the body's set-up and answer
// check: about 1.5 times what the equal-work check spent per adapter and message (`setup_s`).
// Measured on 100 corpus messages x every adapter (4,066 benchmarks): README "Your own messages".
constexpr double kCallsPerBenchmark = 10;

// Seconds per repetition so that `n` benchmarks of `reps` repetitions fit `seconds`, clamped to
// [0.001, 0.5] s (below that the budget cannot be kept: the estimate printed says so).
double min_time_for(double seconds, std::size_t n, int reps, double setup_s) {
  if (n == 0) return 0.01;
  const double per = seconds / static_cast<double>(n) - kCallsPerBenchmark * 1.5 * setup_s;
  return std::clamp(per / (reps + 2.0), 0.001, 0.5);
}

// The time the run will take at `min_time`, by the same model.
double estimate(std::size_t n, int reps, double min_time, double setup_s) {
  return static_cast<double>(n) * ((reps + 2.0) * min_time + kCallsPerBenchmark * 1.5 * setup_s);
}

// Registers every planned benchmark (the plan outlives the run).
void register_all(const ComparePlan& plan, long iterations) {
  const rpc::Contract* contract = plan.contract ? &*plan.contract : nullptr;
  for (const PlannedFile& f : plan.files) {
    for (const PlannedBenchmark& b : f.timed) {
      benchmark::internal::Benchmark* r =
          benchmark::RegisterBenchmark(b.name.c_str(), [&b, &f, contract](benchmark::State& s) {
            adapter_benchmark(s, b.name, b.level, *b.adapter, f.reference, f.file.bytes, contract);
          });
      if (iterations > 0) r->Iterations(iterations);
    }
  }
}

// What the report's "Your messages" section reads besides the benchmarks (tools/sbtools/
// your_messages.py): per message, its facts, who was left out and why, and flagged work.
void add_plan_context(const ComparePlan& plan, const CompareOptions& o) {
  benchmark::AddCustomContext("bench_set", "compare");
  for (std::size_t i = 0; i < plan.skipped.size(); ++i) {
    benchmark::AddCustomContext("compare_skipped:" + std::to_string(i), plan.skipped[i]);
  }
  std::string wsdl;
  for (const std::string& p : o.wsdl) wsdl += (wsdl.empty() ? "" : ",") + p;
  if (!wsdl.empty()) benchmark::AddCustomContext("compare_wsdl", wsdl);
  for (const PlannedFile& f : plan.files) {
    benchmark::AddCustomContext("compare_file:" + f.file.label,
                                "format=" + std::string(format_name(f.file.entry.format)) +
                                    ";family=" + f.family +
                                    ";bytes=" + std::to_string(f.file.bytes.size()));
    for (const LeftOut& l : f.left_out) {
      benchmark::AddCustomContext(
          "compare_out:" +
              level_bench(level_name(l.level), l.adapter->info().name, f.family, f.file.label),
          l.why);
    }
    for (const PlannedBenchmark& b : f.timed) {
      if (!b.flag.empty()) benchmark::AddCustomContext("compare_flag:" + b.name, b.flag);
    }
    for (std::size_t i = 0; i < f.level_notes.size(); ++i) {
      benchmark::AddCustomContext("compare_note:" + f.file.label + ":" + std::to_string(i),
                                  f.level_notes[i]);
    }
  }
}

// Google Benchmark's own flags for this run, as parse_bench's ctest sets them.
std::vector<std::string> benchmark_flags(const CompareOptions& o, double min_time,
                                         const std::string& json) {
  std::vector<std::string> flags = {"compare"};  // argv[0]: the results' `executable`
  if (o.iterations == 0) {
    flags.push_back(fmt::format("--benchmark_min_time={}", min_time));
    flags.push_back(fmt::format("--benchmark_repetitions={}", o.repetitions));
    flags.push_back("--benchmark_enable_random_interleaving=true");
  }
  if (!json.empty()) {
    flags.push_back("--benchmark_out=" + json);
    flags.push_back("--benchmark_out_format=json");
  }
  return flags;
}

void print_list(const ComparePlan& plan) {
  for (const PlannedFile& f : plan.files) {
    fmt::print("{}  {}  {} bytes\n", f.file.label, format_name(f.file.entry.format),
               f.file.entry.bytes);
  }
}

// `spent`: seconds the command already took (reading, equal work), out of the budget.
int time_plan(ComparePlan& plan, const CompareOptions& o, double spent) {
  const std::size_t n = count_timed(plan);
  if (n == 0) {
    std::fprintf(stderr, "soapbench: compare: nothing to time\n");
    return 1;
  }
  std::size_t pairs = 0;  // (message, adapter) pairs the equal-work check ran
  for (const PlannedFile& f : plan.files) pairs += f.work.adapters.size();
  const double setup_s = spent / static_cast<double>(std::max<std::size_t>(pairs, 1));
  const double min_time =
      o.min_time > 0 ? o.min_time : min_time_for(o.budget - spent, n, o.repetitions, setup_s);
  const std::string json =
      o.json == "-" ? std::string() : (o.json.empty() ? default_compare_json() : o.json);
  if (o.iterations == 0) {
    std::fprintf(stderr,
                 "timing %zu benchmarks (%zu messages), %d repetitions of at least %.3g s each, "
                 "randomly interleaved: about %.0f s%s\n",
                 n, plan.files.size(), o.repetitions, min_time,
                 estimate(n, o.repetitions, min_time, setup_s),
                 o.min_time > 0 ? "" : " (--min-time S for more precision, --budget S)");
  }
  std::vector<std::string> flags = benchmark_flags(o, min_time, json);
  std::vector<char*> argv;
  for (std::string& f : flags) argv.push_back(f.data());
  int argc = static_cast<int>(argv.size());
  benchmark::Initialize(&argc, argv.data());
  use_linear_filter();
  for (const auto& [k, v] : run_context()) benchmark::AddCustomContext(k, v);
  if (o.pin) {
    const int cpu = pin_to_one_cpu();
    benchmark::AddCustomContext("pinned_cpu", cpu >= 0 ? std::to_string(cpu) : "none");
  }
  if (o.iterations > 0)
    benchmark::AddCustomContext("fixed_iterations", std::to_string(o.iterations));
  add_plan_context(plan, o);
  register_all(plan, o.iterations);
  SummaryReporter reporter(n, false);
  reporter.on_finish([&plan](const std::map<std::string, RunResult>& results) {
    print_compare_table(plan, results);
  });
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  if (!json.empty())
    std::fprintf(stderr, "results: %s (tools/results save keeps them)\n", json.c_str());
  return reporter.errors() > 0 ? 1 : 0;
}

}  // namespace

std::string default_compare_json() { return std::string(SB_RESULTS_DIR) + "/compare.json"; }

ComparePlan plan_compare(const CompareOptions& o) {
  check_parsers(o);
  ComparePlan plan;
  if (!o.wsdl.empty()) {
    rpc::WsdlReport report;
    plan.contract = load_wsdl(o.wsdl, report);
    for (const std::string& r : report.refused) plan.wsdl_notes.push_back("refused: " + r);
    for (const std::string& r : report.notes) plan.wsdl_notes.push_back("note: " + r);
  }
  MessageScan scan = scan_messages(o.paths, o.scan);
  plan.skipped = std::move(scan.skipped);
  for (MessageFile& f : scan.files) {
    if (adapters_for(o, f.entry.format).empty()) {
      plan.skipped.push_back(f.label + ": no adapter of " +
                             std::string(format_name(f.entry.format)) + " among --parser");
      continue;
    }
    plan.files.push_back(PlannedFile{std::move(f), {}, {}, {}, {}, {}, {}});
  }
  if (!o.list) check_all(plan, o);
  return plan;
}

int run_compare(const CompareOptions& o) {
  const Clock::time_point start = Clock::now();
  ComparePlan plan;
  try {
    plan = plan_compare(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "soapbench: compare: %s\n", e.what());
    return 1;
  }
  for (const std::string& line : plan.wsdl_notes) std::fprintf(stderr, "wsdl: %s\n", line.c_str());
  for (const std::string& line : plan.skipped) std::fprintf(stderr, "skipped: %s\n", line.c_str());
  if (plan.files.empty()) {
    std::fprintf(stderr, "soapbench: compare: no message to compare\n");
    return 1;
  }
  if (o.list) {
    print_list(plan);
    return 0;
  }
  print_left_out(plan);
  if (o.icount) return count_instructions(plan, o);
  return time_plan(plan, o, std::chrono::duration<double>(Clock::now() - start).count());
}

}  // namespace sb::bench
