#include "load/load_call.h"

#include <stdexcept>

#include "client/jsonrpc_batch.h"
#include "codecs/canonical_json.h"
#include "harness/answer_check.h"
#include "harness/encoders.h"
#include "harness/roundtrip_calls.h"
#include "parsers/registry.h"

namespace sb {

namespace {

// The corpus call message decoded by the family's default adapter: the request the answer is
// computed from (what the server will decode).
rpc::Message decode_call(const std::string& bytes, rpc::Family family, const std::string& what) {
  MessageBuffer buffer(bytes);
  rpc::DecodeContext context;
  context.protocol = rpc::protocol_of(family);
  rpc::Message m;
  DecodeReport report;
  const Status status =
      make_adapter(default_adapter(!rpc::is_xml(family)))->decode(buffer, context, m, report);
  if (!status.ok()) throw std::runtime_error(what + " does not decode: " + status.describe());
  if (m.kind != rpc::MessageKind::call) throw std::runtime_error(what + " is not a call");
  return m;
}

}  // namespace

LoadCall make_load_call(const Corpus& corpus, rpc::Family family, const std::string& name,
                        const Url& url, const std::string& server_parser, std::size_t batch) {
  const std::string family_dir(rpc::family_name(family));
  const std::string what = "corpus " + family_dir + "/" + name + ".call";
  const CorpusEntry* entry = find_corpus_entry(corpus, family_dir, name + ".call");
  if (entry == nullptr) throw std::runtime_error(what + ": no such corpus message");
  LoadCall c;
  c.family = family;
  c.name = name;
  c.operation = entry->operation;
  std::string body = corpus.read(*entry);
  const rpc::Message call = decode_call(body, family, what);
  const std::optional<rpc::Message> answer = expected_answer(corpus, family_dir, call);
  if (!answer) throw std::runtime_error(what + ": its correct answer is not known");
  c.expected = rpc::to_canonical_json(*answer);
  if (batch > 0) {
    if (family != rpc::Family::jsonrpc) {
      throw std::runtime_error("a batch is a JSON-RPC 2.0 request, not " + family_dir);
    }
    std::string error;
    Encoder direct(*find_encoder("direct"));
    if (!encode_batch(direct, std::vector<BatchMember>(batch, BatchMember{call}), 1, body, error))
      throw std::runtime_error(what + ": " + error);
    rpc::Message answers;
    answers.kind = rpc::MessageKind::batch;
    answers.batch.assign(batch, *answer);
    c.expected = rpc::to_canonical_json(answers);
    c.batch = true;
  }
  const std::string action = rpc::is_soap(family) ? soap_action(c.operation) : "";
  append_request_head(c.request, {family, url.target(family), url.authority, action, server_parser,
                                  true, body.size()});
  c.request += body;
  c.body_bytes = body.size();
  return c;
}

}  // namespace sb
