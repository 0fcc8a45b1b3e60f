// Shared access to the corpus for tests: loaded once per process.
#pragma once

#include <string>
#include <vector>

#include "harness/corpus.h"

namespace sb::test {

// The corpus under default_corpus_dir(); aborts the test binary with a clear message if absent.
const Corpus& corpus();

// The protocol families in corpus order.
const std::vector<std::string>& families();

}  // namespace sb::test
