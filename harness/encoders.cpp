#include "harness/encoders.h"

#include <vector>

#include "codecs/xml_encoder.h"
#include "parsers/writers.h"

namespace sb {

namespace {

constexpr std::uint32_t bit(rpc::Family f) { return 1U << static_cast<int>(f); }

constexpr std::uint32_t kXmlFamilies =
    bit(rpc::Family::xmlrpc) | bit(rpc::Family::soap11_rpc_encoded) |
    bit(rpc::Family::soap11_rpc_literal) | bit(rpc::Family::soap11_doc_literal) |
    bit(rpc::Family::soap12_doc_literal);
constexpr std::uint32_t kAllFamilies = kXmlFamilies | bit(rpc::Family::jsonrpc);

}  // namespace

// "direct" first, then every library writer compiled into sb_parsers (parsers/writers.h).
std::span<const EncoderEntry> encoders() {
  static const std::vector<EncoderEntry> table = [] {
    std::vector<EncoderEntry> rows = {
        {"direct", "soapbench", "DirectXmlWriter / DirectJsonWriter", kAllFamilies,
         "streaming append into one reused buffer; statically dispatched", nullptr, nullptr}};
    for (const WriterInfo* w : library_writers()) {
      const std::uint32_t families = w->make_xml ? kXmlFamilies : bit(rpc::Family::jsonrpc);
      rows.push_back(
          {w->name, w->library, w->writer, families, w->notes, w->make_xml, w->make_json});
    }
    return rows;
  }();
  return table;
}

const EncoderEntry* find_encoder(std::string_view name) {
  for (const EncoderEntry& e : encoders()) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

Encoder::Encoder(const EncoderEntry& entry) : entry_(&entry) {
  if (entry.make_xml != nullptr) xml_ = entry.make_xml();
  if (entry.make_json != nullptr) json_ = entry.make_json();
}

bool Encoder::encode(const rpc::Message& m, rpc::Family f, std::string& out, std::string& error,
                     const rpc::JsonRpcOptions& json, const rpc::Contract& contract) {
  if (!entry_->supports(f)) {
    error = "encoder " + std::string(entry_->name) + " does not write " +
            std::string(rpc::family_name(f));
    return false;
  }
  if (rpc::is_xml(f)) {
    return xml_ ? rpc::encode_xml<rpc::XmlWriter>(m, f, *xml_, out, error, contract)
                : rpc::encode_xml(m, f, direct_xml_, out, error, contract);
  }
  return json_ ? rpc::encode_json<rpc::JsonWriter>(m, *json_, out, error, json)
               : rpc::encode_json(m, direct_json_, out, error, json);
}

std::unique_ptr<Encoder> make_encoder(std::string_view name) {
  const EncoderEntry* e = find_encoder(name);
  return e ? std::make_unique<Encoder>(*e) : nullptr;
}

std::string encode_message(std::string_view encoder, const rpc::Message& m, rpc::Family f,
                           std::string& out) {
  const EncoderEntry* e = find_encoder(encoder);
  if (e == nullptr) return "no encoder named " + std::string(encoder);
  Encoder enc(*e);
  std::string error;
  if (!enc.encode(m, f, out, error)) return error.empty() ? "encoding failed" : error;
  return {};
}

}  // namespace sb
