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

// xsd:dateTime (XML Schema Part 2, 3.2.7) to its canonical text (docs/service.md):
// "YYYY-MM-DDThh:mm:ss[.f]", in UTC (a time zone is applied, Z and +00:00 dropped: the
// contract's dateTimes are UTC), the fraction without trailing zeros (".000" gone), 24:00:00 as the
// next day's 00:00:00. Years 0001-9999 only: negative years, year 0000 and years beyond 9999 are
// refused by name, as are leap seconds (ss 60) and days the month does not have. nullopt when
// refused; *why (when given) then says why in a few words.
std::optional<std::string> parse_xsd_datetime(std::string_view text, std::string* why = nullptr);
// parse_xsd_datetime's forms, or XML-RPC's compact date "YYYYMMDDThh:mm:ss" (its spec's
// dateTime.iso8601), with the same time, fraction and zone rules. XML-RPC and JSON-RPC read this.
std::optional<std::string> parse_datetime(std::string_view text, std::string* why = nullptr);
// A dateTime sent as a string (complex's birthdate, docs/service.md): parse_datetime's forms, or
// Python's str(datetime) "YYYY-MM-DD hh:mm:ss" (a space for the T), as the classic client sends.
std::optional<std::string> parse_datetime_text(std::string_view text);
// Whether `s` is a canonical dateTime (parse_xsd_datetime's output): Value::datetime's promise,
// checked by the encoders.
bool is_canonical_datetime(std::string_view s);
// Canonical "YYYY-MM-DDThh:mm:ss" to XML-RPC "YYYYMMDDThh:mm:ss".
std::string datetime_to_xmlrpc(std::string_view canonical);

// A double as SOAP writes it (shortest round trip; INF, -INF, NaN for the specials).
void append_xsd_double(std::string& out, double d);

}  // namespace sb::rpc
