// The service contract, described once (docs/service.md): operations, parameter names and
// types, result types. It types literal SOAP and JSON-RPC, drives the server's dispatcher and
// the WSDL. tools/corpusgen holds an independent copy on purpose (the corpus judges this code).
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "codecs/value.h"

namespace sb::rpc {

struct StructDef;

// A value type: a scalar kind, an array of an element type, or a struct.
struct Type {
  Kind kind;                             // nil means void
  std::string_view name;                 // schema name: "int", "ArrayOfInt", "Person"
  const Type* element = nullptr;         // arrays: element type
  const StructDef* structure = nullptr;  // structs: the definition
  Kind also = Kind::nil;                 // a second kind a value may have (dateTimeOrString)

  // Whether a value of kind k has this type's shape (kind, or the alternative).
  bool admits(Kind k) const { return k == kind || (also != Kind::nil && k == also); }
};

struct Member {
  std::string_view name;  // member element / key name
  const Type* type;       // member type
};

struct StructDef {
  std::string_view name;        // "Person"
  std::vector<Member> members;  // in order; the order is part of the type
};

struct Param {
  std::string_view name;  // parameter element / position name
  const Type* type;       // parameter type
  bool optional = false;  // may be absent (trailing params only)
};

struct Operation {
  std::string_view name;       // "getRate"
  std::string_view ns;         // XML namespace of the operation element
  std::vector<Param> params;   // in order
  const Type* result;          // result type; kind nil for void
  bool always_faults = false;  // `fail`: the result is always a fault
};

class Contract {
 public:
  std::span<const Operation> operations() const { return operations_; }
  // The operation named `name`, or nullptr.
  const Operation* find(std::string_view name) const;
  // Struct and array types, for the WSDL's schema.
  std::span<const StructDef* const> structs() const { return structs_; }
  std::span<const Type* const> array_types() const { return arrays_; }

 private:
  friend const Contract& service_contract();
  std::vector<Operation> operations_;      // every operation, docs/service.md order
  std::vector<const StructDef*> structs_;  // Person, PersonIn, Document, Paragraph, ChainStep
  std::vector<const Type*> arrays_;        // ArrayOfInt, …
};

// The one service.
const Contract& service_contract();

// Built-in scalar types.
const Type& type_of(Kind scalar);

// The one scalar type that is not an XML Schema built-in: text that is a dateTime or a string
// (complex's PersonIn.birthdate, docs/service.md). Decoders that type by the contract read it
// as a string; XML-RPC may send either; the service turns it into a dateTime.
const Type& datetime_or_string();

// Namespaces the codecs and the WSDL share.
namespace ns {
inline constexpr std::string_view soap11_env = "http://schemas.xmlsoap.org/soap/envelope/";
inline constexpr std::string_view soap12_env = "http://www.w3.org/2003/05/soap-envelope";
inline constexpr std::string_view soap11_enc = "http://schemas.xmlsoap.org/soap/encoding/";
inline constexpr std::string_view xsd = "http://www.w3.org/2001/XMLSchema";
inline constexpr std::string_view xsi = "http://www.w3.org/2001/XMLSchema-instance";
inline constexpr std::string_view xsi_1999 = "http://www.w3.org/1999/XMLSchema-instance";
inline constexpr std::string_view xsi_2000 = "http://www.w3.org/2000/10/XMLSchema-instance";
inline constexpr std::string_view service = "urn:soapbench";
}  // namespace ns

// Service fault codes (docs/service.md).
namespace fault {
inline constexpr int division_by_zero = 4;
inline constexpr int parse_error = -32700;
inline constexpr int invalid_request = -32600;
inline constexpr int method_not_found = -32601;
inline constexpr int invalid_params = -32602;
inline constexpr int internal_error = -32603;
}  // namespace fault

}  // namespace sb::rpc
