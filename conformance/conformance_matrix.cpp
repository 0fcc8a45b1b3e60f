#include "conformance/conformance_matrix.h"

#include <fmt/core.h>

#include <algorithm>

#include "codecs/canonical_json.h"

namespace sb {

std::vector<SuiteConfig> suite_configs(Format format) {
  std::vector<SuiteConfig> configs = {{"policy", Limits{}}};
  if (format == Format::xml) {
    Limits library;
    library.allow_doctype = true;
    configs.push_back({"library", library});
  }
  return configs;
}

std::vector<PlannedCase> plan_cases(const Suite& suite,
                                    const std::vector<const AdapterEntry*>& adapters,
                                    const std::vector<SuiteConfig>& configs) {
  std::vector<PlannedCase> planned;
  for (std::size_t a = 0; a < adapters.size(); ++a) {
    if (adapters[a]->info().format != suite.format) continue;
    for (std::size_t k = 0; k < configs.size(); ++k) {
      for (std::size_t t = 0; t < suite.cases.size(); ++t) {
        if (suite.cases[t].filtered.empty()) planned.push_back({a, k, t});
      }
    }
  }
  return planned;
}

namespace {

// Failure lists in a record (SuiteRecord::failures), by kind.
constexpr const char* kAcceptedNotWf = "accepted_not_wf";
constexpr const char* kRejectedValid = "rejected_valid";
constexpr const char* kCrashed = "crashed";
constexpr const char* kHung = "hung";
constexpr const char* kDigest = "digest_disagreements";

// Counts one result into its record.
void count(SuiteRecord& r, const SuiteCase& c, const CaseResult& res, bool policy_doctype) {
  const std::string& id = c.id;
  if (res.verdict == CaseVerdict::crashed) {
    ++r.crashes;
    r.failures[kCrashed].push_back(id);
  }
  if (res.verdict == CaseVerdict::hung) {
    ++r.hangs;
    r.failures[kHung].push_back(id);
  }
  if (res.verdict == CaseVerdict::refused) ++r.refused_by_policy;
  if (policy_doctype) {
    r.filtered[std::string(filter_reason::doctype_policy)].push_back(id);
    return;
  }
  const bool accepted = res.verdict == CaseVerdict::accepted;
  if (!c.apart.empty()) {
    const bool rejected =
        res.verdict == CaseVerdict::rejected || res.verdict == CaseVerdict::refused;
    const bool conforming = c.expect == Expectation::accept ? accepted : rejected;
    (c.apart == "edition5" ? r.edition5 : r.namespaces)++;
    if (conforming) (c.apart == "edition5" ? r.edition5_conforming : r.namespaces_conforming)++;
  }
  switch (c.apart.empty() ? c.expect : Expectation::either) {
    case Expectation::accept:
      ++r.valid;
      if (accepted) {
        ++r.accepted_valid;
      } else {
        r.failures[kRejectedValid].push_back(id);
      }
      break;
    case Expectation::reject:
      ++r.not_wf;
      if (res.verdict == CaseVerdict::rejected || res.verdict == CaseVerdict::refused) {
        ++r.rejected_not_wf;
      } else if (accepted) {
        r.failures[kAcceptedNotWf].push_back(id);
      }
      break;
    case Expectation::either:
      if (!c.apart.empty()) break;
      ++r.implementation_defined;
      if (accepted) ++r.accepted_implementation_defined;
      break;
  }
  // The W3C canonical form: the same content must give the same Digest.
  if (accepted && c.has_output) {
    ++r.digest_compared;
    if (res.output_digest.empty() || res.output_digest != res.digest) {
      ++r.digest_disagreements;
      r.failures[kDigest].push_back(id);
    }
  }
}

// JSONTestSuite gives no output form: an accepted test's Digest is compared with the one most
// adapters that accepted it agree on (when at least three accepted it and one Digest has more
// than half of them).
void count_majority_digests(
    const Suite& suite, const std::vector<PlannedCase>& planned,
    const std::vector<CaseResult>& results, std::vector<SuiteRecord>& records,
    const std::map<std::pair<std::size_t, std::size_t>, std::size_t>& slot) {
  std::map<std::size_t, std::vector<std::size_t>> by_test;  // test -> accepted result indices
  for (std::size_t i = 0; i < planned.size(); ++i) {
    if (results[i].verdict == CaseVerdict::accepted) by_test[planned[i].test].push_back(i);
  }
  for (const auto& [test, idx] : by_test) {
    if (idx.size() < 3) continue;
    std::map<std::string, std::size_t> votes;
    for (std::size_t i : idx) ++votes[results[i].digest];
    const auto top = std::max_element(votes.begin(), votes.end(), [](const auto& a, const auto& b) {
      return a.second < b.second;
    });
    if (top->second * 2 <= idx.size()) continue;
    for (std::size_t i : idx) {
      SuiteRecord& r = records[slot.at({planned[i].adapter, planned[i].config})];
      ++r.digest_compared;
      if (results[i].digest != top->first) {
        ++r.digest_disagreements;
        r.failures[kDigest].push_back(suite.cases[test].id);
      }
    }
  }
}

std::vector<WorstDocument> worst_documents(const Suite& suite,
                                           const std::vector<SuiteConfig>& configs,
                                           const std::vector<const AdapterEntry*>& adapters,
                                           const std::vector<PlannedCase>& planned,
                                           const std::vector<CaseResult>& results) {
  std::map<std::pair<std::size_t, std::size_t>, WorstDocument> docs;  // (config, test)
  for (std::size_t i = 0; i < planned.size(); ++i) {
    const PlannedCase& p = planned[i];
    const SuiteCase& c = suite.cases[p.test];
    const bool judged = !(configs[p.config].name == "policy" && c.has_doctype);
    if (c.expect != Expectation::reject || !judged || !c.apart.empty()) continue;
    WorstDocument& w = docs[{p.config, p.test}];
    if (w.id.empty()) w = {suite.name, configs[p.config].name, c.id, c.about, {}, 0};
    ++w.judged_by;
    if (results[i].verdict == CaseVerdict::accepted)
      w.accepted_by.push_back(adapters[p.adapter]->info().name);
  }
  std::vector<WorstDocument> out;
  for (std::size_t k = 0; k < configs.size(); ++k) {
    std::vector<WorstDocument> mine;
    for (auto& [key, w] : docs) {
      if (key.first == k && !w.accepted_by.empty()) mine.push_back(w);
    }
    std::stable_sort(mine.begin(), mine.end(), [](const auto& a, const auto& b) {
      return a.accepted_by.size() > b.accepted_by.size();
    });
    if (mine.size() > 25) mine.resize(25);
    out.insert(out.end(), mine.begin(), mine.end());
  }
  return out;
}

}  // namespace

SuiteMatrix judge_matrix(const Suite& suite, const std::vector<const AdapterEntry*>& adapters,
                         const std::vector<SuiteConfig>& configs,
                         const std::vector<PlannedCase>& planned,
                         const std::vector<CaseResult>& results) {
  SuiteMatrix m;
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> slot;  // (adapter, config) -> record
  for (std::size_t a = 0; a < adapters.size(); ++a) {
    const AdapterInfo& info = adapters[a]->info();
    if (info.format != suite.format) continue;
    for (std::size_t k = 0; k < configs.size(); ++k) {
      slot[{a, k}] = m.records.size();
      SuiteRecord r;
      r.suite = suite.name;
      r.package = suite.package;
      r.adapter = info.name;
      r.library = info.library;
      r.version = info.version;
      r.config = configs[k].name;
      for (const SuiteCase& c : suite.cases) {
        if (!c.filtered.empty()) r.filtered[c.filtered].push_back(c.id);
      }
      m.records.push_back(std::move(r));
    }
  }
  for (std::size_t i = 0; i < planned.size(); ++i) {
    const PlannedCase& p = planned[i];
    const SuiteCase& c = suite.cases[p.test];
    count(m.records[slot.at({p.adapter, p.config})], c, results[i],
          configs[p.config].name == "policy" && c.has_doctype);
  }
  if (suite.format == Format::json)
    count_majority_digests(suite, planned, results, m.records, slot);
  m.worst = worst_documents(suite, configs, adapters, planned, results);
  for (const SuiteCase& c : suite.cases) {
    if (c.filtered == filter_reason::lossy) m.lossy.push_back(c.id);
  }
  return m;
}

ConformanceCounts record_counts(const SuiteRecord& r) {
  return {{"valid", r.valid},
          {"accepted_valid", r.accepted_valid},
          {"not_wf", r.not_wf},
          {"rejected_not_wf", r.rejected_not_wf},
          {"implementation_defined", r.implementation_defined},
          {"accepted_implementation_defined", r.accepted_implementation_defined},
          {"refused_by_policy", r.refused_by_policy},
          {"crashes", r.crashes},
          {"hangs", r.hangs},
          {"edition5", r.edition5},
          {"edition5_conforming", r.edition5_conforming},
          {"namespaces", r.namespaces},
          {"namespaces_conforming", r.namespaces_conforming},
          {"digest_compared", r.digest_compared},
          {"digest_disagreements", r.digest_disagreements}};
}

std::string library_key(const SuiteRecord& r) { return r.library + " " + r.version; }

namespace {

void append_string_list(std::string& j, const std::vector<std::string>& list) {
  j += '[';
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (i > 0) j += ',';
    rpc::append_json_string(j, list[i]);
  }
  j += ']';
}

void append_list_map(std::string& j, const std::map<std::string, std::vector<std::string>>& m) {
  j += '{';
  bool first = true;
  for (const auto& [key, list] : m) {
    if (!first) j += ',';
    first = false;
    rpc::append_json_string(j, key);
    j += ':';
    append_string_list(j, list);
  }
  j += '}';
}

void append_counts(std::string& j, const ConformanceCounts& counts) {
  bool first = true;
  for (const auto& [name, value] : counts) {
    j += first ? "" : ",";
    first = false;
    rpc::append_json_string(j, name);
    j += fmt::format(":{}", value);
  }
}

}  // namespace

std::string matrix_json(const Suite& suite, const SuiteMatrix& matrix) {
  std::string j = "{\"suite\":";
  rpc::append_json_string(j, suite.name);
  j += ",\"package\":";
  rpc::append_json_string(j, suite.package);
  j += ",\"format\":";
  rpc::append_json_string(j, suite.format == Format::xml ? "xml" : "json");
  j += ",\"lossy_in_package\":";
  append_string_list(j, matrix.lossy);
  j += ",\"records\":[";
  for (std::size_t i = 0; i < matrix.records.size(); ++i) {
    const SuiteRecord& r = matrix.records[i];
    j += i > 0 ? ",\n{" : "\n{";
    for (const auto& [key, value] :
         std::initializer_list<std::pair<const char*, const std::string*>>{{"suite", &r.suite},
                                                                           {"package", &r.package},
                                                                           {"adapter", &r.adapter},
                                                                           {"library", &r.library},
                                                                           {"version", &r.version},
                                                                           {"config", &r.config}}) {
      j += fmt::format("\"{}\":", key);
      rpc::append_json_string(j, *value);
      j += ',';
    }
    append_counts(j, record_counts(r));
    j += fmt::format(",\"lossy_in_package\":{},\"filtered\":", matrix.lossy.size());
    append_list_map(j, r.filtered);
    j += ",\"failures\":";
    append_list_map(j, r.failures);
    j += '}';
  }
  j += "],\n\"worst\":[";
  for (std::size_t i = 0; i < matrix.worst.size(); ++i) {
    const WorstDocument& w = matrix.worst[i];
    j += i > 0 ? ",\n{\"config\":" : "\n{\"config\":";
    rpc::append_json_string(j, w.config);
    j += ",\"id\":";
    rpc::append_json_string(j, w.id);
    j += ",\"about\":";
    rpc::append_json_string(j, w.about);
    j += fmt::format(",\"judged_by\":{},\"accepted_by\":", w.judged_by);
    append_string_list(j, w.accepted_by);
    j += '}';
  }
  j += "]}";
  return j;
}

std::vector<std::string> compare_expected(const Suite& suite, const SuiteMatrix& matrix,
                                          const ConformanceExpectation& expected) {
  std::vector<std::string> diffs;
  const auto s = expected.find(suite.name);
  if (s == expected.end()) return {"no expected counts for suite " + suite.name};
  if (s->second.package != suite.package) {
    return {fmt::format("expected counts are for {}, this run read {}", s->second.package,
                        suite.package)};
  }
  for (const SuiteRecord& r : matrix.records) {
    const std::string where =
        fmt::format("{} {} ({}) [{}]", r.suite, r.adapter, r.config, library_key(r));
    const auto a = s->second.counts.find(r.adapter);
    if (a == s->second.counts.end() || !a->second.count(library_key(r)) ||
        !a->second.at(library_key(r)).count(r.config)) {
      diffs.push_back(where + ": no expected counts for this library version");
      continue;
    }
    const ConformanceCounts& want = a->second.at(library_key(r)).at(r.config);
    std::string moved;
    for (const auto& [name, got] : record_counts(r)) {
      const auto w = want.find(name);
      if (w == want.end() || w->second != got) {
        moved += fmt::format(" {} {} -> {}", name,
                             w == want.end() ? "?" : std::to_string(w->second), got);
      }
    }
    if (!moved.empty()) diffs.push_back(where + ":" + moved);
  }
  return diffs;
}

void update_expected(const Suite& suite, const SuiteMatrix& matrix,
                     ConformanceExpectation& expected) {
  SuiteExpectation& s = expected[suite.name];
  if (s.package != suite.package) s.counts.clear();  // another package: old counts mean nothing
  s.package = suite.package;
  for (const SuiteRecord& r : matrix.records) {
    s.counts[r.adapter][library_key(r)][r.config] = record_counts(r);
  }
}

std::string expectation_json(const ConformanceExpectation& expected) {
  std::string j =
      "{\"comment\":\"soapbench conformance --suite S --expected FILE compares with this; "
      "--write-expected FILE updates it (docs/conformance.md)\"";
  for (const auto& [suite, se] : expected) {
    j += ",\n";
    rpc::append_json_string(j, suite);
    j += ":{\"package\":";
    rpc::append_json_string(j, se.package);
    j += ",\"counts\":{";
    bool first_adapter = true;
    for (const auto& [adapter, versions] : se.counts) {
      j += first_adapter ? "\n " : ",\n ";
      first_adapter = false;
      rpc::append_json_string(j, adapter);
      j += ":{";
      bool first_version = true;
      for (const auto& [version, configs] : versions) {
        j += first_version ? "" : ",";
        first_version = false;
        rpc::append_json_string(j, version);
        j += ":{";
        bool first_config = true;
        for (const auto& [config, counts] : configs) {
          j += first_config ? "\n  " : ",\n  ";
          first_config = false;
          rpc::append_json_string(j, config);
          j += ":{";
          append_counts(j, counts);
          j += '}';
        }
        j += '}';
      }
      j += '}';
    }
    j += "}}";
  }
  j += "}\n";
  return j;
}

}  // namespace sb
