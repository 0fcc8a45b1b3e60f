// A linear pre-scan of JSON that enforces Limits::max_members before a library sees the message.
// Used at the decode level only by adapters whose library is superlinear in an object's members
// (nlohmann::ordered_json and Poco::JSON in insertion order find each key by linear search):
// AdapterInfo::decode_markup_guard on a JSON adapter. The others are held to the same bound by
// the codec (codecs/json_decoder.cpp), from the events.
#pragma once

#include <string_view>

#include "core/limits.h"
#include "core/status.h"

namespace sb {

// Smallest message that can break the bound: shorter ones skip the scan (each member needs at
// least 4 bytes, `"":0`).
std::size_t json_guard_threshold(const Limits& limits);

// Status::limit when one object holds more than limits.max_members members; ok otherwise. String
// and escape aware. Not a parser: malformed JSON is left for the library to reject.
Status check_json_limits(std::string_view json, const Limits& limits);

}  // namespace sb
