#include "codecs/soap_decoder.h"

#include <utility>

#include "codecs/scalars.h"
#include "codecs/xml_scalar.h"
#include "codecs/xsd_types.h"

namespace sb::rpc {

namespace {

bool is_xsi(std::string_view uri) {
  return uri == ns::xsi || uri == ns::xsi_1999 || uri == ns::xsi_2000;
}

bool is_true(std::string_view v) { return trim_xml_space(v) == "true" || trim_xml_space(v) == "1"; }

bool is_scalar(Kind k) { return k != Kind::array && k != Kind::structure; }

const XmlAttribute* find_attribute(XmlAttributes attributes, std::string_view qname) {
  for (const XmlAttribute& a : attributes) {
    if (a.qname == qname) return &a;
  }
  return nullptr;
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
  // soapenc:arrayType="xsd:int[n]" and the like: arrays of a built-in scalar kind.
  Type scalar_arrays[6] = {{Kind::array, "Array", &type_of(Kind::boolean)},
                           {Kind::array, "Array", &type_of(Kind::integer)},
                           {Kind::array, "Array", &type_of(Kind::floating)},
                           {Kind::array, "Array", &type_of(Kind::string)},
                           {Kind::array, "Array", &type_of(Kind::datetime)},
                           {Kind::array, "Array", &type_of(Kind::base64)}};
};

const DynamicShapes& shapes() {
  static const DynamicShapes s;
  return s;
}

// The array type of soapenc:arrayType="ITEM[n]" whose ITEM is the built-in `item`.
const Type* scalar_array(const Type* item) {
  for (const Type& a : shapes().scalar_arrays) {
    if (a.element == item) return &a;
  }
  return &shapes().array;
}

// The member `name` of the (non-dynamic) struct type `t`, or nullptr.
const Member* find_member(const Type& t, std::string_view name) {
  for (const Member& m : t.structure->members) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

}  // namespace

SoapDecoder::SoapDecoder(const Contract& contract, Limits limits, XmlDecodeSession& session)
    : own_contract_(contract),
      contract_(&contract),
      session_(session),
      multiref_(session, limits.max_reference_expansions) {}

void SoapDecoder::reset(const Contract* contract) {
  contract_ = contract != nullptr ? contract : &own_contract_;
  multiref_.reset();
  frames_.clear();
  namespaces_.clear();
  text_.clear();
  seen_operation_ = false;
  encoded_ = false;
  operation_ = nullptr;
  fault_code_text_.clear();
  param_types_.clear();
  params_seen_ = 0;
  repeated_at_.clear();
  dynamic_accessors_ = false;
}

std::string_view SoapDecoder::envelope_uri() const {
  return session_.family == Family::soap12_doc_literal ? ns::soap12_env : ns::soap11_env;
}

bool SoapDecoder::has_encoding_style(XmlAttributes attributes) const {
  for (const XmlAttribute& a : attributes) {
    std::string_view local;
    if (namespaces_.attribute_uri(a.qname, &local) == envelope_uri() && local == "encodingStyle") {
      return true;
    }
  }
  return false;
}

void SoapDecoder::open_envelope(XmlAttributes attributes) {
  namespaces_.push(attributes);
  frames_.push_back({Frame::envelope});
}

bool SoapDecoder::start_element(std::string_view qname, XmlAttributes attributes) {
  FrameState& parent = frames_.back();
  if (parent.frame == Frame::capture || parent.frame == Frame::skip) {
    return open_unread(parent, qname, attributes);
  }
  const std::size_t mark = namespaces_.mark();
  namespaces_.push(attributes);
  std::string_view prefix;
  const std::string_view local = local_part(qname, &prefix);
  const std::string_view uri = namespaces_.resolve(prefix);
  qname_prefix_ = prefix;
  bool ok = false;
  switch (parent.frame) {
    case Frame::envelope:
      ok = open_in_envelope(local, uri, attributes);
      break;
    case Frame::body:
      ok = open_in_body(local, uri, attributes);
      break;
    case Frame::operation:
      ok = open_in_operation(parent, local, uri, attributes);
      break;
    case Frame::value:
      ok = open_in_value(parent, local, attributes);
      break;
    case Frame::replay_root:
      ok = open_value(parent.type, parent.target, attributes);
      break;
    case Frame::fault:
    case Frame::fault_reason:
    case Frame::fault_detail:
    case Frame::fault_detail_entry:
      ok = open_in_fault(parent, local);
      break;
    case Frame::empty_value:
      return session_.unexpected("element <" + std::string(local) + ">", "a nil or href value");
    default:
      return session_.unexpected("element <" + std::string(local) + ">", "a text-only element");
  }
  if (!ok) return false;
  frames_.back().bindings_mark = mark;
  return true;
}

bool SoapDecoder::open_unread(const FrameState& parent, std::string_view qname,
                              XmlAttributes attributes) {
  if (parent.frame == Frame::skip) {
    frames_.push_back({.frame = Frame::skip, .bindings_mark = namespaces_.mark()});
    return true;
  }
  // Recording a multiRef: keep the event as written, resolve nothing yet.
  const std::size_t index = parent.capture;
  multiref_.record_start(index, qname, attributes);
  frames_.push_back(
      {.frame = Frame::capture, .bindings_mark = namespaces_.mark(), .capture = index});
  return true;
}

bool SoapDecoder::open_in_envelope(std::string_view local, std::string_view uri,
                                   XmlAttributes attributes) {
  if (has_encoding_style(attributes)) encoded_ = true;
  if (uri == envelope_uri() && local == "Header") {
    frames_.push_back({Frame::skip});
    return true;
  }
  if (uri == envelope_uri() && local == "Body") {
    frames_.push_back({Frame::body});
    return true;
  }
  return session_.unexpected("element <" + std::string(local) + ">", "the SOAP Envelope");
}

bool SoapDecoder::open_in_body(std::string_view local, std::string_view uri,
                               XmlAttributes attributes) {
  if (const XmlAttribute* id = find_attribute(attributes, "id")) {
    // Rebuild the start tag from the local name: the prefix bindings stay in scope at replay.
    const std::size_t index = multiref_.begin(id->value, local, attributes);
    frames_.push_back({.frame = Frame::capture, .capture = index});
    return true;
  }
  if (seen_operation_) {
    frames_.push_back({Frame::skip});
    return true;
  }
  seen_operation_ = true;
  if (uri == envelope_uri() && local == "Fault") {
    session_.out->kind = MessageKind::fault;
    frames_.push_back({Frame::fault});
    return true;
  }
  return open_operation(local, uri, attributes);
}

bool SoapDecoder::open_operation(std::string_view local, std::string_view uri,
                                 XmlAttributes attributes) {
  bool response = false;
  const Operation* op = contract_->find_body_element(local, &response);
  if (op == nullptr) {
    if (const std::string_view why = contract_->refusal(local); !why.empty()) {
      return session_.fail(fault::method_not_found, "operation " + std::string(local) +
                                                        " cannot be typed: " + std::string(why));
    }
    if (has_encoding_style(attributes)) encoded_ = true;
    return open_dynamic_operation(local);
  }
  operation_ = op;
  // A document/literal wrapper is declared in the default namespace (unprefixed); rpc
  // styles prefix the operation element. Decisive when the element has no children.
  if (session_.family == Family::soap11_rpc_literal && !uri.empty() && qname_prefix_.empty()) {
    session_.family = Family::soap11_doc_literal;
  }
  session_.out->kind = response ? MessageKind::response : MessageKind::call;
  session_.out->method = std::string(op->name);
  if (has_encoding_style(attributes)) encoded_ = true;
  if (response && op->result_repeated) session_.out->result = Value::array();
  if (response && op->result_members) {
    // The response element itself is the result struct (several out parts or children).
    return open_value(op->result, &session_.out->result, attributes);
  }
  frames_.push_back({.frame = Frame::operation, .response = response});
  return true;
}

bool SoapDecoder::open_dynamic_operation(std::string_view local) {
  // Not in the contract: SOAP encoding types every value itself (xsi:type), so the message is
  // read by those types; a value without one fails as "method not found" (decide(), below).
  const bool response = local.size() > 8 && local.ends_with("Response");
  dynamic_name_.assign(response ? local.substr(0, local.size() - 8) : local);
  dynamic_op_ = Operation{dynamic_name_, {}, {}, &dynamic_type()};
  operation_ = &dynamic_op_;
  session_.out->kind = response ? MessageKind::response : MessageKind::call;
  session_.out->method = dynamic_name_;
  frames_.push_back({.frame = Frame::operation, .response = response});
  return true;
}

bool SoapDecoder::open_in_operation(FrameState& parent, std::string_view local,
                                    std::string_view uri, XmlAttributes attributes) {
  if (!uri.empty() && session_.family == Family::soap11_rpc_literal) {
    session_.family = Family::soap11_doc_literal;
  }
  Message& out = *session_.out;
  if (operation_ == &dynamic_op_) {
    if (!parent.response) {
      param_types_.push_back(&dynamic_type());
      return open_value(&dynamic_type(), &out.params.emplace_back(), attributes);
    }
    if (!parent.has_child) {
      parent.has_child = true;
      first_accessor_.assign(local);  // its name, should more follow
      return open_value(&dynamic_type(), &out.result, attributes);
    }
    // More than one accessor (the return value and out parameters): a struct of all of them.
    if (!dynamic_accessors_) {
      Value first = std::move(out.result);
      out.result = Value::structure();
      out.result.add_member(first_accessor_, std::move(first));
      dynamic_accessors_ = true;
    }
    return open_value(&dynamic_type(), &out.result.add_member(local), attributes);
  }
  if (parent.response) {
    if (operation_->result->kind == Kind::nil) {
      frames_.push_back({Frame::skip});
      return true;
    }
    if (operation_->result_repeated) {
      return open_occurrence(*operation_->result, out.result, attributes);
    }
    if (parent.has_child) {
      return session_.fail(fault::invalid_params, "more than one result element");
    }
    parent.has_child = true;
    return open_value(operation_->result, &out.result, attributes);
  }
  for (std::size_t i = 0; i < operation_->params.size(); ++i) {
    const Param& p = operation_->params[i];
    if (p.name != local) continue;
    if (p.repeated) {
      for (const auto& [param, slot] : repeated_at_) {
        if (param == i) return open_occurrence(*p.type, out.params[slot], attributes);
      }
      repeated_at_.emplace_back(i, out.params.size());
    } else if (params_seen_ & (1ULL << i)) {
      return session_.fail(fault::invalid_params,
                           "parameter " + std::string(local) + " given twice");
    }
    params_seen_ |= 1ULL << i;
    param_types_.push_back(p.type);
    if (p.repeated) return open_occurrence(*p.type, out.params.emplace_back(), attributes);
    return open_value(p.type, &out.params.emplace_back(), attributes);
  }
  return session_.fail(fault::invalid_params, "unknown parameter " + std::string(local) + " of " +
                                                  std::string(operation_->name));
}

bool SoapDecoder::open_in_value(FrameState& parent, std::string_view local,
                                XmlAttributes attributes) {
  // `dynamic` first: typed values (every message the contract names) skip the shapes() lookup.
  if (parent.type->dynamic &&
      (parent.type == &shapes().untyped || parent.type == &shapes().named)) {
    // A value without a schema type that has children: a struct of anyType members.
    if (!trim_xml_space(text_).empty()) return session_.unexpected("text", "a struct");
    text_.clear();
    parent.type = &shapes().structure;
    *parent.target = Value::structure();
  }
  const Type& t = *parent.type;
  if (t.kind == Kind::array) {
    return open_value(t.element, &parent.target->push(Value()), attributes);
  }
  if (t.kind == Kind::structure) {
    const Member* m = t.dynamic ? nullptr : find_member(t, local);
    if (m == nullptr && !t.dynamic) {
      return session_.fail(fault::invalid_params,
                           "unknown member " + std::string(local) + " of " + std::string(t.name));
    }
    if (m != nullptr && m->repeated) {
      return open_repeated_member(*m, *parent.target, local, attributes);
    }
    return open_value(m != nullptr ? m->type : &dynamic_type(), &parent.target->add_member(local),
                      attributes);
  }
  return session_.unexpected("element <" + std::string(local) + ">",
                             "a " + std::string(t.name) + " value");
}

bool SoapDecoder::open_repeated_member(const Member& m, Value& parent, std::string_view local,
                                       XmlAttributes attributes) {
  // Occurrences of a repeated member gather in one array, wherever they stand.
  Value* slot = nullptr;
  for (std::size_t i = parent.names().size(); i-- > 0 && slot == nullptr;) {
    if (parent.names()[i] == local) slot = &parent.items()[i];
  }
  if (slot == nullptr) slot = &parent.add_member(local);
  return open_occurrence(*m.type, *slot, attributes);
}

bool SoapDecoder::open_occurrence(const Type& type, Value& slot, XmlAttributes attributes) {
  if (slot.kind() != Kind::array) slot = Value::array();
  return open_value(type.element, &slot.push(Value()), attributes);
}

const Type* SoapDecoder::dynamic_value_type(XmlAttributes attributes) {
  std::string_view xsi_type;
  std::string_view array_type;
  for (const XmlAttribute& a : attributes) {
    std::string_view alocal;
    const std::string_view auri = namespaces_.attribute_uri(a.qname, &alocal);
    if (is_xsi(auri) && alocal == "type") {
      xsi_type = trim_xml_space(a.value);
    } else if (auri == ns::soap11_enc && alocal == "arrayType") {
      array_type = trim_xml_space(a.value);
    }
  }
  if (!array_type.empty()) {
    // ITEM[n] (or ITEM[n][m], ITEM[]): arrays of a built-in scalar are typed by it, others
    // by their items' own types.
    std::string_view prefix;
    const std::string_view item = local_part(array_type.substr(0, array_type.find('[')), &prefix);
    const std::string_view uri = namespaces_.resolve(prefix);
    const bool nested = array_type.find('[') != array_type.rfind('[');
    if (!nested && (is_xsd_namespace(uri) || uri == ns::soap11_enc)) {
      return scalar_array(xsd_builtin(item));
    }
    return &shapes().array;
  }
  if (xsi_type.empty()) return &shapes().untyped;
  encoded_ = true;
  std::string_view prefix;
  const std::string_view local = local_part(xsi_type, &prefix);
  const std::string_view uri = namespaces_.resolve(prefix);
  if (uri == ns::soap11_enc && local == "Array") return &shapes().array;
  if (is_xsd_namespace(uri) || uri == ns::soap11_enc) {
    if (const Type* t = xsd_builtin(local)) return t;
    if (is_xsd_any(local)) return &shapes().untyped;
    session_.fail(fault::invalid_params,
                  "unknown XML Schema type xsi:type=\"" + std::string(xsi_type) + "\"");
    return nullptr;
  }
  return &shapes().named;  // a type of the sender's own schema
}

bool SoapDecoder::open_in_fault(const FrameState& parent, std::string_view local) {
  Frame frame = Frame::skip;  // faultcode, faultactor, Code, Node, Role, other Reason texts
  switch (parent.frame) {
    case Frame::fault:
      if (local == "faultstring") {
        frame = Frame::fault_string;
      } else if (local == "Reason") {
        frame = Frame::fault_reason;
      } else if (local == "detail" || local == "Detail") {
        frame = Frame::fault_detail;
      }
      break;
    case Frame::fault_reason:
      if (local == "Text" && session_.out->fault_message.empty()) frame = Frame::fault_string;
      break;
    case Frame::fault_detail:
      frame = Frame::fault_detail_entry;
      break;
    default:  // fault_detail_entry
      if (local == "code") frame = Frame::fault_detail_code;
      break;
  }
  if (frame == Frame::fault_string || frame == Frame::fault_detail_code) text_.clear();
  frames_.push_back({frame});
  return true;
}

bool SoapDecoder::open_value(const Type* type, Value* target, XmlAttributes attributes) {
  std::string_view href;
  bool nil = false;
  for (const XmlAttribute& a : attributes) {
    if (a.qname == "href") {
      href = a.value;
      continue;
    }
    std::string_view prefix;
    const std::string_view alocal = local_part(a.qname, &prefix);
    const bool nil_attribute = alocal == "nil" || alocal == "null";
    // Only xsi:nil and, until the message is known to be encoded, xsi:type matter here: other
    // attributes skip the namespace lookup (unprefixed ones have no namespace), which otherwise
    // runs for every attribute of every value and multiRef replay.
    if (prefix.empty() || !(nil_attribute || (alocal == "type" && !encoded_))) continue;
    if (!is_xsi(namespaces_.resolve(prefix))) continue;
    if (nil_attribute) {
      nil = is_true(a.value);
    } else {
      encoded_ = true;
    }
  }
  if (!href.empty()) {
    if (href.front() != '#') {
      return session_.fail(fault::invalid_params,
                           "href '" + std::string(href) + "' is not a local #id");
    }
    encoded_ = true;
    multiref_.note_reference();
    *target = Value::reference(std::string(href.substr(1)));
    frames_.push_back({Frame::empty_value});
    return true;
  }
  if (nil) {
    *target = Value();
    frames_.push_back({Frame::empty_value});
    return true;
  }
  if (type->dynamic && type->kind == Kind::nil) {
    type = dynamic_value_type(attributes);
    if (type == nullptr) return false;
  }
  if (type->kind == Kind::array) {
    *target = Value::array();
  } else if (type->kind == Kind::structure) {
    *target = Value::structure();
  } else {
    text_.clear();
  }
  frames_.push_back({Frame::value, type, target});
  return true;
}

bool SoapDecoder::text(std::string_view chars) {
  const FrameState& f = frames_.back();
  switch (f.frame) {
    case Frame::capture:
      multiref_.record_text(f.capture, chars);
      return true;
    case Frame::skip:
      return true;
    case Frame::value:
      if (is_scalar(f.type->kind)) {
        text_.append(chars);
        return true;
      }
      break;
    case Frame::fault_string:
    case Frame::fault_detail_code:
      text_.append(chars);
      return true;
    case Frame::fault_detail_entry:  // another stack's own detail (Axis: stackTrace, hostname)
      return true;
    default:
      break;
  }
  return session_.container_text(chars);
}

bool SoapDecoder::end_element(std::string_view qname) {
  const FrameState f = frames_.back();
  frames_.pop_back();
  bool ok = true;
  if (f.frame == Frame::capture) {
    multiref_.record_end(f.capture, qname);
  } else if (f.frame != Frame::skip) {
    ok = close_frame(f, qname);
  }
  // Nested skip/capture frames pushed none: a no-op. The Envelope's and Body's declarations stay
  // in scope for the multiRef replays of finish() (their elements' xsi:type and xsi:nil).
  if (f.frame != Frame::envelope && f.frame != Frame::body) namespaces_.truncate(f.bindings_mark);
  return ok;
}

bool SoapDecoder::close_frame(const FrameState& f, std::string_view qname) {
  switch (f.frame) {
    case Frame::value:
      if (f.type->dynamic && f.type == &shapes().untyped) return fail_untyped(qname);
      if (is_scalar(f.type->kind)) return close_scalar(f);
      return true;
    case Frame::fault_string:
      session_.out->fault_message = std::move(text_);
      text_.clear();
      return true;
    case Frame::fault_detail_code:
      fault_code_text_ = std::move(text_);
      text_.clear();
      return true;
    case Frame::fault:
      return close_fault();
    case Frame::operation:
      if (f.response && operation_->result->kind != Kind::nil && !f.has_child &&
          !operation_->result_optional && !operation_->result_repeated) {
        return session_.fail(fault::invalid_params, "response without a result element");
      }
      return true;
    default:  // containers, nil and href values: checked as their children arrived
      return true;
  }
}

bool SoapDecoder::fail_untyped(std::string_view qname) {
  // Text with no type to read it by: never guessed.
  return session_.fail(fault::method_not_found,
                       "method not found: " + std::string(operation_->name) +
                           " (not in the contract, and <" + std::string(qname) +
                           "> carries no xsi:type to type it by)");
}

bool SoapDecoder::close_scalar(const FrameState& f) {
  const Type& t = *f.type;
  if (text_to_scalar(t.kind, ScalarSyntax::xsd, text_, *f.target)) return true;
  return session_.fail(fault::invalid_params,
                       bad_scalar_message(t.kind, kind_name(t.kind), text_, t.name));
}

bool SoapDecoder::close_fault() {
  if (fault_code_text_.empty()) return true;
  auto code = parse_int32(fault_code_text_);
  if (!code) {
    return session_.fail(fault::parse_error, "bad fault detail code '" + fault_code_text_ + "'");
  }
  session_.out->fault_code = *code;
  return true;
}

bool SoapDecoder::decode_recorded(const Type& type, Value& target,
                                  std::span<const RecordedEvent> events) {
  parked_ = std::move(frames_);
  frames_.clear();
  text_.clear();
  frames_.push_back({.frame = Frame::replay_root,
                     .type = &type,
                     .target = &target,
                     .bindings_mark = namespaces_.mark()});
  std::vector<XmlAttribute> attributes;
  for (const RecordedEvent& ev : events) {
    bool ok = true;
    switch (ev.type) {
      case RecordedEvent::Type::start:
        attributes.clear();
        for (const auto& [name, value] : ev.attributes) attributes.push_back({name, value});
        ok = start_element(ev.name, attributes);
        break;
      case RecordedEvent::Type::text:
        ok = text(ev.name);
        break;
      case RecordedEvent::Type::end:
        ok = end_element(ev.name);
        break;
    }
    if (!ok) return false;
  }
  frames_ = std::move(parked_);
  return true;
}

bool SoapDecoder::finish() {
  if (!seen_operation_) return session_.fail(fault::parse_error, "empty SOAP Body");
  if (encoded_ && session_.family != Family::soap12_doc_literal) {
    session_.family = Family::soap11_rpc_encoded;
  }
  Message& out = *session_.out;
  if (out.kind == MessageKind::call) {
    if (!check_params()) return false;
    for (std::size_t i = 0; i < out.params.size(); ++i) {
      if (!multiref_.resolve(out.params[i], *param_types_[i], *this)) return false;
    }
  } else if (out.kind == MessageKind::response) {
    if (!multiref_.resolve(out.result, *operation_->result, *this)) return false;
  }
  return true;
}

bool SoapDecoder::check_params() {
  for (std::size_t i = 0; i < operation_->params.size(); ++i) {
    if (!operation_->params[i].optional && !(params_seen_ & (1ULL << i))) {
      return session_.fail(fault::invalid_params, "missing parameter " +
                                                      std::string(operation_->params[i].name) +
                                                      " of " + std::string(operation_->name));
    }
  }
  return true;
}

}  // namespace sb::rpc
