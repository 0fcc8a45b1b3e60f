// A calibrated slowdown planted into chosen benchmarks, for measuring what a timing gate finds
// (tools/track ab, tools/track_study ab-power): SOAPBENCH_PLANTED_SLOWDOWN=PERCENT:REGEX makes
// every benchmark whose name matches REGEX (std::regex search) do one message's work again on
// PERCENT% of its iterations, spread evenly. The extra work is the benchmark's own (same code,
// same data), so time and instruction counts grow by PERCENT% to within the loop's overhead;
// unset (always, outside such a study) the timed loops are the plain ones.
//
// PERCENT 0 is a valid setting that plants nothing: the base side of an A/B carries it, with
// the head's length, because the environment's size moves the initial stack and with it the
// timing of some rows by a few percent (measured: docs/ci.md "The planted slowdown").
#pragma once

#include <optional>
#include <regex>
#include <string>

namespace sb::bench {

struct PlantedSetting {
  double fraction = 0.0;  // 0.05 for 5%; 0: nothing planted
  std::regex which;       // the benchmarks it applies to
};

// Parses PERCENT:REGEX (PERCENT a number from 0 to 1000). On a malformed value: nullopt, and
// *why says what is wrong.
std::optional<PlantedSetting> parse_planted_slowdown(const std::string& value, std::string* why);

// The extra fraction of work for this benchmark: PERCENT / 100 when the variable names it, else
// 0. A malformed value stops the program with a message (a study must not run unplanted).
double planted_slowdown(const std::string& benchmark);

// The variable's value when it is set (for the run's context), else ""; a malformed value stops
// the program with a message (call it at start-up).
std::string planted_slowdown_setting();

// Which iterations redo the work, and how often: due() is the number of extra passes this
// iteration owes (an error accumulator, as Bresenham's line), so N iterations redo exactly
// floor(N * fraction) passes or one more, evenly spread; above 100% some iterations owe several.
class PlantedSlowdown {
 public:
  explicit PlantedSlowdown(double fraction) : fraction_(fraction) {}
  int due() {
    owed_ += fraction_;
    const int passes = static_cast<int>(owed_);
    owed_ -= passes;
    return passes;
  }

 private:
  double fraction_;    // extra work per iteration, 0.05 for 5%
  double owed_ = 0.0;  // work owed so far, less what was redone
};

}  // namespace sb::bench
