// Direct library calls without the adapter layer, in the same mode as the library's dom
// adapter: the benchmark's reference for measuring adapter overhead (never assumed).
#pragma once

#include <memory>
#include <string_view>

#include "core/message_buffer.h"

namespace sb {

class ReferenceParser {
 public:
  // "pugixml" (xml_document::load_buffer, as pugixml/dom) or "libxml2" (xmlCtxtReadMemory,
  // as libxml2/dom). Unknown names make parse() return false.
  explicit ReferenceParser(std::string_view library);
  ~ReferenceParser();

  // Parses the message into the library's DOM; false on a parse error.
  bool parse(MessageBuffer& message);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;  // the library's objects, reused across calls
};

}  // namespace sb
