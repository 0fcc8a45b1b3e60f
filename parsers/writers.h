// Library writers: each library's own serializer behind codecs' XmlWriter / JsonWriter, so the
// encoders (codecs/xml_encoder.h, json_encoder.h) run unchanged over them. Each row is defined in
// the library's own file (pugixml_writer.cpp: pugixml_writer_info) and listed by the adapter list
// (sb_adapter(... WRITER id)). All of them refuse, with the XmlWriter's usual reason, text
// XML 1.0 cannot carry (malformed UTF-8, control characters): libraries would write it as is or
// as &#1;.
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "codecs/json_writer.h"
#include "codecs/xml_writer.h"

namespace sb {

// One library writer: what `soapbench` and the encode benchmarks call it and how to make one.
struct WriterInfo {
  std::string_view name;     // encoder name: "pugixml", "rapidjson", ...
  std::string_view library;  // whose serializer writes the bytes
  std::string_view writer;   // the serializer API used, as the library names it
  std::string_view notes;    // one line: reuse across messages, refusals
  std::unique_ptr<rpc::XmlWriter> (*make_xml)();    // XML writer factory; nullptr for JSON
  std::unique_ptr<rpc::JsonWriter> (*make_json)();  // JSON writer factory; nullptr for XML
};

// Every library writer compiled into this build, in adapter-list order.
std::span<const WriterInfo* const> library_writers();

}  // namespace sb
