#include "tests/corpus_fixture.h"

#include <cstdio>
#include <cstdlib>
#include <exception>

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
  static const std::vector<std::string> f = {"xmlrpc",
                                             "soap11-rpc-encoded",
                                             "soap11-rpc-literal",
                                             "soap11-doc-literal",
                                             "soap12-doc-literal",
                                             "jsonrpc"};
  return f;
}

}  // namespace sb::test
