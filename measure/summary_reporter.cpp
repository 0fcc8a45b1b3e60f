#include "measure/summary_reporter.h"

#include <algorithm>
#include <cstdio>

#include "harness/run_context.h"
#include "measure/adapter_benchmarks.h"

namespace sb::bench {

namespace {

double to_ns(double t, benchmark::TimeUnit unit) {
  switch (unit) {
    case benchmark::kNanosecond:
      return t;
    case benchmark::kMicrosecond:
      return t * 1e3;
    case benchmark::kMillisecond:
      return t * 1e6;
    case benchmark::kSecond:
      return t * 1e9;
  }
  return t;
}

}  // namespace

SummaryReporter::SummaryReporter(std::size_t total, bool verbose)
    : total_(total), verbose_(verbose) {}

bool SummaryReporter::ReportContext(const Context& context) {
  if (verbose_) return ConsoleReporter::ReportContext(context);
  // Compact: the full context (every library version and adapter row) is in the JSON file.
  std::fprintf(stderr, "%s on %d × %.0f MHz CPU, load average %.2f; machine %s, git %s\n",
               Context::executable_name, context.cpu_info.num_cpus,
               context.cpu_info.cycles_per_second / 1e6,
               context.cpu_info.load_avg.empty() ? 0.0 : context.cpu_info.load_avg[0],
               machine_id().c_str(), git_sha().c_str());
  return true;
}

void SummaryReporter::ReportRuns(const std::vector<Run>& runs) {
  if (verbose_) ConsoleReporter::ReportRuns(runs);
  for (const Run& run : runs) {
    // Keyed without Google Benchmark's /repeats:N and /iterations:N, so the summaries find
    // headline benchmarks (per-benchmark repetitions) and fixed-iteration ones (the classic and
    // messaging tables, tools/icount's runs) by the name they registered.
    benchmark::BenchmarkName plain = run.run_name;
    plain.repetitions.clear();
    plain.iterations.clear();
    const std::string name = plain.str();
    if (run.error_occurred && run.error_message == kCutByDeadline) {
      ++cut_;  // not run: the deadline had passed (the caller says so once)
      continue;
    }
    if (run.error_occurred) {
      ++errors_;
      std::fprintf(stderr, "ERROR %s: %s\n", name.c_str(), run.error_message.c_str());
      continue;
    }
    RunResult& r = results_[name];
    if (run.run_type == Run::RT_Iteration) {
      r.samples.push_back(to_ns(run.GetAdjustedRealTime(), run.time_unit));
      // Without repetitions the single run is the result; with them the median replaces it.
      if (run.repetitions <= 1 || r.ns_per_iter == 0) {
        r.ns_per_iter = to_ns(run.GetAdjustedRealTime(), run.time_unit);
        for (const auto& [k, c] : run.counters) r.counters[k] = c.value;
      }
      if (run.repetitions <= 1 || run.repetition_index <= 0) ++done_;
    } else if (run.aggregate_name == "median") {
      r.ns_per_iter = to_ns(run.GetAdjustedRealTime(), run.time_unit);
      for (const auto& [k, c] : run.counters) r.counters[k] = c.value;
    } else if (run.aggregate_name == "cv") {
      r.cv = run.real_accumulated_time;  // a fraction, not a time
      if (r.cv > 0.05) noisy_.emplace_back(name, r.cv);
    }
  }
  const std::size_t percent = total_ == 0 ? 100 : done_ * 100 / total_;
  if (!verbose_ && percent / 5 != last_percent_ / 5) {
    last_percent_ = percent;
    std::fprintf(stderr, "progress: %zu/%zu benchmarks (%zu%%), %zu errors\n", done_, total_,
                 percent, errors_);
  }
}

void SummaryReporter::Finalize() {
  if (verbose_) ConsoleReporter::Finalize();
  std::sort(noisy_.begin(), noisy_.end(),
            [](const auto& a, const auto& b) { return a.second > b.second; });
  if (!noisy_.empty()) {
    std::printf(
        "\nWARNING: %zu benchmarks vary by more than 5%% across repetitions "
        "(coefficient of variation); the noisiest:\n",
        noisy_.size());
    for (std::size_t i = 0; i < noisy_.size() && i < 5; ++i) {
      std::printf("  cv %5.1f%%  %s\n", noisy_[i].second * 100, noisy_[i].first.c_str());
    }
  }
  if (on_finish_) on_finish_(results_);
  if (errors_ > 0)
    std::printf("\n%zu benchmarks were skipped with an error (see above).\n", errors_);
  std::fflush(stdout);
}

}  // namespace sb::bench
