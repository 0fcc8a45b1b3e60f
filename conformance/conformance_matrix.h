// The conformance matrix of a standard suite (soapbench conformance --suite): which cases run,
// the judgement of each result under the non-validating rules, the per-adapter figures, the
// worst documents, the JSON records, and the committed expectation they are checked against
// (tests/data/conformance_expected.json). docs/conformance.md explains each figure.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "conformance/conformance_runner.h"
#include "conformance/conformance_suite.h"
#include "parsers/conformance_expected.h"

namespace sb {

// A configuration the adapters run in: `policy` (as benchmarked: no DOCTYPE, the limits of
// core/limits.h) and, for XML, `library` (the library's own well-formedness: the internal DTD
// subset allowed; external entities are never loaded and the network stays off in every
// adapter, with or without a DOCTYPE).
struct SuiteConfig {
  std::string name;  // "policy" or "library"
  Limits limits;     // what the adapter is made with
};
std::vector<SuiteConfig> suite_configs(Format format);

// One case of the matrix: indices into the adapters, configurations and suite cases.
struct PlannedCase {
  std::size_t adapter, config, test;
};

// Every (adapter, configuration, test) to run: the adapters of the suite's format, every
// configuration, the tests not filtered (policy: the DOCTYPE tests too, to count refusals).
std::vector<PlannedCase> plan_cases(const Suite& suite,
                                    const std::vector<const AdapterEntry*>& adapters,
                                    const std::vector<SuiteConfig>& configs);

// The figures of one (suite, adapter, configuration).
struct SuiteRecord {
  std::string suite, package, adapter, library, version, config;  // what was run
  int valid = 0;                   // judged tests that must be accepted (W3C valid+invalid; y_)
  int accepted_valid = 0;          // of those, accepted
  int not_wf = 0;                  // judged tests that must be rejected (not-wf; n_)
  int rejected_not_wf = 0;         // of those, rejected (malformed or refused)
  int implementation_defined = 0;  // JSONTestSuite i_ tests run
  int accepted_implementation_defined = 0;  // of those, accepted
  int refused_by_policy = 0;                // cases refused by a policy limit (DOCTYPE, depth)
  int crashes = 0;                          // cases whose process died
  int hangs = 0;                            // cases killed after the timeout
  int edition5 = 0;                         // 5th-edition-only tests (SuiteCase::apart) judged
  int edition5_conforming = 0;    // of those, accepted or rejected as the 5th edition says
  int namespaces = 0;             // Namespaces in XML tests judged
  int namespaces_conforming = 0;  // of those, accepted or rejected as that recommendation says
  int digest_compared = 0;        // accepted tests with a reference Digest
  int digest_disagreements = 0;   // of those, a different Digest
  std::map<std::string, std::vector<std::string>> filtered;  // reason -> test IDs not judged
  std::map<std::string, std::vector<std::string>> failures;  // kind -> test IDs (see .cpp)
};

// A not-well-formed test that adapters accept.
struct WorstDocument {
  std::string suite, config, id, about;  // the test and what it violates
  std::vector<std::string> accepted_by;  // adapters that accepted it
  int judged_by = 0;                     // adapters that ran it
};

struct SuiteMatrix {
  std::vector<SuiteRecord> records;  // one per (adapter, configuration), adapters in order
  std::vector<WorstDocument> worst;  // by accepted_by size, then id; at most 25 per config
  std::vector<std::string> lossy;    // JSONTestSuite tests lossy in the package
};

// Judges every result (results[i] belongs to planned[i]).
SuiteMatrix judge_matrix(const Suite& suite, const std::vector<const AdapterEntry*>& adapters,
                         const std::vector<SuiteConfig>& configs,
                         const std::vector<PlannedCase>& planned,
                         const std::vector<CaseResult>& results);

// The matrix as the JSON fields of one suite: {"suite", "package", "lossy_in_package",
// "records": [...], "worst": [...]}.
std::string matrix_json(const Suite& suite, const SuiteMatrix& matrix);

// The counts the expectation file keeps for a record ("valid", "accepted_valid", …).
ConformanceCounts record_counts(const SuiteRecord& r);

// The expectation's key for a record's library: "libxml2 2.9.14".
std::string library_key(const SuiteRecord& r);

// Differences between the matrix and the expectation (empty when it matches): one line per
// record whose counts moved, or whose library version has no entry, or a package mismatch.
std::vector<std::string> compare_expected(const Suite& suite, const SuiteMatrix& matrix,
                                          const ConformanceExpectation& expected);

// Writes this matrix's counts into `expected` (other suites, adapters and versions kept).
void update_expected(const Suite& suite, const SuiteMatrix& matrix,
                     ConformanceExpectation& expected);

// The expectation file's text (stable layout: one record's counts per line).
std::string expectation_json(const ConformanceExpectation& expected);

}  // namespace sb
