// A server process's CPU time and memory, read from /proc (soapbench load --server-pid).
#pragma once

#include <optional>

#include "harness/load/load_point.h"

namespace sb {

// utime + stime of every thread of process `pid` (/proc/PID/stat) and its VmRSS and VmHWM
// (/proc/PID/status); nullopt when the process is gone or /proc cannot be read.
std::optional<ProcessSample> sample_process(int pid);

// This process's own CPU time (user + system, every thread), in seconds.
double own_cpu_seconds();

}  // namespace sb
