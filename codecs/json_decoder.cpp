#include "codecs/json_decoder.h"

#include <algorithm>
#include <limits>

#include "codecs/base64.h"
#include "codecs/scalars.h"

namespace sb::rpc {

namespace {

// JSON objects are unordered (RFC 8259 Section 4): a typed struct takes its members in the
// contract's order, whatever order the library delivers them in (Qt sorts them by name).
void to_contract_order(Value& v, const Type& t) {
  std::vector<std::string>& names = v.names();
  std::size_t next = 0;  // members before `next` are in contract order
  for (const Member& m : t.structure->members) {
    if (next == names.size()) return;
    if (names[next] == m.name) {
      ++next;
      continue;
    }
    const auto it = std::find(names.begin() + next, names.end(), m.name);
    if (it == names.end()) continue;
    const auto at = it - names.begin();
    std::rotate(names.begin() + next, it, it + 1);
    std::rotate(v.items().begin() + next, v.items().begin() + at, v.items().begin() + at + 1);
    ++next;
  }
}

const Type* member_type(const Type& t, std::string_view name) {
  for (const Member& m : t.structure->members) {
    if (m.name == name) return m.type;
  }
  return nullptr;
}

bool fits_int32(std::int64_t i) {
  return i >= std::numeric_limits<std::int32_t>::min() &&
         i <= std::numeric_limits<std::int32_t>::max();
}

// {"$dateTime": "…"} / {"$base64": "…"}, the canonical JSON of those types, becomes its text:
// what `soapbench decode` prints can be sent back where the contract expects that type.
void unwrap_canonical(Value& v, std::string_view key) {
  if (v.kind() == Kind::structure && v.names().size() == 1 && v.names()[0] == key &&
      v.items()[0].kind() == Kind::string) {
    Value text = std::move(v.items()[0]);
    v = std::move(text);
  }
}

}  // namespace

JsonDecoder::JsonDecoder(const Contract& contract, Limits limits)
    : own_contract_(contract), contract_(&contract), limits_(limits) {}

// Inline: it was reset()'s body before batches, and reset() runs for every message.
inline void JsonDecoder::begin_message() {
  top_key_ = TopKey::none;
  key_.clear();
  operation_ = nullptr;
  typed_params_ = false;
  has_method_ = has_params_ = has_result_ = has_error_ = false;
  version_ok_ = false;
  named_.clear();
  error_code_ = 0;
  has_error_code_ = has_error_message_ = false;
}

void JsonDecoder::reset(const DecodeContext& context, Message* out) {
  context_ = context;
  contract_ = context.contract != nullptr ? context.contract : &own_contract_;
  out_ = out;
  out_->clear();
  batch_ = nullptr;
  error_ = {};
  frames_.clear();
  begin_message();
}

bool JsonDecoder::fail(int code, std::string message) {
  if (!error_.failed()) error_ = DecodeError{code, std::move(message)};
  return false;
}

bool JsonDecoder::next_slot(Value** slot, const Type** type) {
  *slot = nullptr;
  *type = nullptr;
  if (frames_.empty()) return fail(fault::invalid_request, "a JSON-RPC message is an object");
  FrameState& f = frames_.back();
  switch (f.frame) {
    case Frame::top:
      if (top_key_ == TopKey::result) {
        has_result_ = true;
        *slot = &out_->result;
        if (const Operation* op = contract_->find(context_.method)) *type = op->result;
      }
      return true;  // other keys: the caller handles them (slot stays null)
    case Frame::params_array: {
      const std::size_t i = out_->params.size();
      if (operation_ != nullptr) {
        if (i >= operation_->params.size()) {
          return fail(fault::invalid_params,
                      "too many params for " + std::string(operation_->name));
        }
        *type = operation_->params[i].type;
      }
      *slot = &out_->params.emplace_back();
      return true;
    }
    case Frame::params_object: {
      if (operation_ != nullptr) {
        for (const Param& p : operation_->params) {
          if (p.name == key_) *type = p.type;
        }
        if (*type == nullptr) {
          return fail(fault::invalid_params,
                      "unknown parameter " + key_ + " of " + std::string(operation_->name));
        }
      }
      named_.emplace_back(key_, Value());
      *slot = &named_.back().second;
      return true;
    }
    case Frame::array:
      *type = f.type != nullptr ? f.type->element : nullptr;
      *slot = &f.target->push(Value());
      return true;
    case Frame::object:
      if (f.type != nullptr) {
        *type = member_type(*f.type, key_);
        if (*type == nullptr) {
          return fail(fault::invalid_params,
                      "unknown member " + key_ + " of " + std::string(f.type->name));
        }
      }
      *slot = &f.target->add_member(key_, Value());
      return true;
    case Frame::batch:
    case Frame::error_object:
    case Frame::skip:
      return true;
  }
  return true;
}

bool JsonDecoder::open_container(bool object) {
  if (error_.failed()) return false;
  if (frames_.empty()) {
    if (context_.protocol && *context_.protocol != Protocol::jsonrpc) {
      return fail(fault::parse_error, "expected a " +
                                          std::string(protocol_name(*context_.protocol)) +
                                          " message, got JSON-RPC");
    }
    if (!object) {
      if (!context_.batch) return fail(fault::invalid_request, "batch requests are not supported");
      batch_ = out_;
      batch_->kind = MessageKind::batch;
      frames_.push_back({Frame::batch});
      return true;
    }
    frames_.push_back({Frame::top});
    return true;
  }
  FrameState& f = frames_.back();
  if (f.frame == Frame::batch) {
    if (!object) return fail(fault::invalid_request, "a batch holds message objects");
    if (batch_->batch.size() >= limits_.max_members) {
      return fail(fault::invalid_request,
                  "more than " + std::to_string(limits_.max_members) + " messages in one batch");
    }
    out_ = &batch_->batch.emplace_back();
    begin_message();
    frames_.push_back({Frame::top});
    return true;
  }
  if (f.frame == Frame::skip || f.frame == Frame::error_object) {
    frames_.push_back({Frame::skip});
    return true;
  }
  if (f.frame == Frame::top) {
    switch (top_key_) {
      case TopKey::params:
        has_params_ = true;
        typed_params_ = operation_ != nullptr;
        frames_.push_back({object ? Frame::params_object : Frame::params_array});
        return true;
      case TopKey::error:
        if (!object) return fail(fault::invalid_request, "\"error\" must be an object");
        has_error_ = true;
        frames_.push_back({Frame::error_object});
        return true;
      case TopKey::result:
        break;  // a structured result: handled below
      case TopKey::other:
        frames_.push_back({Frame::skip});
        return true;
      default:
        return fail(fault::invalid_request, "unexpected container in the JSON-RPC envelope");
    }
  }
  Value* slot = nullptr;
  const Type* type = nullptr;
  if (!next_slot(&slot, &type)) return false;
  *slot = object ? Value::structure() : Value::array();
  if (object && type != nullptr && (type->kind == Kind::datetime || type->kind == Kind::base64)) {
    // Maybe a canonical {"$dateTime": …} / {"$base64": …}: read untyped, typed when it closes.
    frames_.push_back({Frame::object, nullptr, slot, type});
    return true;
  }
  if (type != nullptr && type->kind != (object ? Kind::structure : Kind::array)) {
    return fail(fault::invalid_params, std::string("expected ") + std::string(type->name) +
                                           ", got " + (object ? "an object" : "an array"));
  }
  frames_.push_back({object ? Frame::object : Frame::array, type, slot});
  return true;
}

bool JsonDecoder::start_object() { return open_container(true); }
bool JsonDecoder::start_array() { return open_container(false); }

bool JsonDecoder::end_object() {
  if (error_.failed()) return false;
  const FrameState closed = frames_.back();
  frames_.pop_back();
  if (closed.frame == Frame::top && !frames_.empty()) {
    // A message of a batch is complete.
    if (!finish_message()) {
      error_.message =
          "batch message " + std::to_string(batch_->batch.size()) + ": " + error_.message;
      return false;
    }
    return true;
  }
  if (closed.frame == Frame::batch) {
    out_ = batch_;
    return true;
  }
  if (closed.frame == Frame::object && closed.type != nullptr &&
      closed.type->kind == Kind::structure) {
    to_contract_order(*closed.target, *closed.type);
  }
  return closed.late_type == nullptr || coerce(*closed.target, *closed.late_type, "");
}
bool JsonDecoder::end_array() { return end_object(); }

bool JsonDecoder::key(std::string_view k) {
  if (error_.failed()) return false;
  FrameState& f = frames_.back();
  // Counted in every object, skipped ones too: the bound is the message's, not the contract's.
  if (++f.members > limits_.max_members) {
    return fail(fault::parse_error,
                "more than " + std::to_string(limits_.max_members) + " members in one object");
  }
  if (f.frame == Frame::top) {
    if (k == "jsonrpc") {
      top_key_ = TopKey::jsonrpc;
    } else if (k == "method") {
      top_key_ = TopKey::method;
    } else if (k == "params") {
      top_key_ = TopKey::params;
    } else if (k == "id") {
      top_key_ = TopKey::id;
    } else if (k == "result") {
      top_key_ = TopKey::result;
    } else if (k == "error") {
      top_key_ = TopKey::error;
    } else {
      top_key_ = TopKey::other;
    }
    return true;
  }
  key_.assign(k);
  return true;
}

bool JsonDecoder::scalar(Value v, Kind natural) {
  if (error_.failed()) return false;
  if (frames_.empty()) return fail(fault::invalid_request, "a JSON-RPC message is an object");
  FrameState& f = frames_.back();
  if (f.frame == Frame::skip) return true;
  if (f.frame == Frame::batch) return fail(fault::invalid_request, "a batch holds message objects");
  if (f.frame == Frame::error_object) {
    if (key_ == "code") {
      if (natural != Kind::integer)
        return fail(fault::invalid_request, "error.code must be an integer");
      error_code_ = v.as_int();
      has_error_code_ = true;
    } else if (key_ == "message") {
      if (natural != Kind::string)
        return fail(fault::invalid_request, "error.message must be a string");
      out_->fault_message = std::move(v.text());
      has_error_message_ = true;
    }
    return true;
  }
  if (f.frame == Frame::top && top_key_ != TopKey::result) {
    switch (top_key_) {
      case TopKey::jsonrpc:
        version_ok_ = natural == Kind::string && v.text() == "2.0";
        if (!version_ok_) return fail(fault::invalid_request, "\"jsonrpc\" must be \"2.0\"");
        return true;
      case TopKey::method:
        if (natural != Kind::string)
          return fail(fault::invalid_request, "\"method\" must be a string");
        out_->method = std::move(v.text());
        has_method_ = true;
        operation_ = contract_->find(out_->method);
        return true;
      case TopKey::params:
        return fail(fault::invalid_request, "\"params\" must be an array or object");
      case TopKey::error:
        return fail(fault::invalid_request, "\"error\" must be an object");
      default:
        return true;  // id and unknown members
    }
  }
  Value* slot = nullptr;
  const Type* type = nullptr;
  if (!next_slot(&slot, &type)) return false;
  if (slot == nullptr) return true;
  *slot = std::move(v);
  return type == nullptr || coerce(*slot, *type, "");
}

bool JsonDecoder::string_value(std::string_view s) {
  return scalar(Value::string(std::string(s)), Kind::string);
}

bool JsonDecoder::int_value(std::int64_t i) {
  if (error_.failed()) return false;
  if (!frames_.empty() && frames_.back().frame == Frame::error_object && key_ == "code") {
    if (!fits_int32(i)) return fail(fault::invalid_request, "error.code out of range");
  }
  if (!fits_int32(i)) {
    // Out of int range: only a double can hold it; coerce() rejects it where an int is due.
    return scalar(Value::floating(static_cast<double>(i)), Kind::floating);
  }
  return scalar(Value::integer(static_cast<std::int32_t>(i)), Kind::integer);
}

bool JsonDecoder::double_value(double d) { return scalar(Value::floating(d), Kind::floating); }
bool JsonDecoder::bool_value(bool b) { return scalar(Value::boolean(b), Kind::boolean); }
bool JsonDecoder::null_value() { return scalar(Value(), Kind::nil); }

bool JsonDecoder::coerce(Value& v, const Type& type, std::string_view where) {
  auto mismatch = [&] {
    return fail(fault::invalid_params, "expected " + std::string(type.name) + ", got " +
                                           std::string(kind_name(v.kind())) +
                                           (where.empty() ? "" : " in " + std::string(where)));
  };
  if (v.is_nil()) return true;  // null is allowed for any type
  switch (type.kind) {
    case Kind::string:
      return v.kind() == Kind::string || mismatch();
    case Kind::integer:
      return v.kind() == Kind::integer || mismatch();
    case Kind::boolean:
      return v.kind() == Kind::boolean || mismatch();
    case Kind::floating:
      if (v.kind() == Kind::integer) v = Value::floating(v.as_int());
      return v.kind() == Kind::floating || mismatch();
    case Kind::datetime: {
      if (v.kind() == Kind::datetime) return true;
      unwrap_canonical(v, "$dateTime");
      if (v.kind() != Kind::string) return mismatch();
      auto d = parse_datetime(v.text());
      if (!d) return fail(fault::invalid_params, "bad dateTime '" + v.text() + "'");
      v = Value::datetime(std::move(*d));
      return true;
    }
    case Kind::base64: {
      if (v.kind() == Kind::base64) return true;
      unwrap_canonical(v, "$base64");
      if (v.kind() != Kind::string) return mismatch();
      auto b = base64_decode(v.text());
      if (!b) return fail(fault::invalid_params, "bad base64");
      v = Value::base64(std::move(*b));
      return true;
    }
    case Kind::array:
      if (v.kind() != Kind::array) return mismatch();
      for (Value& item : v.items()) {
        if (!coerce(item, *type.element, where)) return false;
      }
      return true;
    case Kind::structure:
      if (v.kind() != Kind::structure) return mismatch();
      for (std::size_t i = 0; i < v.items().size(); ++i) {
        const Type* mt = member_type(type, v.names()[i]);
        if (mt == nullptr) {
          return fail(fault::invalid_params,
                      "unknown member " + v.names()[i] + " of " + std::string(type.name));
        }
        if (!coerce(v.items()[i], *mt, where)) return false;
      }
      return true;
    case Kind::nil:
      return true;
  }
  return true;
}

bool JsonDecoder::finish() {
  if (error_.failed()) return false;
  if (batch_ != nullptr) {
    // Each message was finished as it closed; an empty batch is no request (JSON-RPC 2.0 §6).
    return !batch_->batch.empty() || fail(fault::invalid_request, "an empty batch");
  }
  return finish_message();
}

bool JsonDecoder::finish_message() {
  if (!version_ok_) return fail(fault::invalid_request, "missing \"jsonrpc\":\"2.0\"");
  if (has_method_) {
    out_->kind = MessageKind::call;
    if (!named_.empty()) {
      if (operation_ == nullptr) {
        // Unknown method with named params: keep document order.
        for (auto& [name, value] : named_) out_->params.push_back(std::move(value));
      } else {
        // By-name params, ordered by the contract.
        for (const Param& p : operation_->params) {
          for (auto& [name, value] : named_) {
            if (name == p.name) out_->params.push_back(std::move(value));
          }
        }
      }
    }
    if (operation_ != nullptr) {
      std::size_t required = 0;
      for (const Param& p : operation_->params) required += p.optional ? 0 : 1;
      if (out_->params.size() < required || out_->params.size() > operation_->params.size()) {
        return fail(fault::invalid_params, std::string(operation_->name) + " takes " +
                                               std::to_string(required) + " params, got " +
                                               std::to_string(out_->params.size()));
      }
      if (!typed_params_ || !named_.empty()) {
        for (std::size_t i = 0; i < out_->params.size(); ++i) {
          if (!coerce(out_->params[i], *operation_->params[i].type, operation_->params[i].name)) {
            return false;
          }
        }
      }
    }
    return true;
  }
  if (has_error_) {
    if (!has_error_code_ || !has_error_message_) {
      return fail(fault::invalid_request, "\"error\" needs code and message");
    }
    out_->kind = MessageKind::fault;
    out_->fault_code = static_cast<std::int32_t>(error_code_);
    return true;
  }
  if (has_result_) {
    out_->kind = MessageKind::response;
    out_->method = context_.method;
    return true;
  }
  return fail(fault::invalid_request, "neither method, result nor error");
}

}  // namespace sb::rpc
