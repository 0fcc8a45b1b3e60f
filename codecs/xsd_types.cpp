#include "codecs/xsd_types.h"

#include <array>
#include <deque>
#include <utility>

namespace sb::rpc {

namespace {

// A simple type read as its text, under its own schema name (what `wsdl --check` prints).
const Type& text_type(std::string_view name) {
  static std::deque<Type> made;  // one per name, built on first use; pointers stay valid
  static constexpr std::array<std::string_view, 34> kNames = {"string",
                                                              "normalizedString",
                                                              "token",
                                                              "anyURI",
                                                              "QName",
                                                              "NOTATION",
                                                              "NCName",
                                                              "Name",
                                                              "ID",
                                                              "IDREF",
                                                              "IDREFS",
                                                              "ENTITY",
                                                              "ENTITIES",
                                                              "NMTOKEN",
                                                              "NMTOKENS",
                                                              "language",
                                                              "date",
                                                              "time",
                                                              "duration",
                                                              "gYear",
                                                              "gYearMonth",
                                                              "gMonth",
                                                              "gMonthDay",
                                                              "gDay",
                                                              "hexBinary",
                                                              "long",
                                                              "unsignedInt",
                                                              "unsignedLong",
                                                              "integer",
                                                              "decimal",
                                                              "nonNegativeInteger",
                                                              "positiveInteger",
                                                              "negativeInteger",
                                                              "nonPositiveInteger"};
  static const bool built = [] {
    for (std::string_view n : kNames) made.push_back(Type{Kind::string, n});
    return true;
  }();
  (void)built;
  for (const Type& t : made) {
    if (t.name == name) return t;
  }
  return type_of(Kind::string);
}

}  // namespace

bool is_xsd_namespace(std::string_view uri) {
  return uri == ns::xsd || uri == "http://www.w3.org/1999/XMLSchema" ||
         uri == "http://www.w3.org/2000/10/XMLSchema";
}

bool is_xsd_any(std::string_view local) { return local == "anyType" || local == "anySimpleType"; }

const Type* xsd_builtin(std::string_view local) {
  static constexpr std::pair<std::string_view, Kind> kTyped[] = {
      {"int", Kind::integer},          {"short", Kind::integer},
      {"byte", Kind::integer},         {"unsignedShort", Kind::integer},
      {"unsignedByte", Kind::integer}, {"double", Kind::floating},
      {"float", Kind::floating},       {"boolean", Kind::boolean},
      {"dateTime", Kind::datetime},    {"base64Binary", Kind::base64},
      {"base64", Kind::base64},        {"string", Kind::string}};
  for (const auto& [name, kind] : kTyped) {
    if (name == local) return &type_of(kind);
  }
  const Type& t = text_type(local);
  return &t == &type_of(Kind::string) ? nullptr : &t;
}

}  // namespace sb::rpc
