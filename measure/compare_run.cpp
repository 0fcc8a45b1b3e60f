// `soapbench compare`: plan (messages, WSDL, equal work), then time or count, then the table.
#include "measure/compare_run.h"

#include <benchmark/benchmark.h>
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <stdexcept>

#include "codecs/family.h"
#include "harness/run_context.h"
#include "harness/wsdl_file.h"
#include "measure/adapter_benchmarks.h"
#include "measure/bench_names.h"
#include "measure/benchmark_filter.h"
#include "measure/compare_budget.h"
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
      const LevelVerdict& verdict = level == Level::decode ? v.decode : v.walk;
      if (!verdict.timed) {
        // parse and walk share the walk verdict: said once, at the first of them.
        const bool said = level == Level::walk && wants(o, Level::parse);
        if (!said) f.left_out.push_back({v.adapter, level, verdict.why});
        continue;
      }
      const std::string name =
          level_bench(level_name(level), v.adapter->info().name, f.family, f.file.label);
      f.timed.push_back({name, level, v.adapter, level == Level::decode ? "" : verdict.flag});
    }
  }
}

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Equal work for every message, with a progress line every two seconds; the messages not
// reached by `deadline` are cut.
void check_all(ComparePlan& plan, const CompareOptions& o,
               std::optional<Clock::time_point> deadline) {
  const bool decode = wants(o, Level::decode);
  const Clock::time_point start = Clock::now();
  const double cpu_start = thread_cpu_seconds();
  Clock::time_point last = start;
  const auto past_deadline = [&deadline] { return deadline && Clock::now() >= *deadline; };
  for (std::size_t i = 0; i < plan.files.size(); ++i) {
    PlannedFile& f = plan.files[i];
    const std::vector<const AdapterEntry*> list = adapters_for(o, f.file.entry.format);
    rpc::DecodeContext ctx =
        decode_context(f.file.entry, plan.contract ? &*plan.contract : nullptr);
    const Clock::time_point began = Clock::now();
    f.work = check_equal_work(f.file.bytes, list, ctx, decode, past_deadline);
    if (f.work.stopped) {
      plan.skipped.push_back(fmt::format(
          "budget: {} of {} messages not checked nor timed: the budget ended during the "
          "equal-work check of {} ({} of {} adapters run; --budget S for more, --max-files N "
          "for fewer messages)",
          plan.files.size() - i, plan.files.size(), f.file.label, f.work.adapters.size(),
          list.size()));
      plan.files.resize(i);
      break;
    }
    const double runs = static_cast<double>(list.size() * (decode ? 2 : 1));
    f.run_s = std::chrono::duration<double>(Clock::now() - began).count() / std::max(runs, 1.0);
    settle(f, o, decode);
    if (Clock::now() - last > std::chrono::seconds(2)) {
      last = Clock::now();
      std::fprintf(stderr, "equal work: %zu/%zu messages checked\n", i + 1, plan.files.size());
    }
  }
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  if (wall > 0.05)
    plan.cpu_share = std::clamp((thread_cpu_seconds() - cpu_start) / wall, 0.05, 1.0);
}

std::size_t count_timed(const ComparePlan& plan) {
  std::size_t n = 0;
  for (const PlannedFile& f : plan.files) n += f.timed.size();
  return n;
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
std::vector<std::string> benchmark_flags(const CompareOptions& o, double min_time, int repetitions,
                                         const std::string& json) {
  std::vector<std::string> flags = {"compare"};  // argv[0]: the results' `executable`
  if (o.iterations == 0) {
    flags.push_back(fmt::format("--benchmark_min_time={}", min_time));
    flags.push_back(fmt::format("--benchmark_repetitions={}", repetitions));
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

// Whether --budget bounds the run: not with an explicit --min-time or --iterations.
bool budgeted(const CompareOptions& o) { return o.min_time <= 0 && o.iterations == 0; }

// `spent`: seconds the command already took (reading, equal work), out of the budget.
int time_plan(ComparePlan& plan, const CompareOptions& o, double spent) {
  TimingFit fit;
  fit.repetitions = o.repetitions;
  if (budgeted(o)) {
    fit = fit_budget(plan, o.repetitions, o.budget - spent, spent);
    for (const std::string& line : fit.cuts) std::fprintf(stderr, "%s\n", line.c_str());
    set_benchmark_deadline(Clock::now() +
                           std::chrono::duration_cast<Clock::duration>(
                               std::chrono::duration<double>(std::max(o.budget - spent, 0.0))));
  } else {
    fit.min_time = o.min_time;
    fit.estimate_s = timing_estimate(plan, o.repetitions, o.min_time);
  }
  const std::size_t n = count_timed(plan);
  if (n == 0) {
    std::fprintf(stderr, "soapbench: compare: nothing %s\n",
                 fit.cuts.empty() ? "to time" : "timed within --budget");
    return 1;
  }
  const double min_time = fit.min_time;
  const std::string json =
      o.json == "-" ? std::string() : (o.json.empty() ? default_compare_json() : o.json);
  if (o.iterations == 0) {
    std::fprintf(stderr,
                 "timing %zu benchmarks (%zu messages), %d repetitions of at least %.3g s each, "
                 "randomly interleaved: about %.0f s%s\n",
                 n, plan.files.size(), fit.repetitions, min_time, fit.estimate_s,
                 budgeted(o) ? fmt::format(" of the {:.0f} s left of --budget {:g}",
                                           std::max(o.budget - spent, 0.0), o.budget)
                                   .c_str()
                             : "");
  }
  std::vector<std::string> flags = benchmark_flags(o, min_time, fit.repetitions, json);
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
  if (reporter.cut() > 0) {
    std::fprintf(stderr,
                 "budget: %zu repetition%s not run: the budget ended first (the model guessed "
                 "about %.0f s; --budget S for more)\n",
                 reporter.cut(), reporter.cut() == 1 ? "" : "s", fit.estimate_s);
  }
  if (!json.empty()) {
    std::error_code ec;
    const std::string where = std::filesystem::absolute(json, ec).string();
    std::fprintf(stderr, "results: %s (tools/results save %s keeps them)\n", where.c_str(),
                 where.c_str());
  }
  return reporter.errors() > 0 ? 1 : 0;
}

}  // namespace

std::string default_compare_json() { return "compare.json"; }

ComparePlan plan_compare(const CompareOptions& o, std::optional<Clock::time_point> deadline) {
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
    plan.files.push_back(PlannedFile{std::move(f), {}, {}, {}, {}, {}, {}, 0});
  }
  if (!o.list) check_all(plan, o, deadline);
  return plan;
}

int run_compare(const CompareOptions& o) {
  const Clock::time_point start = Clock::now();
  ComparePlan plan;
  try {
    plan = plan_compare(o, budgeted(o)
                               ? std::optional(start + std::chrono::duration_cast<Clock::duration>(
                                                           std::chrono::duration<double>(o.budget)))
                               : std::nullopt);
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
