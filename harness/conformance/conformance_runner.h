// Runs conformance cases in child processes (soapbench conformance --suite): a crash or a hang
// is a result, not the end of the run. Cases go to a child in batches (one fork per batch, a
// fresh adapter per case); when a child dies or stalls, the case it was on is run again alone
// in its own process, and that result stands, so one bad document costs one case. Up to `jobs`
// children run at once, driven by one poll loop (no threads: the parent forks).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "core/limits.h"
#include "parsers/registry.h"

namespace sb {

// How one case ended.
enum class CaseVerdict { accepted, rejected, refused, crashed, hung };

// "accepted", "rejected", "refused", "crashed", "hung".
const char* verdict_name(CaseVerdict v);

// One case: an adapter under limits walks a document and, where the suite gives one, the
// document's canonical output form.
struct CaseJob {
  const AdapterEntry* adapter = nullptr;  // the adapter to make in the child
  Limits limits;                          // its configuration
  const std::string* document = nullptr;  // the bytes to walk
  const std::string* output = nullptr;    // the canonical form to walk as well, or nullptr
};

// What the child reported (or how it died).
struct CaseResult {
  CaseVerdict verdict = CaseVerdict::crashed;
  std::string reason;         // the adapter's error, or how the child died; empty if accepted
  std::string digest;         // the document's Digest as JSON when accepted
  std::string output_digest;  // the canonical form's Digest as JSON; "" if none or rejected
  std::string output_error;   // why the adapter rejected the canonical form; "" otherwise
  bool alone = false;         // the result of a rerun in a process of its own
};

struct RunnerOptions {
  int jobs = 2;            // children at once
  std::size_t batch = 64;  // cases per child
  int timeout_ms = 10000;  // a case silent for this long is killed: hung
  // Called after each finished case with (done, total), from the parent's loop.
  std::function<void(std::size_t, std::size_t)> progress;
};

// Runs every job; results in job order.
std::vector<CaseResult> run_cases(const std::vector<CaseJob>& jobs, const RunnerOptions& options);

}  // namespace sb
