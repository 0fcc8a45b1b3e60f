#include "harness/roundtrip_calls.h"

#include "parsers/registry.h"

namespace sb {

const std::vector<std::pair<std::string, std::string>>& roundtrip_default_calls() {
  static const std::vector<std::pair<std::string, std::string>> calls = {
      {"getRate", "getRate.call"},
      {"add", "add.call"},
      {"concat", "concat.call"},
      {"complex", "complex.call"},
      {"respond.2500B", "respond.2500B.call"},
      {"respond.7500B", "respond.7500B.call"},
      {"echoDoubles.1000", "echoDoubles.1000.call"},
      {"getChain", "getChain.call"},
  };
  return calls;
}

const std::vector<std::pair<std::string, std::string>>& messaging_calls() {
  static const std::vector<std::pair<std::string, std::string>> calls = {
      {"sendString", "sendString.call"},
      {"receiveString", "receiveString.call"},
      {"sendInt", "sendInt.call"}};
  return calls;
}

const CorpusEntry* find_corpus_entry(const Corpus& corpus, const std::string& family,
                                     const std::string& stem) {
  for (const CorpusEntry& e : corpus.entries()) {
    if (!e.hostile && e.family == family && e.name() == family + "/" + stem) return &e;
  }
  return nullptr;
}

std::optional<rpc::Message> request_from_corpus(const Corpus& corpus, const std::string& stem) {
  const CorpusEntry* e = find_corpus_entry(corpus, "jsonrpc", stem);
  if (e == nullptr) return std::nullopt;
  const AdapterEntry* json = find_adapter(default_adapter(true));
  if (json == nullptr) {
    for (const AdapterEntry& a : adapters()) {
      if (a.info().format == Format::json) json = &a;
    }
  }
  if (json == nullptr) return std::nullopt;
  MessageBuffer buf(corpus.read(*e));
  rpc::Message m;
  DecodeReport report;
  if (!json->make({})->decode(buf, {}, m, report).ok()) return std::nullopt;
  return m;
}

}  // namespace sb
