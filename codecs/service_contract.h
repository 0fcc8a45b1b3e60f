// The service contract, described once (docs/service.md): operations, parameter names and
// types, result types. It types literal SOAP and JSON-RPC, drives the server's dispatcher and
// the WSDL. tools/corpusgen holds an independent copy on purpose (the corpus judges this code).
#pragma once

#include <deque>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
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
  bool dynamic = false;                  // typed by each value's own xsi:type (dynamic_type())

  // Whether a value of kind k has this type's shape (kind, or the alternative).
  bool admits(Kind k) const { return k == kind || (also != Kind::nil && k == also); }
};

struct Member {
  std::string_view name;  // member element / key name
  const Type* type;       // member type
  bool repeated = false;  // maxOccurs > 1: `type` is an array whose items stand one element each,
                          // without a wrapper, in order
  std::string_view ns = {};  // a user's WSDL, literal use: the element's namespace ("" unqualified)
};

struct StructDef {
  std::string_view name;        // "Person"
  std::vector<Member> members;  // in order; the order is part of the type
};

struct Param {
  std::string_view name;     // parameter element / position name
  const Type* type;          // parameter type
  bool optional = false;     // may be absent (trailing params only)
  bool repeated = false;     // maxOccurs > 1: `type` is an array whose items stand one element each
  std::string_view ns = {};  // a user's WSDL, literal use: the element's namespace ("" unqualified)
};

struct Operation {
  std::string_view name;       // "getRate"
  std::string_view ns;         // XML namespace of the operation element
  std::vector<Param> params;   // in order
  const Type* result;          // result type; kind nil for void
  bool always_faults = false;  // `fail`: the result is always a fault
  // What a user's WSDL (codecs/wsdl_reader.h) may say otherwise; the built-in service keeps the
  // defaults.
  std::string_view request_element =
      {};  // the call's Body element, when not `name` (document style)
  std::string_view response_element =
      {};                             // the response's Body element, when not name + "Response"
  bool result_repeated = false;       // the result element occurs any number of times: an array
  bool result_optional = false;       // the result element may be absent (minOccurs="0"): nil
  bool result_members = false;        // the response element's children are the result's members
  std::string_view result_ns = {};    // the result element's namespace (as Param::ns)
  std::string_view soap_action = {};  // the binding's soapAction ("" when none)
  // The SOAP binding a user's WSDL gives the operation (`soapbench call --wsdl`); the built-in
  // service's operations leave it empty (they are served in every family at one address).
  struct Binding {
    std::string_view soap_version;  // "1.1" or "1.2"
    std::string_view style;         // "rpc" or "document"
    std::string_view use;           // "literal" or "encoded" (the input's soap:body use=)
    std::string_view address;       // soap:address location of a port of the binding, or ""
  };
  Binding binding = {};

  // The Body element of a call / a response.
  std::string_view call_element() const { return request_element.empty() ? name : request_element; }
  bool is_response_element(std::string_view local) const;
};

class Contract {
 public:
  std::span<const Operation> operations() const { return operations_; }
  // The operation named `name`, or nullptr.
  const Operation* find(std::string_view name) const;
  // The operation whose call or response is the Body element `local`, or nullptr; *response says
  // which.
  const Operation* find_body_element(std::string_view local, bool* response) const;
  // Why the operation with Body element `local` (its call, or its name + "Response") cannot be
  // typed (a user's WSDL names a construct outside the supported subset), or "".
  std::string_view refusal(std::string_view local) const;
  // Struct and array types, for the WSDL's schema.
  std::span<const StructDef* const> structs() const { return structs_; }
  std::span<const Type* const> array_types() const { return arrays_; }

 private:
  friend const Contract& service_contract();
  friend class ContractBuilder;
  std::vector<Operation> operations_;      // every operation, docs/service.md order
  std::vector<const StructDef*> structs_;  // Person, PersonIn, Document, Paragraph, ChainStep
  std::vector<const Type*> arrays_;        // ArrayOfInt, …
  std::vector<std::pair<std::string_view, std::string_view>> refused_;  // (element, why)
  std::shared_ptr<const void> storage_;  // a built contract's types and names (ContractBuilder)
};

// Builds a Contract whose types and names it owns (a user's WSDL, codecs/wsdl_reader.h): the
// pointers and views handed out stay valid for the life of every copy of the finished Contract.
class ContractBuilder {
 public:
  ContractBuilder();
  // A stable copy of `s`.
  std::string_view name(std::string_view s);
  // A new type / struct definition owned by the contract (filled in by the caller).
  Type& new_type(Kind kind, std::string_view type_name);
  StructDef& new_struct(std::string_view struct_name);
  // Adds an operation (its views and types must come from this builder or be static).
  void add(Operation op) { contract_.operations_.push_back(std::move(op)); }
  // Records that the operation with Body element `element` cannot be typed, and why.
  void refuse(std::string_view element, std::string_view why);
  // The contract; the builder is spent.
  Contract finish();

 private:
  struct Storage {
    std::deque<std::string> names;  // interned names
    std::deque<Type> types;         // every type made here
    std::deque<StructDef> structs;  // every struct made here
  };
  std::shared_ptr<Storage> storage_;  // handed to the contract at finish()
  Contract contract_;                 // being built
};

// The one service.
const Contract& service_contract();

// The params of `call` in `op`'s order: positional ones as they are, ones sent by name
// (Message::param_names) placed by name. "" on success, else why (a name `op` does not have, one
// given twice, a required one missing).
std::string params_in_order(const Operation& op, const Message& call, std::vector<Value>& out);

// Built-in scalar types.
const Type& type_of(Kind scalar);

// xsd:anyType as SOAP encoding reads it: each value's own xsi:type (or soapenc:arrayType) says
// what it is, so an rpc/encoded message decodes without a contract; an element with children
// and no xsi:type is a struct of such values.
const Type& dynamic_type();

// The one scalar type that is not an XML Schema built-in: text that is a dateTime or a string
// (complex's PersonIn.birthdate, docs/service.md). Decoders that type by the contract read it
// as a string; XML-RPC may send either; the service turns it into a dateTime.
const Type& datetime_or_string();

// Namespaces the codecs and the WSDL share.
namespace ns {
inline constexpr std::string_view soap11_env = "http://schemas.xmlsoap.org/soap/envelope/";
inline constexpr std::string_view soap12_env = "http://www.w3.org/2003/05/soap-envelope";
inline constexpr std::string_view soap11_enc = "http://schemas.xmlsoap.org/soap/encoding/";
inline constexpr std::string_view soap12_enc = "http://www.w3.org/2003/05/soap-encoding";
inline constexpr std::string_view soap12_rpc = "http://www.w3.org/2003/05/soap-rpc";
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
