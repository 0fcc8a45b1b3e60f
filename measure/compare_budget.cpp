#include "measure/compare_budget.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>

namespace sb::bench {

namespace {

constexpr double kLeastMinTime = 0.001;  // seconds per repetition: below it the clock's noise
constexpr double kMostMinTime = 0.5;     // more precision than a comparison needs

// What one benchmark of a message whose level runs take `t` seconds costs at `r` repetitions of
// at least `m` seconds, as adapter_benchmark and Google Benchmark 1.7 spend it: once, the check
// and the two allocation runs (at most 4 runs); per call of the body, one warm-up run; the first
// repetition searches its iteration count (rounds of up to 10x more iterations until one lasts
// m, aiming at 1.4 m: about 1.6 m in all), the others run that count (about 1.4 m each). A run
// longer than m is one iteration: one call per repetition. `t` is wall time; m is CPU time,
// which a machine busy with others gives at `share` of the wall's pace.
double benchmark_cost(double t, int r, double m, double share) {
  const double setup = 4 * t;
  const double m_wall = m / share;
  if (t >= m_wall) return setup + r * (t + t);
  const double rounds = std::ceil(std::log10(m_wall / t)) + 1;
  const double calls = r - 1 + rounds;
  return setup + (1.4 * r + 0.2) * m_wall + calls * t;
}

// One (message, level) group: the benchmarks that are compared with each other.
struct Group {
  std::size_t file;        // index in plan.files
  Level level;             // which level
  std::size_t benchmarks;  // how many adapters are timed there
  double run_s;            // seconds one run of the level takes there (PlannedFile::run_s)
  double share;            // ComparePlan::cpu_share
};

std::vector<Group> groups_of(const ComparePlan& plan) {
  std::vector<Group> out;
  for (std::size_t i = 0; i < plan.files.size(); ++i) {
    const PlannedFile& f = plan.files[i];
    for (Level level : {Level::parse, Level::walk, Level::decode}) {
      const auto n = std::count_if(f.timed.begin(), f.timed.end(),
                                   [level](const PlannedBenchmark& b) { return b.level == level; });
      if (n > 0) out.push_back({i, level, static_cast<std::size_t>(n), f.run_s, plan.cpu_share});
    }
  }
  return out;
}

double total_cost(const std::vector<Group>& groups, int r, double m) {
  double sum = 0;
  for (const Group& g : groups)
    sum += static_cast<double>(g.benchmarks) * benchmark_cost(g.run_s, r, m, g.share);
  return sum;
}

std::size_t benchmarks_in(const std::vector<Group>& groups) {
  std::size_t n = 0;
  for (const Group& g : groups) n += g.benchmarks;
  return n;
}

// The longest minimum time in [kLeastMinTime, kMostMinTime] whose cost fits `seconds` (the
// cost grows with it), or kLeastMinTime when none does.
double fitting_min_time(const std::vector<Group>& groups, int r, double seconds) {
  double lo = kLeastMinTime, hi = kMostMinTime;
  if (total_cost(groups, r, hi) <= seconds) return hi;
  for (int i = 0; i < 40; ++i) {
    const double mid = (lo + hi) / 2;
    (total_cost(groups, r, mid) <= seconds ? lo : hi) = mid;
  }
  return lo;
}

// Whole groups in plan order (messages in path order; parse, walk, decode) while they fit at
// the least minimum time: never an adapter without the others of its group.
std::vector<Group> groups_that_fit(const std::vector<Group>& groups, int r, double seconds) {
  std::vector<Group> kept;
  double used = 0;
  for (const Group& g : groups) {
    const double cost = total_cost({g}, r, kLeastMinTime);
    if (used + cost <= seconds) {
      kept.push_back(g);
      used += cost;
    }
  }
  return kept;
}

// Moves the benchmarks of the groups not in `kept` from timed to left_out.
void leave_out_the_rest(ComparePlan& plan, const std::vector<Group>& kept) {
  for (std::size_t i = 0; i < plan.files.size(); ++i) {
    PlannedFile& f = plan.files[i];
    auto stays = [&kept, i](const PlannedBenchmark& b) {
      return std::any_of(kept.begin(), kept.end(),
                         [&](const Group& g) { return g.file == i && g.level == b.level; });
    };
    for (const PlannedBenchmark& b : f.timed) {
      if (!stays(b)) f.left_out.push_back({b.adapter, b.level, "cut to fit --budget"});
    }
    std::erase_if(f.timed, [&stays](const PlannedBenchmark& b) { return !stays(b); });
  }
}

}  // namespace

double timing_estimate(const ComparePlan& plan, int repetitions, double min_time) {
  return total_cost(groups_of(plan), repetitions, min_time);
}

TimingFit fit_budget(ComparePlan& plan, int repetitions, double seconds, double spent) {
  TimingFit fit;
  fit.repetitions = repetitions;
  std::vector<Group> groups = groups_of(plan);
  const double all = total_cost(groups, repetitions, kLeastMinTime);
  const double needed = std::ceil((spent + all) * 1.2);  // a --budget that times all
  if (all > seconds) {
    // The groups that fit at the repetitions asked; when not even one does, fewer repetitions.
    std::vector<Group> kept = groups_that_fit(groups, fit.repetitions, seconds);
    while (kept.empty() && fit.repetitions > 1) {
      kept = groups_that_fit(groups, --fit.repetitions, seconds);
    }
    if (kept.empty()) {
      fit.repetitions = repetitions;
      fit.cuts.push_back(fmt::format(
          "budget: nothing timed: {:.0f} s of the {:.0f} s went to reading and the equal-work "
          "check, and one repetition of the first message/level group needs about {:.0f} s "
          "more (timing all: --budget {:.0f})",
          spent, spent + seconds, groups.empty() ? 0.0 : total_cost({groups[0]}, 1, kLeastMinTime),
          needed));
    } else if (const std::size_t cut = benchmarks_in(groups) - benchmarks_in(kept); cut > 0) {
      fit.cuts.push_back(fmt::format(
          "budget: {} of {} benchmarks not timed (whole message/level groups, the last in plan "
          "order): timing all needs about {:.0f} s at the least, {:.0f} s of the budget are left "
          "(--budget {:.0f} times all)",
          cut, benchmarks_in(groups), all, std::max(seconds, 0.0), needed));
    }
    if (!kept.empty() && fit.repetitions < repetitions) {
      fit.cuts.push_back(fmt::format(
          "budget: {} repetition{} instead of {}: no ranking word can pass with fewer than 5",
          fit.repetitions, fit.repetitions == 1 ? "" : "s", repetitions));
    }
    leave_out_the_rest(plan, kept);
    groups = std::move(kept);
  }
  fit.min_time = fitting_min_time(groups, fit.repetitions, seconds);
  fit.estimate_s = total_cost(groups, fit.repetitions, fit.min_time);
  return fit;
}

}  // namespace sb::bench
