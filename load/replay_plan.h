// The calls `soapbench load --replay DIR` sends: the requests of a folder `soapbench record`
// wrote (docs/corpus.md), each framed as it was recorded (target, Content-Type, SOAPAction) and
// judged against its recorded answer (load/load_answer_judge.h): the recorded status, and
// the decoded body where the service is deterministic.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "client/http_request.h"
#include "load/load_call.h"

namespace sb {

struct ReplayPlan {
  std::vector<LoadCall> calls;                    // in the recorded order
  std::vector<std::chrono::nanoseconds> offsets;  // call k's recorded time after call 0's
  std::chrono::nanoseconds period{0};  // the recording's span plus one mean gap: the schedule
                                       // repeats after it (0: fewer than two timed requests)
  // The calls whose answer is judged by its status alone, "PATH: why" each in call order: the
  // one source of both the count and the list `load --replay` prints.
  std::vector<std::string> status_only;
  std::vector<std::string> left_out;  // requests not replayed, "PATH: why" each
};

// The recorded folder `dir` (manifest.json with exchanges), addressed to `url` (its path, when it
// has one, for every request; else each request's recorded target). Throws std::runtime_error
// naming the folder or file and the problem.
ReplayPlan read_replay(const std::filesystem::path& dir, const Url& url);

// The plan's schedule at `factor` times the recorded rate: offsets and period divided by it.
void scale_replay(const ReplayPlan& plan, double factor,
                  std::vector<std::chrono::nanoseconds>& offsets, std::chrono::nanoseconds& period);

}  // namespace sb
