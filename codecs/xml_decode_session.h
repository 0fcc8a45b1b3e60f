// XmlDecodeSession: what the XML decoders share while decoding one message (the caller's
// context, the message being built, the detected family and the first error).
#pragma once

#include <string>
#include <string_view>

#include "codecs/decode.h"
#include "codecs/family.h"
#include "codecs/scalars.h"
#include "codecs/value.h"

namespace sb::rpc {

struct XmlDecodeSession {
  DecodeContext context;           // what the caller knows
  Message* out = nullptr;          // message being built
  DecodeError error;               // first error, if any
  Family family = Family::xmlrpc;  // detected family (SOAP refines its style as it reads)

  // Records `message` unless an error is already recorded; returns false for the caller to
  // return.
  bool fail(int code, std::string message);
  // fail(parse_error, "unexpected WHAT in WHERE").
  bool unexpected(std::string_view what, std::string_view where);
  // Text directly inside a container element: whitespace is layout, anything else an error.
  bool container_text(std::string_view chars) {
    return trim_xml_space(chars).empty() || unexpected("text", "a container element");
  }
};

}  // namespace sb::rpc
