#include "codecs/soap_decoder.h"

#include <utility>

#include "codecs/scalars.h"
#include "codecs/xml_scalar.h"

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

}  // namespace

const Type* member_type(const Type& t, std::string_view name) {
  for (const Member& m : t.structure->members) {
    if (m.name == name) return m.type;
  }
  return nullptr;
}

SoapDecoder::SoapDecoder(const Contract& contract, Limits limits, XmlDecodeSession& session)
    : contract_(contract), session_(session), multiref_(session, limits.max_reference_expansions) {}

void SoapDecoder::reset() {
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
  const Operation* op = contract_.find(local);
  if (op == nullptr && local.ends_with("Response")) {
    op = contract_.find(local.substr(0, local.size() - 8));
    response = op != nullptr;
  }
  if (op == nullptr) {
    return session_.fail(fault::method_not_found, "method not found: " + std::string(local));
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
  frames_.push_back({.frame = Frame::operation, .response = response});
  return true;
}

bool SoapDecoder::open_in_operation(FrameState& parent, std::string_view local,
                                    std::string_view uri, XmlAttributes attributes) {
  if (!uri.empty() && session_.family == Family::soap11_rpc_literal) {
    session_.family = Family::soap11_doc_literal;
  }
  if (parent.response) {
    if (operation_->result->kind == Kind::nil) {
      frames_.push_back({Frame::skip});
      return true;
    }
    if (parent.has_child) {
      return session_.fail(fault::invalid_params, "more than one result element");
    }
    parent.has_child = true;
    return open_value(operation_->result, &session_.out->result, attributes);
  }
  for (std::size_t i = 0; i < operation_->params.size(); ++i) {
    const Param& p = operation_->params[i];
    if (p.name != local) continue;
    if (params_seen_ & (1ULL << i)) {
      return session_.fail(fault::invalid_params,
                           "parameter " + std::string(local) + " given twice");
    }
    params_seen_ |= 1ULL << i;
    param_types_.push_back(p.type);
    return open_value(p.type, &session_.out->params.emplace_back(), attributes);
  }
  return session_.fail(fault::invalid_params, "unknown parameter " + std::string(local) + " of " +
                                                  std::string(operation_->name));
}

bool SoapDecoder::open_in_value(FrameState& parent, std::string_view local,
                                XmlAttributes attributes) {
  const Type& t = *parent.type;
  if (t.kind == Kind::array) {
    return open_value(t.element, &parent.target->push(Value()), attributes);
  }
  if (t.kind == Kind::structure) {
    const Type* mt = member_type(t, local);
    if (mt == nullptr) {
      return session_.fail(fault::invalid_params,
                           "unknown member " + std::string(local) + " of " + std::string(t.name));
    }
    return open_value(mt, &parent.target->add_member(std::string(local), Value()), attributes);
  }
  return session_.unexpected("element <" + std::string(local) + ">",
                             "a " + std::string(t.name) + " value");
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
    std::string_view alocal;
    const std::string_view auri = namespaces_.attribute_uri(a.qname, &alocal);
    if (!is_xsi(auri)) continue;
    if (alocal == "nil" || alocal == "null") {
      nil = is_true(a.value);
    } else if (alocal == "type") {
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
    ok = close_frame(f);
  }
  namespaces_.truncate(f.bindings_mark);  // nested skip/capture frames pushed none: a no-op
  return ok;
}

bool SoapDecoder::close_frame(const FrameState& f) {
  switch (f.frame) {
    case Frame::value:
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
      if (f.response && operation_->result->kind != Kind::nil && !f.has_child) {
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

void SoapDecoder::begin_replay(const Type& type, Value& target) {
  parked_ = std::move(frames_);
  frames_.clear();
  text_.clear();
  frames_.push_back({.frame = Frame::replay_root,
                     .type = &type,
                     .target = &target,
                     .bindings_mark = namespaces_.mark()});
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
