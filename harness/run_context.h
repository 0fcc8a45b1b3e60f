// What a result file must say about the run: machine, compiler, build, library versions.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace sb {

// Key/value pairs for Google Benchmark's --benchmark_context / AddCustomContext:
// soapbench version and git sha, CPU model, core count, cache sizes, compiler, build type,
// every adapter's library version, machine_id; the facts a report must not restate: the
// families in corpus order (`families`), the default adapters (`default_adapter:xml|json`)
// and the link model (`link:<name>`, `link_model:*`).
std::vector<std::pair<std::string, std::string>> run_context();

// The CPU model from /proc/cpuinfo ("unknown" if absent).
std::string cpu_model();

// A short stable id for "this kind of machine": CPU model, core count, caches and compiler,
// hashed (results/<machine-id>/ in the report tools).
std::string machine_id();

// The git sha this binary was built from (with "-dirty" for uncommitted changes).
std::string git_sha();

// Pins the calling thread (and threads it creates later) to one CPU (the last one allowed),
// as `taskset -c N` would. Returns the CPU, or -1 when pinning is not possible.
int pin_to_one_cpu();

}  // namespace sb
