// The calls every round-trip benchmark makes (roundtrip_bench and stacks_bench's stack rows): their
// names, and the request each family sends, decoded from the corpus's JSON-RPC call.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "codecs/value.h"
#include "harness/corpus.h"

namespace sb {

// The default set's calls: benchmark name → corpus file stem of the call.
const std::vector<std::pair<std::string, std::string>>& roundtrip_default_calls();

// The classic messaging table's calls (5,000 of each per row): benchmark name → corpus stem.
const std::vector<std::pair<std::string, std::string>>& messaging_calls();

// The corpus entry "<family>/<stem>" (any extension, not hostile), or nullptr.
const CorpusEntry* find_corpus_entry(const Corpus& corpus, const std::string& family,
                                     const std::string& stem);

// The JSON-RPC corpus call `stem` decoded with the default JSON adapter: the request every family
// sends; nullopt when the file is missing or does not decode.
std::optional<rpc::Message> request_from_corpus(const Corpus& corpus, const std::string& stem);

}  // namespace sb
