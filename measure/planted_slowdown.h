// A calibrated slowdown planted into chosen benchmarks, for measuring what a timing gate finds
// (tools/track ab, tools/track_study ab-power): SOAPBENCH_PLANTED_SLOWDOWN=PERCENT:REGEX makes
// every benchmark whose name matches REGEX (std::regex search) do one message's work again on
// PERCENT% of its iterations, spread evenly. The extra work is the benchmark's own (same code,
// same data), so time and instruction counts grow by PERCENT% to within the loop's overhead;
// unset (always, outside such a study) the timed loops are the plain ones.
#pragma once

#include <string>

namespace sb::bench {

// The extra fraction of work for this benchmark: PERCENT / 100 when the variable names it, else
// 0. A malformed value stops the program with a message (a study must not run unplanted).
double planted_slowdown(const std::string& benchmark);

// The variable's value when it is set (for the run's context), else ""; a malformed value stops
// the program with a message (call it at start-up).
std::string planted_slowdown_setting();

// Which iterations redo the work: due() is true on `fraction` of the calls, evenly spread
// (an error accumulator, as Bresenham's line), so N iterations redo exactly floor(N * fraction)
// or one more.
class PlantedSlowdown {
 public:
  explicit PlantedSlowdown(double fraction) : fraction_(fraction) {}
  bool due() {
    owed_ += fraction_;
    if (owed_ < 1.0) return false;
    owed_ -= 1.0;
    return true;
  }

 private:
  double fraction_;    // extra work per iteration, 0.05 for 5%
  double owed_ = 0.0;  // work owed so far, less what was redone
};

}  // namespace sb::bench
