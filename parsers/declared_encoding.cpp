#include "parsers/declared_encoding.h"

#include <cctype>

namespace sb {

namespace {

bool same_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string_view declared_non_utf8_encoding(std::string_view xml) {
  if (xml.starts_with("\xEF\xBB\xBF")) xml.remove_prefix(3);
  if (xml.starts_with("\xFE\xFF") || xml.starts_with("\xFF\xFE")) return "UTF-16";
  // The usual first lines settle most messages without reading the declaration's parts.
  for (std::string_view usual :
       {R"(<?xml version="1.0" encoding="UTF-8"?>)", R"(<?xml version="1.0" encoding="utf-8"?>)",
        R"(<?xml version="1.0"?>)"}) {
    if (xml.starts_with(usual)) return {};
  }
  if (!xml.starts_with("<?xml")) return {};  // no declaration: UTF-8
  const std::string_view declaration = xml.substr(0, xml.find("?>"));
  const std::size_t at = declaration.find("encoding");
  if (at == std::string_view::npos) return {};
  const std::size_t open = declaration.find_first_of("\"'", at);
  if (open == std::string_view::npos) return {};
  const std::size_t close = declaration.find(declaration[open], open + 1);
  if (close == std::string_view::npos) return {};
  const std::string_view name = declaration.substr(open + 1, close - open - 1);
  for (std::string_view utf8 : {"UTF-8", "UTF8", "US-ASCII", "ASCII"}) {
    if (same_name(name, utf8)) return {};
  }
  return name;
}

}  // namespace sb
