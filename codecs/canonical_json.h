// Canonical JSON of decoded messages (docs/service.md): what `soapbench decode` prints and what
// the corpus manifest holds. Byte-identical to Python's
// json.dumps(value, ensure_ascii=False, separators=(",", ":")).
#pragma once

#include <string>
#include <string_view>

#include "codecs/value.h"

namespace sb::rpc {

// One line, no trailing newline.
std::string to_canonical_json(const Message& m);
void append_canonical_json(std::string& out, const Value& v);

// Python repr(float): shortest round-trip digits; fixed notation for 1e-4 <= |d| < 1e16 with a
// ".0" when integral, otherwise d.ddde±XX; "NaN", "Infinity", "-Infinity" as json.dumps writes.
std::string format_double(double d);
void append_double(std::string& out, double d);

// A JSON string literal: escapes " \ and control characters (\n \r \t \b \f, else \u00xx).
void append_json_string(std::string& out, std::string_view s);

}  // namespace sb::rpc
