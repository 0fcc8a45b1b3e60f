// `soapbench compare --icount`: instructions per message instead of time, deterministic where
// time is noisy (callgrind, as tools/icount counts parse_bench). This executable runs again under
// `valgrind --tool=callgrind --collect-atstart=no` with fixed iterations; the benchmark body
// turns collection on around its timed loop only and dumps it under the benchmark's name
// (measure/adapter_benchmarks.h, InstructionScope), so the counts are of the same loop.
#pragma once

#include "measure/compare_plan.h"

namespace sb::bench {

// Counts, prints the table (instructions per message, per message and level) and, with --json,
// writes tools/icount's format. The process exit status.
int count_instructions(const ComparePlan& plan, const CompareOptions& options);

}  // namespace sb::bench
