// The encoder registry: an explicit table of named encoders (no self-registration, like
// parsers/registry.cpp). "direct" is our streaming writer for every family; the other rows run the
// same protocol logic (codecs/xml_encoder.h, json_encoder.h) over a library's own serializer.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "codecs/family.h"
#include "codecs/json_encoder.h"
#include "codecs/json_writer.h"
#include "codecs/service_contract.h"
#include "codecs/value.h"
#include "codecs/xml_writer.h"

namespace sb {

// One row of the table.
struct EncoderEntry {
  std::string_view name;     // "direct", "pugixml", "libxml2", "tinyxml2", "xerces", "rapidjson"
  std::string_view library;  // whose serializer writes the bytes ("soapbench" for direct)
  std::string_view writer;   // the serializer API used, as the library names it
  std::uint32_t families;    // bit (1 << Family) for every family it writes
  std::string_view notes;    // one line: reuse across messages, what it refuses and why
  std::unique_ptr<rpc::XmlWriter> (*make_xml)();    // library XML writer; nullptr: none/direct
  std::unique_ptr<rpc::JsonWriter> (*make_json)();  // library JSON writer; nullptr: none/direct

  // Whether this row writes family f.
  bool supports(rpc::Family f) const { return (families >> static_cast<int>(f)) & 1U; }
};

// Every encoder compiled into this build, in table order ("direct" first).
std::span<const EncoderEntry> encoders();

// The row named `name`, or nullptr.
const EncoderEntry* find_encoder(std::string_view name);

// One encoder instance: its writers are created once and reused for every message (as a server
// would). Not thread-safe: one per thread.
class Encoder {
 public:
  // Creates the row's writers once.
  explicit Encoder(const EncoderEntry& entry);

  // The row this encoder was made from.
  const EncoderEntry& entry() const { return *entry_; }

  // Writes m in family f into out (replaced). False with a one-line reason in error when the
  // family is not supported or m cannot be written (see encode_xml / encode_json). SOAP values
  // are typed by `contract` (a user's WSDL, `soapbench call --wsdl`; else the service's).
  bool encode(const rpc::Message& m, rpc::Family f, std::string& out, std::string& error,
              const rpc::JsonRpcOptions& json = {},
              const rpc::Contract& contract = rpc::service_contract());

 private:
  const EncoderEntry* entry_;              // the row
  rpc::DirectXmlWriter direct_xml_;        // "direct": statically dispatched XML writer
  rpc::DirectJsonWriter direct_json_;      // "direct": statically dispatched JSON writer
  std::unique_ptr<rpc::XmlWriter> xml_;    // library rows: the library's XML writer
  std::unique_ptr<rpc::JsonWriter> json_;  // library rows: the library's JSON writer
};

// An encoder by name, or nullptr when no such row is compiled in.
std::unique_ptr<Encoder> make_encoder(std::string_view name);

// One-shot convenience: looks the encoder up and writes m in family f into out. Returns the empty
// string on success, else the reason (unknown encoder, unsupported family, encoding error).
std::string encode_message(std::string_view encoder, const rpc::Message& m, rpc::Family f,
                           std::string& out);

}  // namespace sb
