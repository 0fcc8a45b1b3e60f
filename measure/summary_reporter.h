// The display reporter of the benchmark executables: a progress line instead of thousands of
// table rows (the full data goes to --benchmark_out JSON, unmodified), errors as they happen,
// coefficient-of-variation warnings, and a one-screen summary at the end.
#pragma once

#include <benchmark/benchmark.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace sb::bench {

// One benchmark's result as the summary needs it.
struct RunResult {
  double ns_per_iter = 0;  // real time per iteration (median when repeated)
  double cv = -1;          // coefficient of variation across repetitions, -1 when not repeated
  std::map<std::string, double> counters;  // user counters of the (median) run
  std::vector<double> samples;             // real time per iteration of each repetition (ns)
};

class SummaryReporter : public benchmark::ConsoleReporter {
 public:
  // total: how many benchmarks will run (for the progress line); verbose: print GB's table.
  SummaryReporter(std::size_t total, bool verbose);

  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

  // Called at Finalize with every result by benchmark name, to print the summary.
  void on_finish(std::function<void(const std::map<std::string, RunResult>&)> f) {
    on_finish_ = std::move(f);
  }
  std::size_t errors() const { return errors_; }
  // Repetitions skipped at the deadline (set_benchmark_deadline), not errors.
  std::size_t cut() const { return cut_; }

 private:
  std::size_t total_;                                  // benchmarks registered
  bool verbose_;                                       // print Google Benchmark's own table too
  std::size_t done_ = 0;                               // benchmarks reported so far
  std::size_t errors_ = 0;                             // benchmarks skipped with an error
  std::size_t cut_ = 0;                                // repetitions cut at the deadline
  std::size_t last_percent_ = 101;                     // last progress percentage printed
  std::map<std::string, RunResult> results_;           // by benchmark name
  std::vector<std::pair<std::string, double>> noisy_;  // benchmarks with cv above 5%
  std::function<void(const std::map<std::string, RunResult>&)> on_finish_;  // summary printer
};

}  // namespace sb::bench
