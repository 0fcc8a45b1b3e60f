// Library writers: each library's own serializer behind codecs' XmlWriter / JsonWriter, so the
// encoders (codecs/xml_encoder.h, json_encoder.h) run unchanged over them. Each factory is defined
// in the library's own file and compiled only when SB_HAVE_<LIB> is set (harness/encoders.cpp
// sees the same switches). All of them refuse, with the XmlWriter's usual reason, text XML 1.0
// cannot carry (malformed UTF-8, control characters): libraries would write it as is or as &#1;.
#pragma once

#include <memory>

#include "codecs/json_writer.h"
#include "codecs/xml_writer.h"

namespace sb {

// pugixml: builds a pugi::xml_document, saved with format_raw through a pugi::xml_writer that
// appends to a std::string. The document is reset (not reallocated) per message. pugixml writes
// CR in text raw (a parser reads it back as LF), so text holding CR is refused.
std::unique_ptr<rpc::XmlWriter> make_pugixml_writer();

// libxml2: xmlTextWriter (streaming, no tree) into an xmlBuffer reused across messages;
// xmlTextWriterStartDocument("1.0", NULL encoding: UTF-8 without a conversion pass).
std::unique_ptr<rpc::XmlWriter> make_libxml2_writer();

// tinyxml2: XMLPrinter in memory, compact mode, streaming (no XMLDocument). XMLPrinter writes CR
// in text and tab/LF/CR in attribute values raw (parsers normalize them away), so those refuse.
std::unique_ptr<rpc::XmlWriter> make_tinyxml2_writer();

// Xerces-C++: a DOMDocument (DOM Level 1 nodes, qnames as written) serialized by DOMLSSerializer
// to a MemBufFormatTarget as UTF-8; input is transcoded UTF-8 -> UTF-16 with Xerces' UTF-8
// transcoder (never the local code page).
std::unique_ptr<rpc::XmlWriter> make_xerces_writer();

// RapidJSON: rapidjson::Writer<StringBuffer> with kWriteValidateEncodingFlag (malformed UTF-8 is
// refused rather than copied into the output); Double() writes Grisu2 shortest digits.
std::unique_ptr<rpc::JsonWriter> make_rapidjson_writer();

}  // namespace sb
