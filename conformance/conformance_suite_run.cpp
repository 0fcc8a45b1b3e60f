#include "conformance/conformance_suite_run.h"

#include <fmt/core.h>

#include <chrono>
#include <fstream>
#include <regex>
#include <sstream>

#include "codecs/canonical_json.h"
#include "conformance/conformance_matrix.h"
#include "harness/corpus.h"
#include "harness/run_context.h"

namespace sb {

namespace {

double percent(int part, int whole) { return whole == 0 ? 0.0 : 100.0 * part / whole; }

void print_summary(const Suite& suite, const SuiteMatrix& m, std::size_t cases, double seconds) {
  fmt::print("{} ({}): {} tests, {} cases in {:.0f} s\n", suite.name, suite.package,
             suite.cases.size(), cases, seconds);
  const bool json = suite.format == Format::json;
  // XML: 5th-edition name tests and Namespaces in XML tests are judged apart (docs/conformance.md).
  fmt::print("{:<22} {:<7} {:>15} {:>15} {:>11} {:>7} {:>7} {:>5} {:>9}\n", "adapter", "config",
             json ? "y_ accepted" : "valid accepted", json ? "n_ rejected" : "not-wf rejected",
             json ? "i_ accepted" : "ed.5 | ns", "refused", "crashes", "hangs", "digest≠");
  for (const SuiteRecord& r : m.records) {
    const std::string apart =
        json ? fmt::format("{}/{}", r.accepted_implementation_defined, r.implementation_defined)
             : fmt::format("{:.0f}% | {:.0f}%", percent(r.edition5_conforming, r.edition5),
                           percent(r.namespaces_conforming, r.namespaces));
    fmt::print(
        "{:<22} {:<7} {:>5}/{:<4} {:>4.0f}% {:>5}/{:<4} {:>4.0f}% {:>11} {:>7} {:>7} {:>5} "
        "{:>4}/{:<4}\n",
        r.adapter, r.config, r.accepted_valid, r.valid, percent(r.accepted_valid, r.valid),
        r.rejected_not_wf, r.not_wf, percent(r.rejected_not_wf, r.not_wf), apart,
        r.refused_by_policy, r.crashes, r.hangs, r.digest_disagreements, r.digest_compared);
  }
  // Filtered tests are the same for every adapter of a configuration: the first record's.
  std::map<std::string, std::size_t> filtered;
  for (const SuiteRecord& r : m.records) {
    for (const auto& [reason, ids] : r.filtered) filtered[r.config + ": " + reason] = ids.size();
  }
  for (const auto& [reason, n] : filtered) fmt::print("  not judged, {}: {}\n", reason, n);
  if (!m.lossy.empty()) fmt::print("  lossy in the package (not run): {}\n", m.lossy.size());
  std::size_t shown = 0;
  for (const WorstDocument& w : m.worst) {
    if (shown++ == 8) break;
    fmt::print("  worst ({}): {} accepted by {}/{}: {}\n", w.config, w.id, w.accepted_by.size(),
               w.judged_by, w.about.substr(0, 110));
  }
  for (const SuiteRecord& r : m.records) {
    for (const char* kind : {"crashed", "hung"}) {
      const auto it = r.failures.find(kind);
      if (it == r.failures.end()) continue;
      for (const std::string& id : it->second)
        fmt::print("  {} {} ({}): {}\n", kind, r.adapter, r.config, id);
    }
  }
}

// The adapters of the run, in registry order.
std::vector<const AdapterEntry*> chosen_adapters(const std::vector<std::string>& names) {
  std::vector<const AdapterEntry*> chosen;
  for (const AdapterEntry& a : adapters()) {
    if (names.empty() || std::find(names.begin(), names.end(), a.info().name) != names.end())
      chosen.push_back(&a);
  }
  return chosen;
}

std::vector<SuiteConfig> chosen_configs(Format format, const std::vector<std::string>& names) {
  std::vector<SuiteConfig> out;
  for (SuiteConfig& c : suite_configs(format)) {
    if (names.empty() || std::find(names.begin(), names.end(), c.name) != names.end())
      out.push_back(std::move(c));
  }
  return out;
}

// Runs one suite: its matrix and the time it took.
SuiteMatrix run_one(const Suite& suite, const SuiteRunOptions& options, std::size_t& cases,
                    double& seconds) {
  const std::vector<const AdapterEntry*> adapters = chosen_adapters(options.parsers);
  const std::vector<SuiteConfig> configs = chosen_configs(suite.format, options.configs);
  const std::vector<PlannedCase> planned = plan_cases(suite, adapters, configs);
  std::vector<CaseJob> jobs;
  jobs.reserve(planned.size());
  for (const PlannedCase& p : planned) {
    const SuiteCase& c = suite.cases[p.test];
    jobs.push_back({adapters[p.adapter], configs[p.config].limits, &c.document,
                    c.has_output ? &c.output : nullptr});
  }
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&start] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  RunnerOptions runner = options.runner;
  std::size_t step = std::max<std::size_t>(1000, jobs.size() / 10);
  if (!options.quiet) {
    runner.progress = [&](std::size_t done, std::size_t total) {
      if (done % step == 0 || done == total)
        fmt::print(stderr, "conformance: {} {}/{} cases, {:.0f} s\n", suite.name, done, total,
                   elapsed());
    };
  }
  const std::vector<CaseResult> results = run_cases(jobs, runner);
  cases = jobs.size();
  seconds = elapsed();
  return judge_matrix(suite, adapters, configs, planned, results);
}

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out);
}

}  // namespace

int run_suite_matrices(const SuiteRunOptions& options) {
  std::vector<Suite> suites;
  try {
    for (const std::string& name : options.suites) {
      suites.push_back(load_suite(name, options.suite_dir));
      if (!options.only.empty()) {
        const std::regex only(options.only);
        std::erase_if(suites.back().cases,
                      [&only](const SuiteCase& c) { return !std::regex_search(c.id, only); });
      }
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "soapbench: conformance: {}\n", e.what());
    return 2;
  }
  ConformanceExpectation expected, to_write;
  try {
    if (!options.expected.empty()) {
      expected =
          read_conformance_expectation(read_message_file(options.expected), options.expected);
    }
    if (!options.write_expected.empty() && std::filesystem::exists(options.write_expected)) {
      to_write = read_conformance_expectation(read_message_file(options.write_expected),
                                              options.write_expected);
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "soapbench: conformance: {}\n", e.what());
    return 2;
  }
  std::string json = "{\"tool\":\"soapbench conformance --suite\",\"machine_id\":";
  rpc::append_json_string(json, machine_id());
  json += ",\"git_sha\":";
  rpc::append_json_string(json, git_sha());
  json += ",\"suites\":[";
  std::vector<std::string> moved;
  for (std::size_t i = 0; i < suites.size(); ++i) {
    std::size_t cases = 0;
    double seconds = 0;
    const SuiteMatrix m = run_one(suites[i], options, cases, seconds);
    print_summary(suites[i], m, cases, seconds);
    json += (i > 0 ? ",\n" : "\n") + matrix_json(suites[i], m);
    if (!options.expected.empty()) {
      for (std::string& d : compare_expected(suites[i], m, expected)) moved.push_back(d);
    }
    if (!options.write_expected.empty()) update_expected(suites[i], m, to_write);
  }
  json += "]}\n";
  if (!options.json_out.empty() && !write_file(options.json_out, json)) {
    fmt::print(stderr, "soapbench: conformance: cannot write {}\n", options.json_out);
    return 2;
  }
  if (!options.write_expected.empty() &&
      !write_file(options.write_expected, expectation_json(to_write))) {
    fmt::print(stderr, "soapbench: conformance: cannot write {}\n", options.write_expected);
    return 2;
  }
  for (const std::string& d : moved) fmt::print(stderr, "conformance moved: {}\n", d);
  if (!moved.empty()) {
    fmt::print(stderr,
               "soapbench: conformance: {} record(s) differ from {}; if the change is meant "
               "(a library update, an adapter fix), rerun with --write-expected {}\n",
               moved.size(), options.expected, options.expected);
    return 1;
  }
  return 0;
}

}  // namespace sb
