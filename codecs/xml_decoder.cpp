#include "codecs/xml_decoder.h"

#include <utility>

#include "codecs/base64.h"
#include "codecs/scalars.h"

namespace sb::rpc {

namespace {

std::string_view local_part(std::string_view qname, std::string_view* prefix) {
  const std::size_t colon = qname.find(':');
  if (colon == std::string_view::npos) {
    *prefix = {};
    return qname;
  }
  *prefix = qname.substr(0, colon);
  return qname.substr(colon + 1);
}

bool is_xsi(std::string_view uri) {
  return uri == ns::xsi || uri == ns::xsi_1999 || uri == ns::xsi_2000;
}

bool is_true(std::string_view v) { return trim_xml_space(v) == "true" || trim_xml_space(v) == "1"; }

const Type* member_type(const Type& t, std::string_view name) {
  for (const Member& m : t.structure->members) {
    if (m.name == name) return m.type;
  }
  return nullptr;
}

bool is_scalar(Kind k) { return k != Kind::array && k != Kind::structure; }

}  // namespace

XmlDecoder::XmlDecoder(const Contract& contract, DecodeLimits limits)
    : contract_(contract), limits_(limits) {}

void XmlDecoder::reset(const DecodeContext& context, Message* out) {
  context_ = context;
  out_ = out;
  out_->clear();
  error_ = {};
  family_ = Family::xmlrpc;
  frames_.clear();
  bindings_.clear();
  text_.clear();
  seen_root_ = false;
  done_ = false;
  seen_operation_ = false;
  encoded_ = false;
  operation_ = nullptr;
  fault_value_ = Value();
  member_name_.clear();
  fault_code_text_.clear();
  captures_.clear();
  capture_index_.clear();
  active_refs_.clear();
  expansions_ = 0;
  has_references_ = false;
  result_seen_ = false;
  param_types_.clear();
  params_seen_ = 0;
}

bool XmlDecoder::fail(int code, std::string message) {
  if (!error_.failed()) error_ = DecodeError{code, std::move(message)};
  return false;
}

bool XmlDecoder::unexpected(std::string_view what, std::string_view where) {
  return fail(fault::parse_error, "unexpected " + std::string(what) + " in " + std::string(where));
}

void XmlDecoder::push_bindings(XmlAttributes attributes) {
  for (const XmlAttribute& a : attributes) {
    if (a.qname == "xmlns") {
      bindings_.push_back({std::string(), std::string(a.value)});
    } else if (a.qname.starts_with("xmlns:")) {
      bindings_.push_back({std::string(a.qname.substr(6)), std::string(a.value)});
    }
  }
}

std::string_view XmlDecoder::resolve(std::string_view prefix) const {
  for (auto it = bindings_.rbegin(); it != bindings_.rend(); ++it) {
    if (it->prefix == prefix) return it->uri;
  }
  return {};
}

std::string_view XmlDecoder::attribute_uri(std::string_view qname, std::string_view* local) const {
  std::string_view prefix;
  *local = local_part(qname, &prefix);
  return prefix.empty() ? std::string_view() : resolve(prefix);  // unprefixed: no namespace
}

bool XmlDecoder::start_element(std::string_view qname, XmlAttributes attributes) {
  if (error_.failed()) return false;
  // The same attribute bounds the markup guard applies before slow libraries, so every adapter
  // rejects the same messages at the decode level.
  if (attributes.size() > limits_.max_attributes) {
    return fail(fault::parse_error, "more than " + std::to_string(limits_.max_attributes) +
                                        " attributes on one element");
  }
  for (const XmlAttribute& a : attributes) {
    if (a.value.size() > limits_.max_attribute_bytes) {
      return fail(fault::parse_error, "an attribute value longer than " +
                                          std::to_string(limits_.max_attribute_bytes) + " bytes");
    }
  }
  if (!frames_.empty() && frames_.back().frame == Frame::capture) {
    // Recording a multiRef: keep the event as written, resolve nothing yet.
    const std::size_t index = frames_.back().capture;
    CapturedEvent ev{CapturedEvent::Type::start, std::string(qname), {}};
    for (const XmlAttribute& a : attributes) ev.attributes.emplace_back(a.qname, a.value);
    captures_[index].events.push_back(std::move(ev));
    frames_.push_back(
        {.frame = Frame::capture, .bindings_mark = bindings_.size(), .capture = index});
    return true;
  }
  if (!frames_.empty() && frames_.back().frame == Frame::skip) {
    frames_.push_back({.frame = Frame::skip, .bindings_mark = bindings_.size()});
    return true;
  }
  const std::size_t mark = bindings_.size();
  push_bindings(attributes);
  std::string_view prefix;
  const std::string_view local = local_part(qname, &prefix);
  const std::string_view uri = resolve(prefix);
  qname_prefix_ = prefix;
  bool ok = false;
  if (frames_.empty()) {
    if (seen_root_) return fail(fault::parse_error, "a second root element");
    seen_root_ = true;
    ok = open_root(local, uri);
  } else {
    FrameState& parent = frames_.back();
    switch (parent.frame) {
      case Frame::method_call:
      case Frame::method_name:
      case Frame::method_response:
      case Frame::params:
      case Frame::param:
      case Frame::xvalue:
      case Frame::xscalar:
      case Frame::xstruct:
      case Frame::xmember:
      case Frame::xmember_name:
      case Frame::xarray:
      case Frame::xdata:
      case Frame::xfault:
        ok = open_xmlrpc(parent, local);
        break;
      default:
        ok = open_soap(parent, local, uri, attributes);
        break;
    }
  }
  if (!ok) return false;
  frames_.back().bindings_mark = mark;
  return true;
}

bool XmlDecoder::open_root(std::string_view local, std::string_view uri) {
  std::optional<Protocol> seen;
  if (local == "Envelope" && uri == ns::soap11_env) {
    seen = Protocol::soap11;
    family_ = Family::soap11_rpc_literal;  // refined when the style shows
  } else if (local == "Envelope" && uri == ns::soap12_env) {
    seen = Protocol::soap12;
    family_ = Family::soap12_doc_literal;
  } else if (uri.empty() && (local == "methodCall" || local == "methodResponse")) {
    seen = Protocol::xmlrpc;
    family_ = Family::xmlrpc;
  } else {
    return fail(fault::parse_error, "not a SOAP envelope or XML-RPC message (root element <" +
                                        std::string(local) + "> in namespace '" + std::string(uri) +
                                        "')");
  }
  if (context_.protocol && *context_.protocol != *seen) {
    return fail(fault::parse_error, "expected a " + std::string(protocol_name(*context_.protocol)) +
                                        " message, got " + std::string(protocol_name(*seen)));
  }
  if (*seen == Protocol::xmlrpc) {
    if (local == "methodCall") {
      out_->kind = MessageKind::call;
      frames_.push_back({Frame::method_call});
    } else {
      out_->kind = MessageKind::response;
      out_->method = context_.method;
      frames_.push_back({Frame::method_response});
    }
    return true;
  }
  frames_.push_back({Frame::envelope});
  return true;
}

bool XmlDecoder::open_soap(FrameState& parent, std::string_view local, std::string_view uri,
                           XmlAttributes attributes) {
  const std::string_view env =
      family_ == Family::soap12_doc_literal ? ns::soap12_env : ns::soap11_env;
  auto has_encoding_style = [&] {
    for (const XmlAttribute& a : attributes) {
      std::string_view alocal;
      if (attribute_uri(a.qname, &alocal) == env && alocal == "encodingStyle") return true;
    }
    return false;
  };
  auto find_attribute = [&](std::string_view name) -> const XmlAttribute* {
    for (const XmlAttribute& a : attributes) {
      if (a.qname == name) return &a;
    }
    return nullptr;
  };
  auto start_capture = [&](std::string_view id) {
    const std::size_t index = captures_.size();
    captures_.emplace_back();
    capture_index_.emplace(std::string(id), index);
    CapturedEvent ev{CapturedEvent::Type::start, {}, {}};
    // Rebuild the qname from what we were given: the prefix bindings stay in scope at replay.
    ev.name = std::string(local);
    for (const XmlAttribute& a : attributes) ev.attributes.emplace_back(a.qname, a.value);
    captures_[index].events.push_back(std::move(ev));
    frames_.push_back({.frame = Frame::capture, .capture = index});
    return true;
  };

  switch (parent.frame) {
    case Frame::envelope:
      if (has_encoding_style()) encoded_ = true;
      if (uri == env && local == "Header") {
        frames_.push_back({Frame::skip});
        return true;
      }
      if (uri == env && local == "Body") {
        frames_.push_back({Frame::body});
        return true;
      }
      return unexpected("element <" + std::string(local) + ">", "the SOAP Envelope");

    case Frame::body: {
      const XmlAttribute* id = find_attribute("id");
      if (seen_operation_ || id != nullptr) {
        if (id != nullptr) return start_capture(id->value);
        frames_.push_back({Frame::skip});
        return true;
      }
      seen_operation_ = true;
      if (uri == env && local == "Fault") {
        out_->kind = MessageKind::fault;
        frames_.push_back({Frame::fault});
        return true;
      }
      bool response = false;
      const Operation* op = contract_.find(local);
      if (op == nullptr && local.ends_with("Response")) {
        op = contract_.find(local.substr(0, local.size() - 8));
        response = op != nullptr;
      }
      if (op == nullptr) {
        return fail(fault::method_not_found, "method not found: " + std::string(local));
      }
      operation_ = op;
      // A document/literal wrapper is declared in the default namespace (unprefixed); rpc
      // styles prefix the operation element. Decisive when the element has no children.
      if (family_ == Family::soap11_rpc_literal && !uri.empty() && qname_prefix_.empty()) {
        family_ = Family::soap11_doc_literal;
      }
      out_->kind = response ? MessageKind::response : MessageKind::call;
      out_->method = std::string(op->name);
      if (has_encoding_style()) encoded_ = true;
      frames_.push_back({Frame::operation});
      frames_.back().response = response;
      return true;
    }

    case Frame::operation: {
      if (!uri.empty() && family_ == Family::soap11_rpc_literal)
        family_ = Family::soap11_doc_literal;
      if (parent.response) {
        if (operation_->result->kind == Kind::nil) {
          frames_.push_back({Frame::skip});
          return true;
        }
        if (parent.has_child) return fail(fault::invalid_params, "more than one result element");
        parent.has_child = true;
        return open_value(operation_->result, &out_->result, attributes);
      }
      for (std::size_t i = 0; i < operation_->params.size(); ++i) {
        const Param& p = operation_->params[i];
        if (p.name != local) continue;
        if (params_seen_ & (1ULL << i)) {
          return fail(fault::invalid_params, "parameter " + std::string(local) + " given twice");
        }
        params_seen_ |= 1ULL << i;
        param_types_.push_back(p.type);
        return open_value(p.type, &out_->params.emplace_back(), attributes);
      }
      return fail(fault::invalid_params, "unknown parameter " + std::string(local) + " of " +
                                             std::string(operation_->name));
    }

    case Frame::value: {
      const Type& t = *parent.type;
      if (t.kind == Kind::array)
        return open_value(t.element, &parent.target->push(Value()), attributes);
      if (t.kind == Kind::structure) {
        const Type* mt = member_type(t, local);
        if (mt == nullptr) {
          return fail(fault::invalid_params,
                      "unknown member " + std::string(local) + " of " + std::string(t.name));
        }
        return open_value(mt, &parent.target->add_member(std::string(local), Value()), attributes);
      }
      return unexpected("element <" + std::string(local) + ">",
                        "a " + std::string(t.name) + " value");
    }

    case Frame::replay_root:
      return open_value(parent.type, parent.target, attributes);

    case Frame::fault:
      if (local == "faultstring") {
        text_.clear();
        frames_.push_back({Frame::fault_string});
      } else if (local == "Reason") {
        frames_.push_back({Frame::fault_reason});
      } else if (local == "detail" || local == "Detail") {
        frames_.push_back({Frame::fault_detail});
      } else {
        frames_.push_back({Frame::skip});  // faultcode, faultactor, Code, Node, Role
      }
      return true;

    case Frame::fault_reason:
      if (local == "Text" && out_->fault_message.empty()) {
        text_.clear();
        frames_.push_back({Frame::fault_string});
      } else {
        frames_.push_back({Frame::skip});
      }
      return true;

    case Frame::fault_detail:
      frames_.push_back({Frame::fault_detail_entry});
      return true;

    case Frame::fault_detail_entry:
      if (local == "code") {
        text_.clear();
        frames_.push_back({Frame::fault_detail_code});
      } else {
        frames_.push_back({Frame::skip});
      }
      return true;

    case Frame::empty_value:
      return unexpected("element <" + std::string(local) + ">", "a nil or href value");

    default:
      return unexpected("element <" + std::string(local) + ">", "a text-only element");
  }
}

bool XmlDecoder::open_value(const Type* type, Value* target, XmlAttributes attributes) {
  std::string_view href;
  bool nil = false;
  for (const XmlAttribute& a : attributes) {
    if (a.qname == "href") {
      href = a.value;
      continue;
    }
    std::string_view alocal;
    const std::string_view auri = attribute_uri(a.qname, &alocal);
    if (!is_xsi(auri)) continue;
    if (alocal == "nil" || alocal == "null") {
      nil = is_true(a.value);
    } else if (alocal == "type") {
      encoded_ = true;
    }
  }
  if (!href.empty()) {
    if (href.front() != '#') {
      return fail(fault::invalid_params, "href '" + std::string(href) + "' is not a local #id");
    }
    encoded_ = true;
    has_references_ = true;
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

bool XmlDecoder::open_xmlrpc(FrameState& parent, std::string_view local) {
  switch (parent.frame) {
    case Frame::method_call:
      if (local == "methodName") {
        text_.clear();
        frames_.push_back({Frame::method_name});
        return true;
      }
      if (local == "params") {
        frames_.push_back({Frame::params});
        return true;
      }
      break;
    case Frame::method_response:
      if (local == "params") {
        frames_.push_back({Frame::params});
        return true;
      }
      if (local == "fault") {
        out_->kind = MessageKind::fault;
        frames_.push_back({Frame::xfault});
        return true;
      }
      break;
    case Frame::params:
      if (local == "param") {
        frames_.push_back({Frame::param});
        return true;
      }
      break;
    case Frame::param:
      if (local == "value") {
        Value* target = nullptr;
        if (out_->kind == MessageKind::call) {
          target = &out_->params.emplace_back();
        } else {
          if (result_seen_) return fail(fault::invalid_params, "a response holds one param");
          result_seen_ = true;
          target = &out_->result;
        }
        text_.clear();
        frames_.push_back({Frame::xvalue, nullptr, target});
        return true;
      }
      break;
    case Frame::xvalue: {
      if (parent.has_child) return unexpected("second type element", "<value>");
      if (!trim_xml_space(text_).empty()) return unexpected("text", "<value>");
      parent.has_child = true;
      text_.clear();
      Kind k = Kind::nil;
      if (local == "int" || local == "i4") {
        k = Kind::integer;
      } else if (local == "string") {
        k = Kind::string;
      } else if (local == "double") {
        k = Kind::floating;
      } else if (local == "boolean") {
        k = Kind::boolean;
      } else if (local == "dateTime.iso8601") {
        k = Kind::datetime;
      } else if (local == "base64") {
        k = Kind::base64;
      } else if (local == "nil") {
        *parent.target = Value();
        frames_.push_back({Frame::xscalar, nullptr, parent.target, Kind::nil});
        return true;
      } else if (local == "struct") {
        *parent.target = Value::structure();
        frames_.push_back({Frame::xstruct, nullptr, parent.target});
        return true;
      } else if (local == "array") {
        *parent.target = Value::array();
        frames_.push_back({Frame::xarray, nullptr, parent.target});
        return true;
      } else {
        return fail(fault::parse_error, "unknown XML-RPC type <" + std::string(local) + ">");
      }
      frames_.push_back({Frame::xscalar, nullptr, parent.target, k});
      return true;
    }
    case Frame::xstruct:
      if (local == "member") {
        frames_.push_back({Frame::xmember, nullptr, parent.target});
        return true;
      }
      break;
    case Frame::xmember:
      if (local == "name" && !parent.has_child) {
        text_.clear();
        frames_.push_back({Frame::xmember_name});
        return true;
      }
      if (local == "value") {
        if (!parent.has_child) return unexpected("<value> before <name>", "<member>");
        Value* target = &parent.target->add_member(std::move(member_name_), Value());
        member_name_.clear();
        text_.clear();
        frames_.push_back({Frame::xvalue, nullptr, target});
        return true;
      }
      break;
    case Frame::xarray:
      if (local == "data") {
        frames_.push_back({Frame::xdata, nullptr, parent.target});
        return true;
      }
      break;
    case Frame::xdata:
      if (local == "value") {
        Value* target = &parent.target->push(Value());
        text_.clear();
        frames_.push_back({Frame::xvalue, nullptr, target});
        return true;
      }
      break;
    case Frame::xfault:
      if (local == "value") {
        text_.clear();
        frames_.push_back({Frame::xvalue, nullptr, &fault_value_});
        return true;
      }
      break;
    default:
      break;
  }
  return unexpected("element <" + std::string(local) + ">", "an XML-RPC message");
}

bool XmlDecoder::text(std::string_view chars) {
  if (error_.failed()) return false;
  if (frames_.empty()) return true;
  FrameState& f = frames_.back();
  switch (f.frame) {
    case Frame::capture: {
      auto& events = captures_[f.capture].events;
      if (!events.empty() && events.back().type == CapturedEvent::Type::text) {
        events.back().name.append(chars);
      } else {
        events.push_back({CapturedEvent::Type::text, std::string(chars), {}});
      }
      return true;
    }
    case Frame::skip:
      return true;
    case Frame::value:
      if (is_scalar(f.type->kind)) {
        text_.append(chars);
        return true;
      }
      break;
    case Frame::xvalue:
    case Frame::xscalar:
    case Frame::method_name:
    case Frame::xmember_name:
    case Frame::fault_string:
    case Frame::fault_detail_code:
      text_.append(chars);
      return true;
    default:
      break;
  }
  if (!trim_xml_space(chars).empty()) return unexpected("text", "a container element");
  return true;
}

bool XmlDecoder::end_element(std::string_view qname) {
  if (error_.failed()) return false;
  if (frames_.empty()) return fail(fault::parse_error, "unbalanced end tag");
  FrameState f = frames_.back();
  frames_.pop_back();
  bool ok = true;
  if (f.frame == Frame::capture) {
    captures_[f.capture].events.push_back({CapturedEvent::Type::end, std::string(qname), {}});
  } else if (f.frame != Frame::skip) {
    ok = close_frame(f);
  }
  bindings_.resize(f.bindings_mark);  // nested skip/capture frames pushed none: a no-op for them
  return ok;
}

bool XmlDecoder::close_scalar(FrameState& f) {
  Value& v = *f.target;
  const std::string_view where = f.type->name;
  switch (f.type->kind) {
    case Kind::string:
      v = Value::string(std::move(text_));
      break;
    case Kind::integer: {
      auto i = parse_int32(text_);
      if (!i) return fail(fault::invalid_params, "bad int '" + text_ + "'");
      v = Value::integer(*i);
      break;
    }
    case Kind::floating: {
      auto d = parse_double(text_, true);
      if (!d) return fail(fault::invalid_params, "bad double '" + text_ + "'");
      v = Value::floating(*d);
      break;
    }
    case Kind::boolean: {
      auto b = parse_xsd_bool(text_);
      if (!b) return fail(fault::invalid_params, "bad boolean '" + text_ + "'");
      v = Value::boolean(*b);
      break;
    }
    case Kind::datetime: {
      auto d = parse_datetime(text_);
      if (!d) return fail(fault::invalid_params, "bad dateTime '" + text_ + "'");
      v = Value::datetime(std::move(*d));
      break;
    }
    case Kind::base64: {
      auto b = base64_decode(text_);
      if (!b) return fail(fault::invalid_params, "bad base64 in " + std::string(where));
      v = Value::base64(std::move(*b));
      break;
    }
    default:
      break;
  }
  text_.clear();
  return true;
}

bool XmlDecoder::close_xmlrpc_scalar(FrameState& f) {
  Value& v = *f.target;
  switch (f.scalar) {
    case Kind::nil:
      v = Value();
      break;
    case Kind::string:
      v = Value::string(std::move(text_));
      break;
    case Kind::integer: {
      auto i = parse_int32(text_);
      if (!i) return fail(fault::invalid_params, "bad <int> '" + text_ + "'");
      v = Value::integer(*i);
      break;
    }
    case Kind::floating: {
      auto d = parse_double(text_, false);  // XML-RPC has no NaN or infinities
      if (!d) return fail(fault::invalid_params, "bad <double> '" + text_ + "'");
      v = Value::floating(*d);
      break;
    }
    case Kind::boolean: {
      auto b = parse_xmlrpc_bool(text_);
      if (!b) return fail(fault::invalid_params, "bad <boolean> '" + text_ + "'");
      v = Value::boolean(*b);
      break;
    }
    case Kind::datetime: {
      auto d = parse_datetime(text_);
      if (!d) return fail(fault::invalid_params, "bad <dateTime.iso8601> '" + text_ + "'");
      v = Value::datetime(std::move(*d));
      break;
    }
    case Kind::base64: {
      auto b = base64_decode(text_);
      if (!b) return fail(fault::invalid_params, "bad <base64>");
      v = Value::base64(std::move(*b));
      break;
    }
    default:
      break;
  }
  text_.clear();
  return true;
}

bool XmlDecoder::close_frame(FrameState& f) {
  switch (f.frame) {
    case Frame::value:
      if (is_scalar(f.type->kind)) return close_scalar(f);
      return true;
    case Frame::empty_value:
    case Frame::xstruct:
    case Frame::xarray:
    case Frame::xdata:
    case Frame::params:
    case Frame::param:
    case Frame::body:
    case Frame::fault_reason:
    case Frame::fault_detail:
    case Frame::fault_detail_entry:
    case Frame::replay_root:
      return true;
    case Frame::xscalar:
      return close_xmlrpc_scalar(f);
    case Frame::xvalue:
      if (!f.has_child) *f.target = Value::string(std::move(text_));  // untyped value: string
      text_.clear();
      return true;
    case Frame::method_name:
      out_->method = std::string(trim_xml_space(text_));
      text_.clear();
      return true;
    case Frame::xmember_name:
      member_name_ = std::move(text_);
      text_.clear();
      frames_.back().has_child = true;  // the enclosing <member> has its name
      return true;
    case Frame::xmember:
      if (!f.has_child) return fail(fault::parse_error, "<member> without <name>");
      return true;
    case Frame::xfault: {
      const Value* code = fault_value_.member("faultCode");
      const Value* message = fault_value_.member("faultString");
      if (fault_value_.kind() != Kind::structure || code == nullptr ||
          code->kind() != Kind::integer || message == nullptr || message->kind() != Kind::string) {
        return fail(fault::parse_error, "an XML-RPC fault needs faultCode (int) and faultString");
      }
      out_->fault_code = code->as_int();
      out_->fault_message = message->text();
      return true;
    }
    case Frame::fault_string:
      out_->fault_message = std::move(text_);
      text_.clear();
      return true;
    case Frame::fault_detail_code:
      fault_code_text_ = std::move(text_);
      text_.clear();
      return true;
    case Frame::fault: {
      if (!fault_code_text_.empty()) {
        auto code = parse_int32(fault_code_text_);
        if (!code)
          return fail(fault::parse_error, "bad fault detail code '" + fault_code_text_ + "'");
        out_->fault_code = *code;
      }
      return true;
    }
    case Frame::operation:
      if (f.response && operation_->result->kind != Kind::nil && !f.has_child) {
        return fail(fault::invalid_params, "response without a result element");
      }
      return true;
    case Frame::method_response:
      if (out_->kind == MessageKind::response && !result_seen_) {
        return fail(fault::parse_error, "methodResponse without a param");
      }
      done_ = true;
      return true;
    case Frame::envelope:
    case Frame::method_call:
      done_ = true;
      return true;
    default:
      return true;
  }
}

bool XmlDecoder::finish() {
  if (error_.failed()) return false;
  if (!done_) return fail(fault::parse_error, "incomplete message");
  if (family_ == Family::xmlrpc) {
    if (out_->kind == MessageKind::call && out_->method.empty()) {
      return fail(fault::parse_error, "methodCall without methodName");
    }
    return true;
  }
  if (!seen_operation_) return fail(fault::parse_error, "empty SOAP Body");
  if (encoded_ && family_ != Family::soap12_doc_literal) family_ = Family::soap11_rpc_encoded;
  if (out_->kind == MessageKind::call) {
    for (std::size_t i = 0; i < operation_->params.size(); ++i) {
      if (!operation_->params[i].optional && !(params_seen_ & (1ULL << i))) {
        return fail(fault::invalid_params, "missing parameter " +
                                               std::string(operation_->params[i].name) + " of " +
                                               std::string(operation_->name));
      }
    }
    for (std::size_t i = 0; i < out_->params.size(); ++i) {
      if (!resolve_references(out_->params[i], *param_types_[i], 0)) return false;
    }
  } else if (out_->kind == MessageKind::response) {
    if (!resolve_references(out_->result, *operation_->result, 0)) return false;
  }
  return true;
}

bool XmlDecoder::resolve_references(Value& v, const Type& type, int depth) {
  if (!has_references_) return true;  // the common case: nothing to resolve, no traversal
  if (depth > 1000) return fail(fault::invalid_params, "multi-reference chain too deep");
  if (v.is_reference()) return expand_reference(v, type);  // resolves inside it too
  if (type.kind == Kind::array && v.kind() == Kind::array) {
    for (Value& item : v.items()) {
      if (!resolve_references(item, *type.element, depth + 1)) return false;
    }
  } else if (type.kind == Kind::structure && v.kind() == Kind::structure) {
    for (std::size_t i = 0; i < v.items().size(); ++i) {
      const Type* mt = member_type(type, v.names()[i]);
      if (mt != nullptr && !resolve_references(v.items()[i], *mt, depth + 1)) return false;
    }
  }
  return true;
}

bool XmlDecoder::expand_reference(Value& v, const Type& type) {
  const std::string id = v.text();
  auto it = capture_index_.find(id);
  if (it == capture_index_.end()) return fail(fault::invalid_params, "href to unknown id #" + id);
  for (const std::string& active : active_refs_) {
    if (active == id) return fail(fault::invalid_params, "cyclic href #" + id);
  }
  if (++expansions_ > limits_.max_reference_expansions) {
    return fail(fault::invalid_params, "more than " +
                                           std::to_string(limits_.max_reference_expansions) +
                                           " multi-reference expansions");
  }
  active_refs_.push_back(id);
  std::vector<FrameState> saved = std::move(frames_);
  frames_.clear();
  v = Value();
  text_.clear();
  frames_.push_back({.frame = Frame::replay_root,
                     .type = &type,
                     .target = &v,
                     .bindings_mark = bindings_.size()});
  std::vector<XmlAttribute> attrs;
  for (const CapturedEvent& ev : captures_[it->second].events) {
    bool ok = true;
    switch (ev.type) {
      case CapturedEvent::Type::start:
        attrs.clear();
        for (const auto& [name, value] : ev.attributes) attrs.push_back({name, value});
        ok = start_element(ev.name, attrs);
        break;
      case CapturedEvent::Type::text:
        ok = text(ev.name);
        break;
      case CapturedEvent::Type::end:
        ok = end_element(ev.name);
        break;
    }
    if (!ok) return false;
  }
  frames_ = std::move(saved);
  // The expanded value may itself hold references; active_refs_ still holds this id.
  const bool ok = resolve_references(v, type, static_cast<int>(active_refs_.size()));
  active_refs_.pop_back();
  return ok;
}

}  // namespace sb::rpc
