// XmlDecoder: the XML event sink of the `decode` level. One streaming state machine for
// XML-RPC and SOAP 1.1/1.2 in all three styles; the family is detected from the content.
// Written once against core/events.h, so every XML adapter drives the same codec.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "codecs/decode.h"
#include "codecs/value.h"
#include "core/events.h"

namespace sb::rpc {

class XmlDecoder {
 public:
  explicit XmlDecoder(const Contract& contract = service_contract(), DecodeLimits limits = {});

  // Prepares to decode one message into `out` (cleared here).
  void reset(const DecodeContext& context, Message* out);

  // Events (core/events.h). Each returns false once an error is recorded.
  bool start_element(std::string_view qname, XmlAttributes attributes);
  bool text(std::string_view chars);
  bool end_element(std::string_view qname);

  // Called after the parser finished without error: resolves multi-references and checks
  // that a whole message was seen. False on error.
  bool finish();

  const DecodeError& error() const { return error_; }
  // The family seen (valid once the operation element or XML-RPC root was read).
  Family family() const { return family_; }

 private:
  enum class Frame : std::uint8_t {
    skip,          // a subtree we ignore (SOAP Header, faultactor, unreferenced Body siblings)
    envelope,      // SOAP Envelope
    body,          // SOAP Body
    operation,     // SOAP operation element (call or response wrapper)
    value,         // SOAP value typed by the contract
    empty_value,   // SOAP nil or href value: no content allowed
    capture,       // SOAP multiRef element being recorded
    replay_root,   // SOAP: root of a multiRef replay
    fault,         // SOAP Fault
    fault_reason,  // SOAP 1.2 Reason
    fault_string,  // SOAP 1.1 faultstring / 1.2 Reason/Text
    fault_detail,  // SOAP detail / Detail
    fault_detail_entry,  // the element inside detail
    fault_detail_code,   // detail/*/code
    method_call,         // XML-RPC methodCall
    method_name,         // XML-RPC methodName
    method_response,     // XML-RPC methodResponse
    params,              // XML-RPC params
    param,               // XML-RPC param
    xvalue,              // XML-RPC value
    xscalar,             // XML-RPC typed scalar (<int>, <string>, …)
    xstruct,             // XML-RPC struct
    xmember,             // XML-RPC member
    xmember_name,        // XML-RPC member name
    xarray,              // XML-RPC array
    xdata,               // XML-RPC array data
    xfault,              // XML-RPC fault
  };

  struct FrameState {
    Frame frame;                    // what this element is
    const Type* type = nullptr;     // value / replay_root: expected type
    Value* target = nullptr;        // where the value goes
    Kind scalar = Kind::nil;        // xscalar: the type its tag names
    std::size_t bindings_mark = 0;  // bindings_ size when the element opened
    bool has_child = false;  // xvalue: typed child seen; xmember: name seen; operation: result seen
    bool response = false;   // operation: a response wrapper (OPResponse)
    std::size_t capture = 0;  // capture: index into captures_
  };

  struct Binding {
    std::string prefix;  // "" for the default namespace
    std::string uri;     // bound namespace
  };

  struct CapturedEvent {
    enum class Type : std::uint8_t { start, text, end } type;     // which event
    std::string name;                                             // qname, or the text
    std::vector<std::pair<std::string, std::string>> attributes;  // start: as written
  };

  struct Capture {
    std::vector<CapturedEvent> events;  // the multiRef element's events, in order
  };

  // Element dispatch by parent frame.
  bool open_root(std::string_view local, std::string_view uri);
  bool open_soap(FrameState& parent, std::string_view local, std::string_view uri,
                 XmlAttributes attributes);
  bool open_value(const Type* type, Value* target, XmlAttributes attributes);
  bool open_xmlrpc(FrameState& parent, std::string_view local);
  bool close_frame(FrameState& f);
  bool close_scalar(FrameState& f);
  bool close_xmlrpc_scalar(FrameState& f);

  // Namespaces.
  void push_bindings(XmlAttributes attributes);
  std::string_view resolve(std::string_view prefix) const;
  std::string_view attribute_uri(std::string_view qname, std::string_view* local) const;

  // multiRef resolution.
  bool resolve_references(Value& v, const Type& type, int depth);
  bool expand_reference(Value& v, const Type& type);

  bool fail(int code, std::string message);
  bool unexpected(std::string_view what, std::string_view where);

  const Contract& contract_;              // types literal values and finds operations
  DecodeLimits limits_;                   // reference expansion bound
  DecodeContext context_;                 // what the caller knows
  Message* out_ = nullptr;                // message being built
  DecodeError error_;                     // first error, if any
  Family family_ = Family::xmlrpc;        // detected family
  std::vector<FrameState> frames_;        // open elements
  std::vector<Binding> bindings_;         // namespace declarations in scope (a stack)
  std::string text_;                      // character data of the innermost leaf element
  bool seen_root_ = false;                // a root element was opened
  bool done_ = false;                     // the message element closed
  bool seen_operation_ = false;           // SOAP: the Body's first element was read
  bool encoded_ = false;                  // SOAP: encodingStyle or xsi:type seen
  const Operation* operation_ = nullptr;  // the operation of this message
  Value fault_value_;                     // XML-RPC: the fault struct
  std::string member_name_;               // XML-RPC: name of the member being read
  std::string fault_code_text_;           // SOAP: the fault's detail code text
  std::vector<Capture> captures_;         // SOAP: multiRef elements by id
  std::unordered_map<std::string, std::size_t> capture_index_;  // id → captures_ index
  std::vector<std::string> active_refs_;  // ids being expanded (cycle detection)
  std::size_t expansions_ = 0;            // references expanded in this message
  std::string_view qname_prefix_;         // prefix of the element being opened (valid in open_*)
  bool has_references_ = false;           // SOAP: an href placeholder was created
  bool result_seen_ = false;              // XML-RPC response: its one param was read
  std::vector<const Type*> param_types_;  // SOAP call: the type of each param read, in order
  std::uint64_t params_seen_ = 0;         // SOAP call: bit i set when param i was read
};

static_assert(XmlSink<XmlDecoder>);

}  // namespace sb::rpc
