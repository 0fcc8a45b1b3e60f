// How `soapbench compare --budget S` keeps its word: the whole command (reading, the equal-work
// check, timing) ends within S seconds, or is cut to them with a line saying what was cut.
// Before timing, a model of each benchmark's cost, from the seconds the equal-work check spent
// on its message, picks the minimum time per repetition that fits what is left; when even the
// least timing does not fit, the (message, level) groups that do not fit are left untimed (and
// when not one fits, fewer repetitions; when not one fits at one repetition, nothing is timed).
// While timing, a deadline at the budget's end skips whatever the model missed
// (measure/adapter_benchmarks.h), said after the table.
#pragma once

#include <string>
#include <vector>

#include "measure/compare_plan.h"

namespace sb::bench {

struct TimingFit {
  double min_time = 0.001;        // seconds per repetition
  int repetitions = 5;            // of every benchmark kept
  double estimate_s = 0;          // what the timing should take, by the model
  std::vector<std::string> cuts;  // one line each: what was cut to fit, and what would time it
};

// The timing of `plan` fitted into `seconds` (what is left of the budget after the `spent`
// ones) at `repetitions` or fewer: groups that do not fit are moved from each file's `timed` to
// its `left_out`.
TimingFit fit_budget(ComparePlan& plan, int repetitions, double seconds, double spent);

// What timing `plan` takes at `repetitions` of at least `min_time` seconds, by the same model.
double timing_estimate(const ComparePlan& plan, int repetitions, double min_time);

}  // namespace sb::bench
