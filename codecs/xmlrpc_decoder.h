// XmlRpcDecoder: the XML-RPC half of XmlDecoder (codecs/xml_decoder.h), a streaming state
// machine over methodCall / methodResponse. XmlDecoder detects the family from the root
// element and forwards the events here (docs/architecture.md).
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "codecs/value.h"
#include "codecs/xml_decode_session.h"

namespace sb::rpc {

class XmlRpcDecoder {
 public:
  // Reports into `session`, which must outlive the decoder.
  explicit XmlRpcDecoder(XmlDecodeSession& session) : session_(session) {}

  // Prepares for a new message.
  void reset();

  // Opens the root element `local` (methodCall or methodResponse, checked by the caller).
  void open_root(std::string_view local);
  // Events below the root (core/events.h); each returns false once it recorded an error.
  // An element opens (its prefix, if any, is ignored: XML-RPC has no namespaces).
  bool start_element(std::string_view qname);
  // Character data (possibly in pieces) of the innermost open element.
  bool text(std::string_view chars);
  // The innermost element closes: its value or check is completed.
  bool end_element();

  // Checks, once the root closed, that the message is complete. False on error.
  bool finish();

 private:
  enum class Frame : std::uint8_t {
    method_call,      // methodCall
    method_name,      // methodName
    method_response,  // methodResponse
    params,           // params
    param,            // param
    value,            // value
    scalar,           // typed scalar (<int>, <string>, …, <nil>)
    structure,        // struct
    member,           // member
    member_name,      // member name
    array,            // array
    data,             // array data
    fault,            // fault
  };

  struct FrameState {
    Frame frame;               // what this element is
    Value* target = nullptr;   // where the value goes
    Kind scalar = Kind::nil;   // scalar: the type its tag names
    bool has_child = false;    // value: typed child seen; member: name seen; array: <data> seen;
                               // methodResponse: <params> or <fault> seen
    bool value_seen = false;   // member: its <value> was read (before or after <name>)
    bool value_first = false;  // member: ... before <name> (on early_values_ until it closes)
  };

  // Opens `local` below `parent` (dispatch by the parent's frame).
  bool open_child(FrameState& parent, std::string_view local);
  // Opens a param's <value>: a call's next param or the response's one result.
  bool open_param_value();
  // Opens the type element inside <value> (a scalar tag, struct or array).
  bool open_typed(FrameState& parent, std::string_view local);
  // Opens <name> or <value> inside <member>.
  bool open_member_child(FrameState& parent, std::string_view local);
  // Pushes a <value> frame that fills `target`.
  bool open_value(Value* target);
  // Finishes the element `f` just closed.
  bool close_frame(const FrameState& f);
  // Converts a typed scalar's text (xml_scalar.h).
  bool close_scalar(const FrameState& f);
  // Takes the fault's code and message from its struct.
  bool close_fault();

  XmlDecodeSession& session_;       // context, output and error, shared with XmlDecoder
  std::vector<FrameState> frames_;  // open elements, the root first
  std::string text_;                // character data of the innermost leaf element
  Value fault_value_;               // the fault struct
  std::string member_name_;         // name of the member being read
  std::deque<Value> early_values_;  // members' values sent before their <name>, innermost last
  bool result_seen_ = false;        // response: its one param was read
};

}  // namespace sb::rpc
