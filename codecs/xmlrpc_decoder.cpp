#include "codecs/xmlrpc_decoder.h"

#include <utility>

#include "codecs/scalars.h"
#include "codecs/xml_namespaces.h"
#include "codecs/xml_scalar.h"

namespace sb::rpc {

namespace {

struct ScalarTag {
  std::string_view tag;  // element name inside <value>
  Kind kind;             // the scalar it holds
};

// The typed scalars; the first tag of a kind is the one error messages name.
constexpr ScalarTag kScalarTags[] = {
    {"int", Kind::integer},     {"i4", Kind::integer},      {"string", Kind::string},
    {"double", Kind::floating}, {"boolean", Kind::boolean}, {"dateTime.iso8601", Kind::datetime},
    {"base64", Kind::base64},   {"nil", Kind::nil},
};

const ScalarTag* find_tag(std::string_view local) {
  for (const ScalarTag& t : kScalarTags) {
    if (t.tag == local) return &t;
  }
  return nullptr;
}

std::string_view tag_of(Kind kind) {
  for (const ScalarTag& t : kScalarTags) {
    if (t.kind == kind) return t.tag;
  }
  return {};
}

}  // namespace

void XmlRpcDecoder::reset() {
  frames_.clear();
  text_.clear();
  fault_value_ = Value();
  member_name_.clear();
  early_values_.clear();
  result_seen_ = false;
}

void XmlRpcDecoder::open_root(std::string_view local) {
  Message& out = *session_.out;
  if (local == "methodCall") {
    out.kind = MessageKind::call;
    frames_.push_back({Frame::method_call});
  } else {
    out.kind = MessageKind::response;
    out.method = session_.context.method;
    frames_.push_back({Frame::method_response});
  }
}

bool XmlRpcDecoder::start_element(std::string_view qname) {
  std::string_view prefix;  // XML-RPC has no namespaces: a prefix is ignored
  return open_child(frames_.back(), local_part(qname, &prefix));
}

bool XmlRpcDecoder::open_child(FrameState& parent, std::string_view local) {
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
      if ((local == "params" || local == "fault") && parent.has_child) {
        return session_.fail(fault::parse_error,
                             "a <methodResponse> holds one <params> or one <fault>");
      }
      parent.has_child = true;
      if (local == "params") {
        frames_.push_back({Frame::params});
        return true;
      }
      if (local == "fault") {
        session_.out->kind = MessageKind::fault;
        frames_.push_back({Frame::fault});
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
      if (local == "value") return open_param_value();
      break;
    case Frame::value:
      return open_typed(parent, local);
    case Frame::structure:
      if (local == "member") {
        frames_.push_back({Frame::member, parent.target});
        return true;
      }
      break;
    case Frame::member:
      return open_member_child(parent, local);
    case Frame::array:
      if (local == "data") {
        if (parent.has_child)
          return session_.fail(fault::parse_error, "an <array> holds one <data>");
        parent.has_child = true;
        frames_.push_back({Frame::data, parent.target});
        return true;
      }
      break;
    case Frame::data:
      if (local == "value") return open_value(&parent.target->push(Value()));
      break;
    case Frame::fault:
      if (local == "value") return open_value(&fault_value_);
      break;
    default:
      break;
  }
  return session_.unexpected("element <" + std::string(local) + ">", "an XML-RPC message");
}

bool XmlRpcDecoder::open_param_value() {
  Message& out = *session_.out;
  if (out.kind == MessageKind::call) return open_value(&out.params.emplace_back());
  if (result_seen_) return session_.fail(fault::invalid_params, "a response holds one param");
  result_seen_ = true;
  return open_value(&out.result);
}

bool XmlRpcDecoder::open_member_child(FrameState& parent, std::string_view local) {
  if (local == "name" && !parent.has_child) {
    text_.clear();
    frames_.push_back({Frame::member_name});
    return true;
  }
  if (local == "value") {
    if (parent.value_seen) return session_.unexpected("a second <value>", "<member>");
    parent.value_seen = true;
    if (!parent.has_child) {
      // The spec names the parts, not their order: kept until <name> comes.
      parent.value_first = true;
      return open_value(&early_values_.emplace_back());
    }
    Value* target = &parent.target->add_member(std::move(member_name_), Value());
    member_name_.clear();
    return open_value(target);
  }
  return session_.unexpected("element <" + std::string(local) + ">", "an XML-RPC message");
}

bool XmlRpcDecoder::open_value(Value* target) {
  text_.clear();
  frames_.push_back({Frame::value, target});
  return true;
}

bool XmlRpcDecoder::open_typed(FrameState& parent, std::string_view local) {
  if (parent.has_child) return session_.unexpected("second type element", "<value>");
  if (!trim_xml_space(text_).empty()) return session_.unexpected("text", "<value>");
  parent.has_child = true;
  text_.clear();
  Value* target = parent.target;
  if (local == "struct") {
    *target = Value::structure();
    frames_.push_back({Frame::structure, target});
  } else if (local == "array") {
    *target = Value::array();
    frames_.push_back({Frame::array, target});
  } else if (const ScalarTag* t = find_tag(local)) {
    frames_.push_back({Frame::scalar, target, t->kind});
  } else {
    return session_.fail(fault::parse_error, "unknown XML-RPC type <" + std::string(local) + ">");
  }
  return true;
}

bool XmlRpcDecoder::text(std::string_view chars) {
  switch (frames_.back().frame) {
    case Frame::value:
    case Frame::scalar:
    case Frame::method_name:
    case Frame::member_name:
      text_.append(chars);
      return true;
    default:
      break;
  }
  return session_.container_text(chars);
}

bool XmlRpcDecoder::end_element() {
  const FrameState f = frames_.back();
  frames_.pop_back();
  return close_frame(f);
}

bool XmlRpcDecoder::close_frame(const FrameState& f) {
  switch (f.frame) {
    case Frame::scalar:
      return close_scalar(f);
    case Frame::value:
      if (!f.has_child) *f.target = Value::string(std::move(text_));  // untyped value: string
      text_.clear();
      return true;
    case Frame::method_name:
      session_.out->method = std::string(trim_xml_space(text_));
      text_.clear();
      return true;
    case Frame::member_name:
      member_name_ = std::move(text_);
      text_.clear();
      frames_.back().has_child = true;  // the enclosing <member> has its name
      return true;
    case Frame::member:
      if (!f.has_child) return session_.fail(fault::parse_error, "<member> without <name>");
      if (!f.value_seen) return session_.fail(fault::parse_error, "<member> without <value>");
      if (f.value_first) {
        f.target->add_member(std::move(member_name_), std::move(early_values_.back()));
        early_values_.pop_back();
        member_name_.clear();
      }
      return true;
    case Frame::structure:
      if (const std::string_view name = first_repeated_name(f.target->names()); !name.empty()) {
        return session_.fail(fault::parse_error, "a struct names a member once: <name>" +
                                                     std::string(name) + "</name> twice");
      }
      return true;
    case Frame::fault:
      return close_fault();
    case Frame::method_response:
      if (session_.out->kind == MessageKind::response && !result_seen_) {
        return session_.fail(fault::parse_error, "methodResponse without a param");
      }
      return true;
    default:  // containers and methodCall: checked as their children arrived
      return true;
  }
}

bool XmlRpcDecoder::close_scalar(const FrameState& f) {
  if (text_to_scalar(f.scalar, ScalarSyntax::xmlrpc, text_, *f.target)) return true;
  const std::string label = "<" + std::string(tag_of(f.scalar)) + ">";
  return session_.fail(fault::invalid_params,
                       bad_scalar_message(f.scalar, ScalarSyntax::xmlrpc, label, text_, {}));
}

bool XmlRpcDecoder::close_fault() {
  const Value* code = fault_value_.member("faultCode");
  const Value* message = fault_value_.member("faultString");
  if (fault_value_.kind() != Kind::structure || code == nullptr || code->kind() != Kind::integer ||
      message == nullptr || message->kind() != Kind::string) {
    return session_.fail(fault::parse_error,
                         "an XML-RPC fault needs faultCode (int) and faultString");
  }
  session_.out->fault_code = code->as_int();
  session_.out->fault_message = message->text();
  return true;
}

bool XmlRpcDecoder::finish() {
  if (session_.out->kind == MessageKind::call && session_.out->method.empty()) {
    return session_.fail(fault::parse_error, "methodCall without methodName");
  }
  return true;
}

}  // namespace sb::rpc
