// What a message or an adapter speaks: XML or JSON.
#pragma once

#include <string_view>

namespace sb {

enum class Format { xml, json };

// "xml" / "json".
constexpr std::string_view format_name(Format f) { return f == Format::xml ? "xml" : "json"; }

}  // namespace sb
