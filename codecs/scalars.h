// Text forms of scalar values, shared by every decoder and encoder.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sb::rpc {

// Strips XML whitespace (space, tab, CR, LF) from both ends.
std::string_view trim_xml_space(std::string_view s);

// A 32-bit integer in decimal ("+5", "-12"; surrounding whitespace allowed); nullopt otherwise.
std::optional<std::int32_t> parse_int32(std::string_view text);

// A double. allow_special admits the xsd:double forms INF, -INF, +INF, NaN (SOAP); XML-RPC
// and JSON-RPC forbid them. Decimal and exponent forms are accepted; hex floats are not.
std::optional<double> parse_double(std::string_view text, bool allow_special);

// XML-RPC boolean: "0" or "1".
std::optional<bool> parse_xmlrpc_bool(std::string_view text);
// xsd:boolean: "true", "false", "1", "0".
std::optional<bool> parse_xsd_bool(std::string_view text);

// dateTime to canonical "YYYY-MM-DDThh:mm:ss". Accepts the ISO form (optionally followed by
// "Z" or "+00:00", the UTC designators) and the XML-RPC compact form "YYYYMMDDThh:mm:ss".
// Other time zones and fractional seconds are refused (nullopt): canonical values have none.
std::optional<std::string> parse_datetime(std::string_view text);
// A dateTime sent as a string (complex's birthdate, docs/service.md): parse_datetime's forms, or
// Python's str(datetime) "YYYY-MM-DD hh:mm:ss" (a space for the T), as the classic client sends.
std::optional<std::string> parse_datetime_text(std::string_view text);
// Canonical "YYYY-MM-DDThh:mm:ss" to XML-RPC "YYYYMMDDThh:mm:ss".
std::string datetime_to_xmlrpc(std::string_view canonical);

// A double as SOAP writes it (shortest round trip; INF, -INF, NaN for the specials).
void append_xsd_double(std::string& out, double d);

}  // namespace sb::rpc
