// stacks_bench's registry: each peer's deserializer benchmarks (decode/<stack>/<family>/<call>)
// add a registrar from a file-scope initializer; main runs them once the corpus is loaded.
#pragma once

#include <string_view>

#include "harness/corpus.h"

namespace sb::stacks {

// Registers a peer's benchmarks for `set` ("default" or "full") over the corpus; returns how many.
using Registrar = std::size_t (*)(const Corpus& corpus, std::string_view set);

// Adds a registrar (call from a static initializer); returns true.
bool add_registrar(Registrar r);

}  // namespace sb::stacks
