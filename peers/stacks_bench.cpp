// stacks_bench: real RPC stacks' own deserializers on the corpus, from memory
// (decode/<stack>/<family>/<file>), and round trips with them against their servers and ours
// (roundtrip/<variant>/<family>/<client>~<server>/<call>, peers/stacks_roundtrip.h), each
// checked against the contract before it is timed.
#include "peers/stacks_bench.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <string_view>
#include <vector>

#include "harness/run_context.h"
#include "measure/summary_reporter.h"

namespace sb::stacks {

namespace {

std::vector<Registrar>& registrars() {
  static std::vector<Registrar> list;
  return list;
}

// The registrars of sets of their own (add_set_registrar), by set name.
std::map<std::string, std::vector<Registrar>>& own_sets() {
  static std::map<std::string, std::vector<Registrar>> sets;
  return sets;
}

void print_help() {
  std::printf(
      "stacks_bench: the peers' own deserializers on the soapbench corpus, and round trips with\n"
      "the peers' clients and servers against soapbench's (servers run as child processes)\n\n"
      "  --set=NAME    default (seed messages; keep-alive round trips) or full (every corpus file\n"
      "                of the stack's families; round trips also on a new connection per call),\n"
      "                or a set of its own, which a peer's folder registers (docs/peers.md):");
  for (const auto& [name, list] : own_sets()) std::printf(" %s", name.c_str());
  std::printf(
      "\n"
      "  --corpus=DIR  corpus directory (default: $SOAPBENCH_CORPUS or the source tree's "
      "corpus/)\n"
      "  --no-pin      do not pin to one CPU\n"
      "  --verbose     print Google Benchmark's result table too\n\n");
  benchmark::PrintDefaultHelp();
}

}  // namespace

bool add_registrar(Registrar registrar) {
  registrars().push_back(registrar);
  return true;
}

bool add_set_registrar(const std::string& set, Registrar registrar) {
  own_sets()[set].push_back(registrar);
  return true;
}

}  // namespace sb::stacks

int main(int argc, char** argv) {
  std::string set = "default";
  std::string corpus_dir;
  bool pin = true;
  bool verbose = false;
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a.starts_with("--set=")) {
      set = a.substr(6);
    } else if (a.starts_with("--corpus=")) {
      corpus_dir = a.substr(9);
    } else if (a == "--no-pin") {
      pin = false;
    } else if (a == "--verbose") {
      verbose = true;
    } else {
      argv[out++] = argv[i];
    }
  }
  argc = out;
  benchmark::Initialize(&argc, argv, sb::stacks::print_help);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  const bool own = sb::stacks::own_sets().contains(set);
  if (set != "default" && set != "full" && !own) {
    std::fprintf(stderr, "stacks_bench: unknown --set=%s (default, full", set.c_str());
    for (const auto& [name, list] : sb::stacks::own_sets())
      std::fprintf(stderr, ", %s", name.c_str());
    std::fprintf(stderr, ")\n");
    return 1;
  }
  sb::Corpus corpus;
  try {
    corpus = sb::Corpus::load(corpus_dir.empty() ? sb::default_corpus_dir()
                                                 : std::filesystem::path(corpus_dir));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "stacks_bench: %s\n", e.what());
    return 1;
  }
  for (const auto& [k, v] : sb::run_context()) benchmark::AddCustomContext(k, v);
  benchmark::AddCustomContext("bench_set", set);
  if (pin) {
    const int cpu = sb::pin_to_one_cpu();
    benchmark::AddCustomContext("pinned_cpu", cpu >= 0 ? std::to_string(cpu) : "none");
  }
  std::size_t count = 0;
  for (sb::stacks::Registrar r : own ? sb::stacks::own_sets()[set] : sb::stacks::registrars())
    count += r(corpus, set);
  sb::bench::SummaryReporter reporter(count, verbose);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return reporter.errors() > 0 ? 1 : 0;
}
