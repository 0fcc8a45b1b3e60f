// The adapters the suite uses when none is named, one per format: the round-trip connection
// variants, the encoders' reference reader, the JSON-RPC request reader. Result files carry
// them in their context (`default_adapter:xml`, `default_adapter:json`) for the report.
#pragma once

#include <string_view>

namespace sb {

inline constexpr std::string_view kDefaultXmlAdapter = "pugixml/dom";     // registry name
inline constexpr std::string_view kDefaultJsonAdapter = "rapidjson/dom";  // registry name

// The default adapter for a JSON (true) or XML (false) message.
constexpr std::string_view default_adapter(bool json) {
  return json ? kDefaultJsonAdapter : kDefaultXmlAdapter;
}

}  // namespace sb
