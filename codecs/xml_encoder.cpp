#include "codecs/xml_encoder.h"

#include <charconv>
#include <cmath>

#include "codecs/base64.h"
#include "codecs/canonical_json.h"
#include "codecs/scalars.h"

namespace sb::rpc {

namespace {

// Values nested deeper than this are refused: the encoders recurse, and no decoder we ship
// accepts such a document anyway (Limits::max_depth is 256 elements).
constexpr int kMaxDepth = 256;

// The names one SOAP family writes. Prefixes follow the corpus (sbtools/corpusgen/families.py):
// SOAP-ENV for rpc styles, soap for SOAP 1.1 document/literal, env for SOAP 1.2.
struct SoapNames {
  std::string_view env_ns;          // envelope namespace
  std::string_view xmlns_env;       // its declaration, "xmlns:SOAP-ENV"
  std::string_view envelope;        // "SOAP-ENV:Envelope"
  std::string_view body;            // "SOAP-ENV:Body"
  std::string_view fault;           // "SOAP-ENV:Fault"
  std::string_view encoding_style;  // "SOAP-ENV:encodingStyle"
  std::string_view client;          // fault code QName for client errors
  std::string_view server;          // fault code QName for everything else
  bool rpc;                         // operation element ns1:OP (else a default-namespace wrapper)
  bool encoded;                     // Section 5 encoding: xsi:type on every value
  bool soap12;                      // SOAP 1.2 Fault structure
};

constexpr SoapNames kSoap11RpcEncoded{ns::soap11_env,
                                      "xmlns:SOAP-ENV",
                                      "SOAP-ENV:Envelope",
                                      "SOAP-ENV:Body",
                                      "SOAP-ENV:Fault",
                                      "SOAP-ENV:encodingStyle",
                                      "SOAP-ENV:Client",
                                      "SOAP-ENV:Server",
                                      true,
                                      true,
                                      false};
constexpr SoapNames kSoap11RpcLiteral{ns::soap11_env,
                                      "xmlns:SOAP-ENV",
                                      "SOAP-ENV:Envelope",
                                      "SOAP-ENV:Body",
                                      "SOAP-ENV:Fault",
                                      "SOAP-ENV:encodingStyle",
                                      "SOAP-ENV:Client",
                                      "SOAP-ENV:Server",
                                      true,
                                      false,
                                      false};
constexpr SoapNames kSoap11DocLiteral{
    ns::soap11_env, "xmlns:soap",  "soap:Envelope", "soap:Body", "soap:Fault", "soap:encodingStyle",
    "soap:Client",  "soap:Server", false,           false,       false};
constexpr SoapNames kSoap12DocLiteral{
    ns::soap12_env, "xmlns:env",    "env:Envelope", "env:Body", "env:Fault", "env:encodingStyle",
    "env:Sender",   "env:Receiver", false,          false,      true};

const SoapNames& soap_names(Family f) {
  switch (f) {
    case Family::soap11_rpc_encoded:
      return kSoap11RpcEncoded;
    case Family::soap11_rpc_literal:
      return kSoap11RpcLiteral;
    case Family::soap11_doc_literal:
      return kSoap11DocLiteral;
    default:
      return kSoap12DocLiteral;
  }
}

// The xsi:type of a scalar in rpc/encoded.
std::string_view xsd_type(Kind k) {
  switch (k) {
    case Kind::boolean:
      return "xsd:boolean";
    case Kind::integer:
      return "xsd:int";
    case Kind::floating:
      return "xsd:double";
    case Kind::string:
      return "xsd:string";
    case Kind::datetime:
      return "xsd:dateTime";
    case Kind::base64:
      return "xsd:base64Binary";
    default:
      return "SOAP-ENC:Array";
  }
}

// "YYYY-MM-DDThh:mm:ss": Value::datetime's promise, checked because datetime_to_xmlrpc slices
// the text blindly and a peer would refuse anything else.
bool is_canonical_datetime(std::string_view s) {
  if (s.size() != 19) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char want = i == 4 || i == 7 ? '-' : i == 10 ? 'T' : i == 13 || i == 16 ? ':' : '0';
    if (want == '0' ? (s[i] < '0' || s[i] > '9') : s[i] != want) return false;
  }
  return true;
}

// Client faults in the service's code space: parse error .. invalid request (JSON-RPC's range).
bool is_client_fault(int code) {
  return code >= fault::parse_error && code <= fault::invalid_request;
}

// One message being written; W is DirectXmlWriter (direct calls) or XmlWriter (virtual calls).
template <class W>
class Encoder {
 public:
  // w receives the events; error the reason of a failure; contract types SOAP values.
  Encoder(W& w, std::string& error, const Contract& contract)
      : w_(w), error_(error), contract_(contract) {}

  // Writes m in family f; false with error_ set on failure.
  bool encode(const Message& m, Family f) {
    if (m.kind == MessageKind::call && m.method.empty()) {
      return fail("a call needs a method name");
    }
    if (m.kind == MessageKind::batch) return fail("a batch is a JSON-RPC message");
    return f == Family::xmlrpc ? xmlrpc(m) : soap(m, soap_names(f));
  }

 private:
  // ---------------------------------------------------------------- XML-RPC

  // methodCall / methodResponse (params or fault).
  bool xmlrpc(const Message& m) {
    switch (m.kind) {
      case MessageKind::call:
        w_.start_element("methodCall");
        leaf("methodName", m.method);
        w_.start_element("params");
        for (std::size_t i = 0; i < m.params.size(); ++i) {
          w_.start_element("param");
          if (!xmlrpc_value(m.params[i], 0)) return located("param " + std::to_string(i + 1));
          w_.end_element();
        }
        w_.end_element();
        break;
      case MessageKind::response:
        w_.start_element("methodResponse");
        w_.start_element("params");
        w_.start_element("param");
        if (!xmlrpc_value(m.result, 0)) return located("result");
        w_.end_element();
        w_.end_element();
        break;
      case MessageKind::fault:
        w_.start_element("methodResponse");
        w_.start_element("fault");
        w_.start_element("value");
        w_.start_element("struct");
        w_.start_element("member");
        leaf("name", "faultCode");
        w_.start_element("value");
        leaf("int", int_text(m.fault_code));
        w_.end_element();
        w_.end_element();
        w_.start_element("member");
        leaf("name", "faultString");
        w_.start_element("value");
        leaf("string", m.fault_message);
        w_.end_element();
        w_.end_element();
        w_.end_element();
        w_.end_element();
        w_.end_element();
        break;
      case MessageKind::batch:  // refused by encode()
        break;
    }
    w_.end_element();
    return true;
  }

  // <value> holding v with its XML-RPC type element (untyped strings are never written).
  bool xmlrpc_value(const Value& v, int depth) {
    if (depth > kMaxDepth) return fail("values nested deeper than " + std::to_string(kMaxDepth));
    w_.start_element("value");
    switch (v.kind()) {
      case Kind::nil:
        if (v.is_reference()) return fail("an unresolved SOAP href (#" + v.text() + ")");
        w_.start_element("nil");
        w_.end_element();
        break;
      case Kind::boolean:
        leaf("boolean", v.as_bool() ? "1" : "0");
        break;
      case Kind::integer:
        leaf("int", int_text(v.as_int()));
        break;
      case Kind::floating:
        if (!std::isfinite(v.as_double())) {
          return fail("XML-RPC cannot carry NaN or infinity (<double> has no spelling for them)");
        }
        scratch_.clear();
        append_double(scratch_, v.as_double());
        leaf("double", scratch_);
        break;
      case Kind::string:
        leaf("string", v.text());
        break;
      case Kind::datetime:
        if (!is_canonical_datetime(v.text())) return bad_datetime(v);
        leaf("dateTime.iso8601", datetime_to_xmlrpc(v.text()));
        break;
      case Kind::base64:
        leaf("base64", base64_encode(v.text()));
        break;
      case Kind::array:
        w_.start_element("array");
        w_.start_element("data");
        for (const Value& item : v.items()) {
          if (!xmlrpc_value(item, depth + 1)) return false;
        }
        w_.end_element();
        w_.end_element();
        break;
      case Kind::structure:
        w_.start_element("struct");
        for (std::size_t i = 0; i < v.items().size(); ++i) {
          w_.start_element("member");
          leaf("name", v.names()[i]);
          if (!xmlrpc_value(v.items()[i], depth + 1)) return located("member " + v.names()[i]);
          w_.end_element();
        }
        w_.end_element();
        break;
    }
    w_.end_element();
    return true;
  }

  // ---------------------------------------------------------------- SOAP

  // Envelope and Body around the operation element or the Fault.
  bool soap(const Message& m, const SoapNames& s) {
    s_ = &s;
    const Operation* op = nullptr;
    if (m.kind != MessageKind::fault) {
      op = contract_.find(m.method);
      if (op == nullptr) {
        return fail("method not found: " + m.method + " (SOAP values are typed by the contract)");
      }
    }
    w_.start_element(s.envelope);
    w_.attribute(s.xmlns_env, s.env_ns);
    if (s.encoded) {
      w_.attribute("xmlns:SOAP-ENC", ns::soap11_enc);
      w_.attribute("xmlns:xsi", ns::xsi);
      w_.attribute("xmlns:xsd", ns::xsd);
    }
    w_.start_element(s.body);
    if (m.kind == MessageKind::fault) {
      soap_fault(m);
    } else if (!operation(m, *op)) {
      return false;
    }
    w_.end_element();
    w_.end_element();
    return true;
  }

  // The operation element (call or response wrapper) and its children.
  bool operation(const Message& m, const Operation& op) {
    const bool response = m.kind == MessageKind::response;
    name_.assign(s_->rpc ? "ns1:" : "");
    if (response) {
      name_.append(op.name).append("Response");
    } else {
      name_.append(op.call_element());  // a user's WSDL may name the call's element otherwise
    }
    w_.start_element(name_);
    if (s_->rpc) {
      w_.attribute("xmlns:ns1", op.ns);
      if (s_->encoded) w_.attribute(s_->encoding_style, ns::soap11_enc);
    } else {
      w_.attribute("xmlns", op.ns);
    }
    if (response) {
      if (op.result->kind == Kind::nil) {
        if (!m.result.is_nil()) {
          return fail(std::string(op.name) + " returns void, the response holds a " +
                      std::string(kind_name(m.result.kind())));
        }
      } else if (!soap_value("return", m.result, *op.result, 0)) {
        return located("result");
      }
    } else {
      if (m.params.size() > op.params.size()) {
        return fail("invalid params: " + std::string(op.name) + " takes " +
                    std::to_string(op.params.size()) + " params, got " +
                    std::to_string(m.params.size()));
      }
      for (std::size_t i = m.params.size(); i < op.params.size(); ++i) {
        if (!op.params[i].optional) {
          return fail("invalid params: missing parameter " + std::string(op.params[i].name) +
                      " of " + std::string(op.name));
        }
      }
      for (std::size_t i = 0; i < m.params.size(); ++i) {
        const Param& p = op.params[i];
        if (!soap_element(p.name, m.params[i], *p.type, p.repeated, 0)) {
          return located("param " + std::string(p.name));
        }
      }
    }
    w_.end_element();
    return true;
  }

  // A param or member: one element, or (repeated: maxOccurs > 1 in a user's WSDL) one element
  // per item of the array v, without a wrapper.
  bool soap_element(std::string_view name, const Value& v, const Type& t, bool repeated,
                    int depth) {
    if (!repeated || t.kind != Kind::array || v.kind() != Kind::array) {
      return soap_value(name, v, t, depth);
    }
    for (std::size_t i = 0; i < v.items().size(); ++i) {
      if (!soap_value(name, v.items()[i], *t.element, depth + 1)) {
        return located("item " + std::to_string(i + 1));
      }
    }
    return true;
  }

  // One value element named `name`, typed by t.
  bool soap_value(std::string_view name, const Value& v, const Type& t, int depth) {
    if (depth > kMaxDepth) return fail("values nested deeper than " + std::to_string(kMaxDepth));
    if (v.is_reference()) return fail("an unresolved SOAP href (#" + v.text() + ")");
    w_.start_element(name);
    if (v.is_nil()) {
      // Literal envelopes declare no xsi prefix (nil is rare): declare it where it is used.
      if (!s_->encoded) w_.attribute("xmlns:xsi", ns::xsi);
      w_.attribute("xsi:nil", "true");
      w_.end_element();
      return true;
    }
    if (!t.admits(v.kind())) {
      return fail("expected " + std::string(t.name) + ", got " + std::string(kind_name(v.kind())));
    }
    switch (t.kind) {
      case Kind::array:
        if (s_->encoded) {
          w_.attribute("xsi:type", "SOAP-ENC:Array");
          type_name(*t.element);
          name_.append("[").append(int_text(static_cast<std::int64_t>(v.items().size()))) += ']';
          w_.attribute("SOAP-ENC:arrayType", name_);
        }
        for (std::size_t i = 0; i < v.items().size(); ++i) {
          if (!soap_value("item", v.items()[i], *t.element, depth + 1)) {
            return located("item " + std::to_string(i + 1));
          }
        }
        break;
      case Kind::structure:
        if (s_->encoded) {
          type_name(t);
          w_.attribute("xsi:type", name_);
        }
        for (std::size_t i = 0; i < v.items().size(); ++i) {
          const std::string& member = v.names()[i];
          const Member* mt = member_of(t, member);
          if (mt == nullptr) {
            return fail("unknown member " + member + " of " + std::string(t.name));
          }
          if (!soap_element(member, v.items()[i], *mt->type, mt->repeated, depth + 1)) {
            return located(member);
          }
        }
        break;
      default:
        // The value's own kind: dateTimeOrString is sent as xsd:dateTime or xsd:string.
        if (s_->encoded) w_.attribute("xsi:type", xsd_type(v.kind()));
        if (!soap_scalar(v)) return false;
        break;
    }
    w_.end_element();
    return true;
  }

  // The text of a SOAP scalar (xsd lexical forms).
  bool soap_scalar(const Value& v) {
    switch (v.kind()) {
      case Kind::boolean:
        w_.text(v.as_bool() ? "true" : "false");
        break;
      case Kind::integer:
        w_.text(int_text(v.as_int()));
        break;
      case Kind::floating:
        scratch_.clear();
        append_xsd_double(scratch_, v.as_double());  // INF, -INF, NaN are xsd:double values
        w_.text(scratch_);
        break;
      case Kind::datetime:
        if (!is_canonical_datetime(v.text())) return bad_datetime(v);
        w_.text(v.text());
        break;
      case Kind::base64:
        w_.text(base64_encode(v.text()));
        break;
      default:  // string
        w_.text(v.text());
        break;
    }
    return true;
  }

  // Fault: SOAP 1.1 faultcode/faultstring/detail or SOAP 1.2 Code/Reason/Detail. The detail
  // entry's namespace is the service's (faults need not name an operation).
  void soap_fault(const Message& m) {
    const bool client = is_client_fault(m.fault_code);
    w_.start_element(s_->fault);
    if (s_->soap12) {
      w_.start_element("env:Code");
      leaf("env:Value", client ? s_->client : s_->server);
      w_.end_element();
      w_.start_element("env:Reason");
      w_.start_element("env:Text");
      w_.attribute("xml:lang", "en");
      w_.text(m.fault_message);
      w_.end_element();
      w_.end_element();
      w_.start_element("env:Detail");
    } else {
      leaf("faultcode", client ? s_->client : s_->server);
      leaf("faultstring", m.fault_message);
      w_.start_element("detail");
    }
    w_.start_element("ns1:fault");
    w_.attribute("xmlns:ns1", ns::service);
    w_.start_element("code");
    if (s_->encoded) w_.attribute("xsi:type", "xsd:int");
    w_.text(int_text(m.fault_code));
    w_.end_element();
    w_.end_element();
    w_.end_element();
    w_.end_element();
  }

  // ---------------------------------------------------------------- helpers

  // The rpc/encoded type QName of t into name_: xsd:int, ns1:Person, SOAP-ENC:Array.
  void type_name(const Type& t) {
    if (t.kind == Kind::structure) {
      name_.assign("ns1:").append(t.name);
    } else {
      name_.assign(xsd_type(t.kind));
    }
  }

  // Struct t's member `name`, or nullptr.
  static const Member* member_of(const Type& t, std::string_view name) {
    for (const Member& m : t.structure->members) {
      if (m.name == name) return &m;
    }
    return nullptr;
  }

  // <name>text</name>.
  void leaf(std::string_view name, std::string_view text) {
    w_.start_element(name);
    w_.text(text);
    w_.end_element();
  }

  // Decimal text of i in a member buffer (valid until the next call).
  std::string_view int_text(std::int64_t i) {
    const auto r = std::to_chars(number_, number_ + sizeof number_, i);
    return {number_, static_cast<std::size_t>(r.ptr - number_)};
  }

  // Records why a dateTime cannot be written; always false.
  bool bad_datetime(const Value& v) {
    return fail("dateTime '" + v.text() + "' is not YYYY-MM-DDThh:mm:ss");
  }

  // Records the reason; always false.
  bool fail(std::string reason) {
    error_ = std::move(reason);
    return false;
  }

  // Prefixes the recorded reason with where it happened, innermost last; always false.
  bool located(const std::string& where) {
    error_ = where + ": " + error_;
    return false;
  }

  W& w_;                          // the writer
  std::string& error_;            // the caller's error slot
  const Contract& contract_;      // types SOAP values
  const SoapNames* s_ = nullptr;  // the SOAP family's names
  std::string name_;              // scratch: composed element names and type QNames
  std::string scratch_;           // scratch: formatted doubles
  char number_[24] = {};          // scratch: formatted integers
};

}  // namespace

template <class Writer>
bool encode_xml(const Message& m, Family f, Writer& w, std::string& out, std::string& error,
                const Contract& contract) {
  error.clear();
  if (!is_xml(f)) {
    error = "encode_xml: " + std::string(family_name(f)) + " is not an XML family";
    return false;
  }
  w.reset();
  Encoder<Writer> encoder(w, error, contract);
  if (!encoder.encode(m, f)) return false;
  if (!w.finish(out)) {
    error = std::string(w.error());
    return false;
  }
  return true;
}

template bool encode_xml<DirectXmlWriter>(const Message&, Family, DirectXmlWriter&, std::string&,
                                          std::string&, const Contract&);
template bool encode_xml<XmlWriter>(const Message&, Family, XmlWriter&, std::string&, std::string&,
                                    const Contract&);

}  // namespace sb::rpc
