// stacks_bench's registration hook: each peer's benchmarks (peers/<stack>/<stack>_decode_bench.cpp,
// <stack>_roundtrip_bench.cpp) add a registrar from a file-scope static initializer;
// main runs every registrar once the corpus is loaded.
#pragma once

#include <cstddef>
#include <string>

#include "harness/corpus.h"

namespace sb::stacks {

// Registers a peer's benchmarks over the corpus for `set` ("default" or "full"); returns how
// many it registered.
using Registrar = std::size_t (*)(const Corpus& corpus, const std::string& set);

// Adds a registrar; returns true (for `const bool registered = add_registrar(...)`).
bool add_registrar(Registrar registrar);

// Adds a registrar of its own set `set` (e.g. "scripting"): `--set=NAME` runs the registrars of
// that set and no others; returns true.
bool add_set_registrar(const std::string& set, Registrar registrar);

}  // namespace sb::stacks
