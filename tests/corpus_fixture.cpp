#include "tests/corpus_fixture.h"

#include <cstdio>
#include <cstdlib>
#include <exception>

#include "codecs/family.h"

namespace sb::test {

const Corpus& corpus() {
  static const Corpus c = [] {
    try {
      return Corpus::load(default_corpus_dir());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "cannot load the corpus: %s\n", e.what());
      std::abort();
    }
  }();
  return c;
}

const std::vector<std::string>& families() {
  static const std::vector<std::string> f = [] {
    std::vector<std::string> names;
    for (rpc::Family family : rpc::kAllFamilies) names.emplace_back(rpc::family_name(family));
    return names;
  }();
  return f;
}

}  // namespace sb::test
