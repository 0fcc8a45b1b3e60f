// What the SOAP decoder's files share (soap_decoder.cpp; soap_dynamic.cpp, messages typed by
// their own xsi:type; soap_fault.cpp, faults): private to SoapDecoder.
#pragma once

#include <string_view>

#include "codecs/service_contract.h"
#include "codecs/value.h"
#include "codecs/xsd_types.h"

namespace sb::rpc::soap_detail {

inline bool is_xsi(std::string_view uri) {
  return uri == ns::xsi || uri == ns::xsi_1999 || uri == ns::xsi_2000;
}

// The namespaces whose names the built-in simple types and Array / Struct are: XML Schema's and
// both SOAP encodings'.
inline bool is_schema_or_encoding(std::string_view uri) {
  return is_xsd_namespace(uri) || uri == ns::soap11_enc || uri == ns::soap12_enc;
}

// The shapes an anyType value (dynamic_type()) takes once its attributes are read.
struct DynamicShapes {
  StructDef open{"struct", {}};  // no members listed: every member is anyType
  Type structure{Kind::structure, "struct", nullptr, &open, Kind::nil, true};
  Type array{Kind::array, "Array", &dynamic_type()};
  // No xsi:type yet: a struct if children come, an error if it holds only text.
  Type untyped{Kind::string, "untyped", nullptr, nullptr, Kind::nil, true};
  // An xsi:type of the message's own schema: a struct if children come, else its text.
  Type named{Kind::string, "named", nullptr, nullptr, Kind::nil, true};
  // arrayType="ns:Item[n]" / enc:itemType="ns:Item" of the sender's own schema: items without
  // an xsi:type are structs (children) or their text, as `named`.
  Type named_array{Kind::array, "Array", &named};
  // soapenc:arrayType="xsd:int[n]" and the like: arrays of a built-in scalar kind.
  Type scalar_arrays[6] = {{Kind::array, "Array", &type_of(Kind::boolean)},
                           {Kind::array, "Array", &type_of(Kind::integer)},
                           {Kind::array, "Array", &type_of(Kind::floating)},
                           {Kind::array, "Array", &type_of(Kind::string)},
                           {Kind::array, "Array", &type_of(Kind::datetime)},
                           {Kind::array, "Array", &type_of(Kind::base64)}};
};

// The one set of shapes (built once).
const DynamicShapes& shapes();

}  // namespace sb::rpc::soap_detail
