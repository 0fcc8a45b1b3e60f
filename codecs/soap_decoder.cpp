#include "codecs/soap_decoder.h"

#include <algorithm>
#include <utility>

#include "codecs/scalars.h"
#include "codecs/soap_shapes.h"
#include "codecs/xml_scalar.h"
#include "codecs/xsd_types.h"

namespace sb::rpc {

using soap_detail::is_schema_or_encoding;
using soap_detail::is_xsi;
using soap_detail::shapes;

namespace {

bool is_true(std::string_view v) { return trim_xml_space(v) == "true" || trim_xml_space(v) == "1"; }

bool is_scalar(Kind k) { return k != Kind::array && k != Kind::structure; }

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
  checks_element_ns_ = false;
  operation_ = nullptr;
  fault_code_text_.clear();
  fault_parts_ = 0;
  encoding_declared_ = false;
  param_types_.clear();
  params_seen_ = 0;
  repeated_at_.clear();
  dynamic_accessors_ = false;
  foreign_uri_.clear();
  own_uri_ = {};
  pending_ids_.clear();
  array_dims_.clear();
}

std::string_view SoapDecoder::envelope_uri() const {
  return session_.family == Family::soap12_doc_literal ? ns::soap12_env : ns::soap11_env;
}

bool SoapDecoder::has_encoding_style(XmlAttributes attributes) const {
  for (const XmlAttribute& a : attributes) {
    std::string_view local;
    if (namespaces_.attribute_uri(a.qname, &local) == envelope_uri() && local == "encodingStyle") {
      // A list of URIs, the first the most specific; "" says none applies.
      return a.value.find(ns::soap11_enc) != std::string_view::npos ||
             a.value.find(ns::soap12_enc) != std::string_view::npos;
    }
  }
  return false;
}

bool SoapDecoder::check_attribute_prefixes(std::string_view qname, XmlAttributes attributes) {
  for (const XmlAttribute& a : attributes) {
    std::string_view prefix;
    (void)local_part(a.qname, &prefix);
    if (prefix.empty() || prefix == "xmlns" || prefix == "xml") continue;
    if (namespaces_.resolve(prefix).empty()) {
      // Namespaces in XML 1.0 section 5, "Prefix Declared": the libraries here read names
      // without namespace processing, so the decoder checks what it reads.
      return session_.fail(fault::parse_error, "the prefix of the attribute " +
                                                   std::string(a.qname) + " of <" +
                                                   std::string(qname) +
                                                   "> is bound to no namespace (not "
                                                   "namespace-well-formed XML)");
    }
  }
  return true;
}

void SoapDecoder::open_envelope(XmlAttributes attributes) {
  namespaces_.push(attributes);
  encoding_declared_ = has_encoding_style(attributes);
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
  if (uri.empty() && !prefix.empty()) {
    return session_.fail(fault::parse_error, "the prefix of <" + std::string(qname) +
                                                 "> is bound to no namespace (not "
                                                 "namespace-well-formed XML)");
  }
  if (!check_attribute_prefixes(qname, attributes)) return false;
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
      ok = open_in_value(parent, local, uri, attributes);
      break;
    case Frame::replay_root:
      ok = open_value(parent.type, parent.target, attributes);
      break;
    case Frame::fault:
    case Frame::fault_reason:
    case Frame::fault_detail:
    case Frame::fault_detail_entry:
      ok = open_in_fault(parent, local, uri);
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
  if (has_encoding_style(attributes)) encoded_ = encoding_declared_ = true;
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
  if (const std::string_view id = body_id(attributes); !id.empty()) {
    // Rebuild the start tag from the local name: the prefix bindings stay in scope at replay.
    const std::size_t index = multiref_.begin(id, local, attributes);
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

std::string_view SoapDecoder::body_id(XmlAttributes attributes) const {
  for (const XmlAttribute& a : attributes) {
    if (a.qname == "id") return a.value;
    if (session_.family != Family::soap12_doc_literal) continue;
    std::string_view local;
    if (namespaces_.attribute_uri(a.qname, &local) == ns::soap12_enc && local == "id") {
      return a.value;
    }
  }
  return {};
}

bool SoapDecoder::open_operation(std::string_view local, std::string_view uri,
                                 XmlAttributes attributes) {
  bool response = false;
  const Operation* op = contract_->find_body_element(local, &response);
  if (op != nullptr && !op->ns.empty() && uri != op->ns) {
    // Same name, another service: its values are not the contract's to type.
    foreign_uri_.assign(uri);
    own_uri_ = op->ns;
    op = nullptr;
  }
  if (op == nullptr) {
    if (const std::string_view why = contract_->refusal(local); !why.empty()) {
      return session_.fail(fault::method_not_found, "operation " + std::string(local) +
                                                        " cannot be typed: " + std::string(why));
    }
    if (has_encoding_style(attributes)) encoded_ = encoding_declared_ = true;
    return open_dynamic_operation(local);
  }
  operation_ = op;
  checks_element_ns_ = op->binding.use == "literal";
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

bool SoapDecoder::open_in_operation(FrameState& parent, std::string_view local,
                                    std::string_view uri, XmlAttributes attributes) {
  if (!uri.empty() && session_.family == Family::soap11_rpc_literal) {
    session_.family = Family::soap11_doc_literal;
  }
  Message& out = *session_.out;
  if (parent.response && local == "result" && uri == ns::soap12_rpc) {
    // SOAP 1.2 RPC's rpc:result names the return accessor (Part 2 section 4.2.3): no accessor.
    frames_.push_back({Frame::skip});
    return true;
  }
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
    if (checks_element_ns_ && !check_element_ns(local, uri, operation_->result_ns)) return false;
    parent.has_child = true;
    return open_value(operation_->result, &out.result, attributes);
  }
  for (std::size_t i = 0; i < operation_->params.size(); ++i) {
    const Param& p = operation_->params[i];
    if (p.name != local) continue;
    if (checks_element_ns_ && !check_element_ns(local, uri, p.ns)) return false;
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

bool SoapDecoder::check_element_ns(std::string_view local, std::string_view uri,
                                   std::string_view declared) {
  // Document/literal messages only: SOAP encoding names accessors by its own rules, and a message
  // read as rpc/literal has part accessors in no namespace (WS-I Basic Profile R2735).
  const bool literal_document =
      session_.family == Family::soap11_doc_literal ||
      (session_.family == Family::soap12_doc_literal && !encoding_declared_);
  if (uri == declared || !literal_document) return true;
  const auto name = [](std::string_view ns) {
    return ns.empty() ? std::string("no namespace") : "namespace '" + std::string(ns) + "'";
  };
  return session_.fail(fault::invalid_params, "the WSDL does not fit the message: <" +
                                                  std::string(local) + "> is in " + name(uri) +
                                                  ", its schema puts it in " + name(declared) +
                                                  " (elementFormDefault / form=)");
}

bool SoapDecoder::open_in_value(FrameState& parent, std::string_view local, std::string_view uri,
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
    if (m != nullptr && checks_element_ns_ && !check_element_ns(local, uri, m->ns)) return false;
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

bool SoapDecoder::open_value(const Type* type, Value* target, XmlAttributes attributes) {
  std::string_view href;
  std::string_view id;  // SOAP 1.2 enc:id
  bool nil = false;
  const bool soap12 = session_.family == Family::soap12_doc_literal;
  for (const XmlAttribute& a : attributes) {
    if (a.qname == "href") {
      href = a.value;
      continue;
    }
    std::string_view prefix;
    const std::string_view alocal = local_part(a.qname, &prefix);
    if (prefix.empty()) continue;  // unprefixed attributes have no namespace
    if (soap12 && (alocal == "ref" || alocal == "id")) {
      // SOAP 1.2 encoding's references: enc:ref="x" names the value carrying enc:id="x".
      if (namespaces_.resolve(prefix) != ns::soap12_enc) continue;
      if (alocal == "id") {
        id = trim_xml_space(a.value);
      } else {
        href = trim_xml_space(a.value);
        if (href.empty()) return session_.fail(fault::invalid_params, "an empty enc:ref");
        encoded_ = true;
        multiref_.note_reference();
        *target = Value::reference(std::string(href));
        frames_.push_back({Frame::empty_value});
        return true;
      }
      continue;
    }
    const bool nil_attribute = alocal == "nil" || alocal == "null";
    // Only xsi:nil and, until the message is known to be encoded, xsi:type matter here: other
    // attributes skip the namespace lookup, which otherwise runs for every attribute of every
    // value and multiRef replay.
    if (!(nil_attribute || (alocal == "type" && !encoded_))) continue;
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
  if (!id.empty()) {
    pending_ids_.emplace_back(id);  // kept once the value is complete (close_frame)
  }
  if (nil) {
    *target = Value();
    frames_.push_back({.frame = Frame::empty_value, .target = target, .keeps_id = !id.empty()});
    return true;
  }
  bool shaped = false;
  if (type->dynamic && type->kind == Kind::nil) {
    pending_dims_.clear();
    type = dynamic_value_type(attributes);
    if (type == nullptr) return false;
    shaped = type->kind == Kind::array && !pending_dims_.empty();
    if (shaped) array_dims_.push_back(std::move(pending_dims_));
  }
  if (type->kind == Kind::array) {
    *target = Value::array();
  } else if (type->kind == Kind::structure) {
    *target = Value::structure();
  } else {
    text_.clear();
  }
  frames_.push_back({.frame = Frame::value,
                     .type = type,
                     .target = target,
                     .keeps_id = !id.empty(),
                     .shaped = shaped});
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
    case Frame::fault_detail:        // text in detail itself (Axis: <detail>test</detail>)
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
    if (ok && f.keeps_id) {
      multiref_.keep(pending_ids_.back(), *f.target);
      pending_ids_.pop_back();
    }
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
      if (f.type->dynamic && f.type == &shapes().named) return fail_named_text(qname);
      if (is_scalar(f.type->kind)) return close_scalar(f);
      if (f.type == &shapes().structure) return check_distinct_members(*f.target, qname);
      if (f.shaped) return close_shaped_array(*f.target, qname);
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
      if (dynamic_accessors_) return check_distinct_members(session_.out->result, qname);
      if (f.response && operation_->result->kind != Kind::nil && !f.has_child &&
          !operation_->result_optional && !operation_->result_repeated) {
        return session_.fail(fault::invalid_params, "response without a result element");
      }
      return true;
    default:  // containers, nil and href values: checked as their children arrived
      return true;
  }
}

bool SoapDecoder::close_scalar(const FrameState& f) {
  const Type& t = *f.type;
  if (text_to_scalar(t.kind, ScalarSyntax::xsd, text_, *f.target)) return true;
  return session_.fail(fault::invalid_params, bad_scalar_message(t.kind, ScalarSyntax::xsd,
                                                                 kind_name(t.kind), text_, t.name));
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
