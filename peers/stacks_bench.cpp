// stacks_bench: real RPC stacks' own deserializers reading corpus messages from memory into their
// own types (decode/<stack>/<family>/<call>), each verified against the manifest's canonical
// JSON before it is timed. The peers register their benchmarks (peers/stacks_bench.h).
#include "peers/stacks_bench.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>
#include <vector>

#include "bench/summary_reporter.h"
#include "harness/run_context.h"

namespace sb::stacks {

namespace {

std::vector<Registrar>& registrars() {
  static std::vector<Registrar> list;
  return list;
}

void print_help() {
  std::printf(
      "stacks_bench: real RPC stacks' deserializers on the soapbench corpus\n\n"
      "  --set=NAME    default (the seed messages) or full (every message of the stack's "
      "families)\n"
      "  --corpus=DIR  corpus directory (default: $SOAPBENCH_CORPUS or the source tree's "
      "corpus/)\n"
      "  --verbose     print Google Benchmark's result table too\n\n");
  benchmark::PrintDefaultHelp();
}

}  // namespace

bool add_registrar(Registrar r) {
  registrars().push_back(r);
  return true;
}

}  // namespace sb::stacks

int main(int argc, char** argv) {
  std::string set = "default";
  std::string corpus_dir;
  bool verbose = false;
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a.starts_with("--set=")) {
      set = a.substr(6);
    } else if (a.starts_with("--corpus=")) {
      corpus_dir = a.substr(9);
    } else if (a == "--verbose") {
      verbose = true;
    } else {
      argv[out++] = argv[i];
    }
  }
  argc = out;
  benchmark::Initialize(&argc, argv, sb::stacks::print_help);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  if (set != "default" && set != "full") {
    std::fprintf(stderr, "stacks_bench: unknown --set=%s (default, full)\n", set.c_str());
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
  std::size_t count = 0;
  for (sb::stacks::Registrar r : sb::stacks::registrars()) count += r(corpus, set);
  sb::bench::SummaryReporter reporter(count, verbose);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return reporter.errors() > 0 ? 1 : 0;
}
