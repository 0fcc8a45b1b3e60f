// SoapDecoder's messages typed by their own xsi:type (SOAP encoding without a contract,
// dynamic_type()): the shapes a value takes, arrays by soapenc:arrayType or enc:itemType, and what
// a message needs when nothing types it.
#include <algorithm>
#include <string>
#include <vector>

#include "codecs/scalars.h"
#include "codecs/soap_decoder.h"
#include "codecs/soap_shapes.h"
#include "codecs/xml_namespaces.h"

namespace sb::rpc {

namespace {

// The sizes of an array's dimensions: SOAP 1.1's "[2,3]" (arrayType's last brackets) or SOAP
// 1.2's "2 3" (enc:arraySize); an unspecified one ("[]", "*") is npos.
std::vector<std::size_t> dimensions(std::string_view spec, char separator) {
  std::vector<std::size_t> dims;
  for (std::size_t at = 0; at <= spec.size();) {
    std::size_t end = spec.find(separator, at);
    if (end == std::string_view::npos) end = spec.size();
    const std::string_view d = trim_xml_space(spec.substr(at, end - at));
    if (!d.empty() || separator == ',') {
      const auto n = parse_int32(d);
      dims.push_back(n && *n >= 0 ? static_cast<std::size_t>(*n) : std::string_view::npos);
    }
    at = end + 1;
  }
  return dims;
}

}  // namespace

namespace soap_detail {

const DynamicShapes& shapes() {
  static const DynamicShapes s;
  return s;
}

// The member `name` of the (non-dynamic) struct type `t`, or nullptr.

}  // namespace soap_detail

using soap_detail::is_schema_or_encoding;
using soap_detail::is_xsi;
using soap_detail::shapes;

bool SoapDecoder::open_dynamic_operation(std::string_view local) {
  // Not in the contract: SOAP encoding types every value itself (xsi:type), so the message is
  // read by those types; a value without one fails as "method not found" (decide(), below).
  const bool response = local.size() > 8 && local.ends_with("Response");
  dynamic_name_.assign(response ? local.substr(0, local.size() - 8) : local);
  dynamic_op_ = Operation{dynamic_name_, {}, {}, &dynamic_type()};
  operation_ = &dynamic_op_;
  if (!encoding_declared_) {
    // A literal Body (no encodingStyle naming SOAP encoding) is a document: only its WSDL
    // types it, whatever xsi:type its elements carry.
    return session_.fail(fault::method_not_found,
                         "method not found: " + dynamic_name_ + not_in_contract() +
                             ", and its Body is literal (no encodingStyle names SOAP "
                             "encoding): " +
                             what_would_type());
  }
  session_.out->kind = response ? MessageKind::response : MessageKind::call;
  session_.out->method = dynamic_name_;
  frames_.push_back({.frame = Frame::operation, .response = response});
  return true;
}

const Type* SoapDecoder::array_of(const Type* item) {
  for (const Type& a : shapes().scalar_arrays) {
    if (a.element == item) return &a;
  }
  for (const Type& a : item_arrays_) {
    if (a.element == item) return &a;
  }
  return &item_arrays_.emplace_back(Type{Kind::array, "Array", item});
}

const Type* SoapDecoder::array_of_named(std::string_view item) {
  std::string_view prefix;
  const std::string_view local = local_part(item, &prefix);
  if (!is_schema_or_encoding(namespaces_.resolve(prefix))) return &shapes().named_array;
  const Type* t = xsd_builtin(local);
  return t != nullptr ? array_of(t) : &shapes().array;  // anyType, Array, …: items say
}

const Type* SoapDecoder::dynamic_value_type(XmlAttributes attributes) {
  std::string_view xsi_type;
  std::string_view array_type;  // SOAP 1.1 soapenc:arrayType
  std::string_view item_type;   // SOAP 1.2 enc:itemType
  std::string_view node_type;   // SOAP 1.2 enc:nodeType
  bool soap12_array = false;    // enc:itemType or enc:arraySize seen
  for (const XmlAttribute& a : attributes) {
    std::string_view alocal;
    const std::string_view auri = namespaces_.attribute_uri(a.qname, &alocal);
    if (is_xsi(auri) && alocal == "type") {
      xsi_type = trim_xml_space(a.value);
    } else if (auri == ns::soap11_enc && alocal == "arrayType") {
      array_type = trim_xml_space(a.value);
    } else if (auri == ns::soap11_enc && alocal == "offset") {
      session_.fail(fault::invalid_params,
                    "a partially transmitted array (SOAP-ENC:offset, SOAP 1.1 section 5.4.2.1): "
                    "the value model has no absent members");
      return nullptr;
    } else if (auri == ns::soap12_enc) {
      if (alocal == "itemType") item_type = trim_xml_space(a.value);
      if (alocal == "nodeType") node_type = trim_xml_space(a.value);
      if (alocal == "arraySize") pending_dims_ = dimensions(a.value, ' ');
      soap12_array = soap12_array || alocal == "itemType" || alocal == "arraySize";
    }
  }
  if (!array_type.empty()) {
    // ITEM[n] (or ITEM[n,m], ITEM[n][m], ITEM[]): an array of arrays is typed by its items'
    // own arrayType, others by ITEM.
    encoded_ = true;
    const std::size_t last = array_type.rfind('[');
    if (last != std::string_view::npos && array_type.back() == ']') {
      pending_dims_ = dimensions(array_type.substr(last + 1, array_type.size() - last - 2), ',');
    }
    if (array_type.find('[') != last) return &shapes().array;
    return array_of_named(array_type.substr(0, array_type.find('[')));
  }
  if (soap12_array || node_type == "array") {
    encoded_ = true;
    return item_type.empty() ? &shapes().array : array_of_named(item_type);
  }
  if (xsi_type.empty()) return node_type == "struct" ? &shapes().structure : &shapes().untyped;
  encoded_ = true;
  std::string_view prefix;
  const std::string_view local = local_part(xsi_type, &prefix);
  const std::string_view uri = namespaces_.resolve(prefix);
  if (is_schema_or_encoding(uri)) {
    if (uri != ns::xsd && local == "Array") return &shapes().array;
    if (uri != ns::xsd && local == "Struct") return &shapes().structure;
    if (const Type* t = xsd_builtin(local)) return t;
    if (is_xsd_any(local)) return &shapes().untyped;
    session_.fail(fault::invalid_params,
                  "unknown XML Schema type xsi:type=\"" + std::string(xsi_type) + "\"");
    return nullptr;
  }
  return &shapes().named;  // a type of the sender's own schema
}

std::string SoapDecoder::what_would_type() const {
  return session_.context.contract != nullptr
             ? "the WSDL given does not type it"
             : "a literal message is typed by its WSDL (--wsdl FILE)";
}

std::string SoapDecoder::not_in_contract() const {
  if (foreign_uri_.empty()) return " (not in the contract)";
  return " in namespace '" + foreign_uri_ + "' (the contract's " + std::string(operation_->name) +
         " is in '" + std::string(own_uri_) + "')";
}

bool SoapDecoder::fail_untyped(std::string_view qname) {
  // Text with no type to read it by: never guessed.
  return session_.fail(fault::method_not_found,
                       "method not found: " + std::string(operation_->name) + not_in_contract() +
                           ", and <" + std::string(qname) +
                           "> carries no xsi:type to type it by: " + what_would_type());
}

bool SoapDecoder::check_distinct_members(const Value& v, std::string_view qname) {
  const std::string_view name = first_repeated_name(v.names());
  if (name.empty()) return true;
  return session_.fail(fault::invalid_params,
                       "<" + std::string(name) + "> repeats in <" + std::string(qname) +
                           ">, which has no array type (soapenc:arrayType, enc:itemType), and a "
                           "struct's members are distinct: " +
                           (session_.context.contract != nullptr
                                ? "the WSDL given does not type it"
                                : "only its WSDL can say what it is (--wsdl FILE)"));
}

bool SoapDecoder::close_shaped_array(Value& array, std::string_view qname) {
  const std::vector<std::size_t> dims = std::move(array_dims_.back());
  array_dims_.pop_back();
  std::size_t declared = 1;
  for (std::size_t d : dims) declared = d == std::string_view::npos ? d : declared * d;
  if (declared != std::string_view::npos && declared != array.items().size()) {
    return session_.fail(fault::invalid_params,
                         "<" + std::string(qname) + "> declares " + std::to_string(declared) +
                             " members but " + std::to_string(array.items().size()) +
                             " are sent: a partially transmitted array (SOAP 1.1 section "
                             "5.4.2.1) has absent members the value model cannot hold");
  }
  if (dims.size() < 2) return true;
  // Multi-dimensional: its rows, in row-major order (SOAP 1.1 section 5.4.2).
  std::size_t row = 1;
  for (std::size_t i = 1; i < dims.size(); ++i) {
    if (dims[i] == std::string_view::npos || dims[i] == 0) {
      return session_.fail(fault::invalid_params, "<" + std::string(qname) +
                                                      "> is multi-dimensional without the "
                                                      "size of every dimension but the first");
    }
    row *= dims[i];
  }
  for (std::size_t level = dims.size() - 1; level > 0; --level) {
    Value rows = Value::array();
    std::vector<Value>& items = array.items();
    for (std::size_t at = 0; at < items.size(); at += dims[level]) {
      Value& r = rows.push(Value::array());
      for (std::size_t i = at; i < at + dims[level] && i < items.size(); ++i) {
        r.push(std::move(items[i]));
      }
    }
    array = std::move(rows);
  }
  (void)row;
  return true;
}

bool SoapDecoder::fail_named_text(std::string_view qname) {
  return session_.fail(fault::method_not_found,
                       "<" + std::string(qname) +
                           "> has a type of the sender's schema (xsi:type) and no children: "
                           "only that schema says what it is: " +
                           what_would_type());
}

}  // namespace sb::rpc
