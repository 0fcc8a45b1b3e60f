// JsonDecoder: the JSON event sink of the `decode` level for JSON-RPC 2.0 and 1.0 (a message
// without "jsonrpc"). Values are typed by the contract as they stream in when the method is
// known first (the usual key order); otherwise they are read untyped and typed at finish().
// Params given by name stay by name, in document order (Message::param_names).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "codecs/decode.h"
#include "codecs/value.h"
#include "core/events.h"
#include "core/limits.h"

namespace sb::rpc {

class JsonDecoder {
 public:
  // Decodes against `contract`, refusing an object with more than limits.max_members members.
  explicit JsonDecoder(const Contract& contract = service_contract(), Limits limits = {});

  // Prepares to decode one message into `out` (cleared here).
  void reset(const DecodeContext& context, Message* out);

  // Events (core/events.h). Each returns false once an error is recorded.
  bool start_object();
  bool key(std::string_view k);
  bool end_object();
  bool start_array();
  bool end_array();
  bool string_value(std::string_view s);
  bool int_value(std::int64_t i);
  bool double_value(double d);
  bool bool_value(bool b);
  bool null_value();

  // Called after the parser finished without error: types late values, checks the envelope.
  bool finish();

  const DecodeError& error() const { return error_; }
  Family family() const { return Family::jsonrpc; }

 private:
  enum class Frame : std::uint8_t {
    batch,
    top,
    params_array,
    params_object,
    error_object,
    array,
    object,
    skip
  };
  enum class TopKey : std::uint8_t { none, jsonrpc, method, params, id, result, error, other };
  struct FrameState {
    Frame frame;                      // what this container is
    const Type* type = nullptr;       // array/object: expected type (nullptr: untyped)
    Value* target = nullptr;          // array/object: the value being built
    const Type* late_type = nullptr;  // object: type it gets once closed (canonical wrappers)
    std::size_t members = 0;          // keys read in this object (Limits::max_members)
  };

  // Where the next value goes and what type it should have; false on a structural error.
  bool next_slot(Value** slot, const Type** type);
  bool open_container(bool object);
  bool scalar(Value v, Kind natural);
  bool coerce(Value& v, const Type& type, std::string_view where);
  bool fail(int code, std::string message);
  // Forgets what the previous message (of a batch) set.
  void begin_message();
  // The checks and typing of finish() for one message.
  bool finish_message();
  // A call's checks against its operation (operation_): params present, typed.
  bool check_call();
  // A response's or fault's checks: JSON-RPC 1.0 gives result and error, one of them null; 2.0
  // one of them.
  bool finish_answer(bool v1);

  const Contract& own_contract_;                             // when the context names none
  const Contract* contract_;                                 // types params and results
  Limits limits_;                                            // max_members is read here
  DecodeContext context_;                                    // what the caller knows
  Message* out_ = nullptr;                                   // message being built
  Message* batch_ = nullptr;                                 // the batch holding out_, if any
  DecodeError error_;                                        // first error, if any
  std::vector<FrameState> frames_;                           // open containers
  TopKey top_key_ = TopKey::none;                            // key being read at the top level
  std::string key_;                                          // key being read inside an object
  const Operation* operation_ = nullptr;                     // known once "method" was read (calls)
  bool typed_params_ = false;                                // params were typed as they streamed
  bool has_method_ = false, has_params_ = false;             // which top-level members were seen
  bool has_result_ = false, has_error_ = false;              //
  bool has_version_ = false;                                 // "jsonrpc":"2.0" seen
  bool has_v1_version_ = false;                              // "jsonrpc":"1.0" (bitcoind) seen
  bool has_id_ = false;                                      // "id" seen
  bool error_null_ = false;                                  // "error": null (JSON-RPC 1.0)
  std::int64_t error_code_ = 0;                              // error.code
  bool has_error_code_ = false, has_error_message_ = false;  // error members seen
  bool error_code_foreign_ = false;  // error.code is no integer (JSON-RPC 1.0 only: code 0)
  bool error_text_ = false;          // "error" is a string (JSON-RPC 1.0 only: the message)
};

static_assert(JsonSink<JsonDecoder>);

}  // namespace sb::rpc
