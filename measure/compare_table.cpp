#include "measure/compare_table.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "measure/ranking.h"

namespace sb::bench {

namespace {

// One row of a message's table.
struct Row {
  const PlannedBenchmark* bench;  // what ran
  const RunResult* result;        // its result
  double median_ns;               // median of its repetitions
};

std::string us(double ns) {
  return ns >= 100e3 ? fmt::format("{:.0f}", ns / 1e3) : fmt::format("{:.3g}", ns / 1e3);
}

std::string counter(const RunResult& r, const char* key, double scale, const char* fmt_spec) {
  auto it = r.counters.find(key);
  if (it == r.counters.end()) return "-";
  return fmt::format(fmt::runtime(fmt_spec), it->second / scale);
}

// Rows of one level of one message that ran, by median time.
std::vector<Row> rows_of(const PlannedFile& f, Level level,
                         const std::map<std::string, RunResult>& results) {
  std::vector<Row> rows;
  for (const PlannedBenchmark& b : f.timed) {
    if (b.level != level) continue;
    auto it = results.find(b.name);
    if (it == results.end() || it->second.samples.empty()) continue;
    rows.push_back({&b, &it->second, median(it->second.samples)});
  }
  std::sort(rows.begin(), rows.end(),
            [](const Row& a, const Row& b) { return a.median_ns < b.median_ns; });
  return rows;
}

// Prints one level's table; adds each adapter's time over the level's lowest to `ratios`.
// Per level, per adapter: time over the message's lowest median, one entry per message.
using Ratios = std::map<std::string, std::map<std::string, std::vector<double>>>;
// Per level, per adapter: how many messages ranked it "fastest".
using Wins = std::map<std::string, std::map<std::string, int>>;

// Prints one level's table. Rows whose work differs in a stated way (†) print "work differs"
// and are not ranked: the ranking words, the ratios and the "fastest" count are the other rows',
// each ratio over the lowest median among them.
void print_level(const PlannedFile& f, Level level, const std::vector<Row>& rows, Ratios& ratios,
                 Wins& fastest) {
  std::vector<std::vector<double>> candidates;
  for (const Row& r : rows) {
    if (r.bench->flag.empty()) candidates.push_back(r.result->samples);
  }
  const std::vector<std::string> words = ranking_words(candidates);
  const auto base =
      std::find_if(rows.begin(), rows.end(), [](const Row& r) { return r.bench->flag.empty(); });
  fmt::print("{:<7} {:<22} {:>10} {:>23} {:>9} {:>7} {:>9}  {}\n", level_name(level), "adapter",
             "µs", "[95% interval]", "MB/s", "allocs", "peak KiB", "rank");
  const double bytes = static_cast<double>(f.file.bytes.size());
  std::size_t ranked = 0;
  for (const Row& r : rows) {
    const auto ci = median_ci(r.result->samples);
    const std::string interval =
        ci ? fmt::format("[{}, {}]{}", us(ci->lo), us(ci->hi), ci->coverage < kCiLevel ? "*" : "")
           : "(ran once)";
    const bool flagged = !r.bench->flag.empty();
    const std::string name = r.bench->adapter->info().name + (flagged ? " †" : "");
    const std::string word = flagged ? "work differs" : words[ranked++];
    fmt::print("{:<7} {:<22} {:>10} {:>23} {:>9.1f} {:>7} {:>9}  {}\n", "", name, us(r.median_ns),
               interval, bytes / (r.median_ns * 1e-9) / 1e6,
               counter(*r.result, "allocs_per_msg", 1, "{:.0f}"),
               counter(*r.result, "peak_heap_bytes", 1024, "{:.1f}"), word);
    if (flagged) continue;
    const std::string& adapter = r.bench->adapter->info().name;
    ratios[level_name(level)][adapter].push_back(r.median_ns / base->median_ns);
    if (word == "fastest") ++fastest[level_name(level)][adapter];
  }
  for (const Row& r : rows) {
    if (!r.bench->flag.empty())
      fmt::print("        † {}: {}\n", r.bench->adapter->info().name, r.bench->flag);
  }
}

// One wrong answer: the message, the level it was said at, and why.
struct WrongAnswer {
  std::string message;
  Level level;
  std::string why;
};
// Per adapter: its wrong answers, in message order.
using Wrong = std::map<std::string, std::vector<WrongAnswer>>;

Wrong wrong_answers(const ComparePlan& plan) {
  Wrong wrong;
  for (const PlannedFile& f : plan.files) {
    for (const LeftOut& l : f.left_out) {
      if (l.wrong) wrong[l.adapter->info().name].push_back({f.file.label, l.level, l.why});
    }
  }
  return wrong;
}

// Over every message: each adapter's geometric mean of time over the message's lowest median.
// An adapter that decodes any of the messages wrong is not ranked: it was timed only where it
// answered right, so its mean would recommend it for the messages it gets wrong (the report's
// rule, tools/sbtools/report/right_answers.py).
void print_summary(const Ratios& ratios, Wins& fastest, std::size_t files, const Wrong& wrong) {
  if (files < 2 || ratios.empty()) return;
  for (const auto& [level, by_adapter] : ratios) {
    fmt::print(
        "\n== {} over the messages: time over each message's lowest median (geometric "
        "mean); messages where it ranked \"fastest\" ==\n",
        level);
    std::vector<std::pair<double, std::string>> order;
    for (const auto& [adapter, rs] : by_adapter) {
      if (wrong.count(adapter) > 0) continue;
      double log_sum = 0;
      for (double r : rs) log_sum += std::log(r);
      order.emplace_back(std::exp(log_sum / static_cast<double>(rs.size())), adapter);
    }
    std::sort(order.begin(), order.end());
    for (const auto& [g, adapter] : order) {
      fmt::print("{:<24} {:>7.2f}×  over {:>3} messages, fastest in {}\n", adapter, g,
                 by_adapter.at(adapter).size(), fastest[level][adapter]);
    }
  }
}

// The adapters left out of the ranking, each wrong answer with its reason (each was also named
// on stderr before timing).
void print_wrong(const Wrong& wrong) {
  if (wrong.empty()) return;
  fmt::print("\nnot ranked over the messages (a wrong answer on at least one):\n");
  for (const auto& [adapter, answers] : wrong) {
    for (const WrongAnswer& w : answers) {
      fmt::print("{}: {} {}: {}\n", adapter, w.message, level_name(w.level), w.why);
    }
  }
}

}  // namespace

void print_left_out(const ComparePlan& plan) {
  for (const PlannedFile& f : plan.files) {
    for (const std::string& n : f.level_notes) {
      std::fprintf(stderr, "%s: %s\n", f.file.label.c_str(), n.c_str());
    }
    for (const LeftOut& l : f.left_out) {
      if (l.wrong) {
        std::fprintf(stderr, "wrong answer: %s: %s %s (timed at no level of this message)\n",
                     f.file.label.c_str(), l.adapter->info().name.c_str(), l.why.c_str());
        continue;
      }
      std::fprintf(stderr, "not timed: %s: %s at %s: %s\n", f.file.label.c_str(),
                   l.adapter->info().name.c_str(), level_name(l.level), l.why.c_str());
    }
  }
}

void print_compare_table(const ComparePlan& plan, const std::map<std::string, RunResult>& results) {
  Ratios ratios;
  Wins fastest;
  for (const PlannedFile& f : plan.files) {
    if (f.timed.empty()) continue;
    fmt::print("\n== {} ({}, {} bytes) ==\n", f.file.label, f.family, f.file.bytes.size());
    for (Level level : {Level::parse, Level::walk, Level::decode}) {
      const std::vector<Row> rows = rows_of(f, level, results);
      if (!rows.empty()) print_level(f, level, rows, ratios, fastest);
    }
    std::size_t out = f.left_out.size();
    if (out > 0) fmt::print("        {} adapter/level pairs not timed (see above)\n", out);
  }
  fmt::print(
      "\nµs: median of the repetitions [distribution-free 95% interval of the median; * "
      "lower coverage with fewer than 6 repetitions]; rank: \"fastest\" only when a "
      "two-sided Mann-Whitney U test gives p <= {} against every other adapter and the "
      "intervals do not overlap, else \"tied\" / \"behind\" (the report's rule).\n",
      kRankAlpha);
  const Wrong wrong = wrong_answers(plan);
  print_summary(ratios, fastest, plan.files.size(), wrong);
  print_wrong(wrong);
}

}  // namespace sb::bench
