// SoapDecoder: the SOAP half of XmlDecoder (codecs/xml_decoder.h), a streaming state machine
// for SOAP 1.1/1.2 in all three styles, values typed by the contract as they arrive. XmlDecoder
// detects the envelope and forwards the events here; multi-references are SoapMultiRef's
// (docs/architecture.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "codecs/decode.h"
#include "codecs/soap_multiref.h"
#include "codecs/value.h"
#include "codecs/xml_decode_session.h"
#include "codecs/xml_namespaces.h"
#include "core/events.h"

namespace sb::rpc {

class SoapDecoder : private ElementDecoder {
 public:
  // Reports into `session`, which must outlive the decoder.
  SoapDecoder(const Contract& contract, Limits limits, XmlDecodeSession& session);

  // Prepares for a new message typed by `contract` (nullptr: the one given at construction).
  void reset(const Contract* contract = nullptr);

  // Opens the Envelope (detected by the caller; session.family names the SOAP version).
  void open_envelope(XmlAttributes attributes);
  // Events below the Envelope (core/events.h), also fed by multiRef replays; each returns
  // false once it recorded an error.
  // An element opens: recorded, skipped or decoded by its parent's frame.
  bool start_element(std::string_view qname, XmlAttributes attributes);
  // Character data (possibly in pieces) of the innermost open element.
  bool text(std::string_view chars);
  // The innermost element closes: its value or check is completed.
  bool end_element(std::string_view qname);

  // Once the Envelope closed: settles the style, checks the params, resolves multi-references.
  bool finish();

 private:
  // A multiRef element (SoapMultiRef): the open elements set aside, `events` decoded into
  // `target` as `type` through the event handlers above, the open elements restored. Replays
  // do not nest.
  bool decode_recorded(const Type& type, Value& target,
                       std::span<const RecordedEvent> events) override;

  enum class Frame : std::uint8_t {
    skip,                // a subtree we ignore (Header, faultactor, unreferenced Body siblings)
    envelope,            // Envelope
    body,                // Body
    operation,           // operation element (call or response wrapper)
    value,               // value typed by the contract
    empty_value,         // nil or href value: no content allowed
    capture,             // multiRef element being recorded
    replay_root,         // root of a multiRef replay
    fault,               // Fault
    fault_reason,        // SOAP 1.2 Reason
    fault_string,        // SOAP 1.1 faultstring / 1.2 Reason/Text
    fault_detail,        // detail / Detail
    fault_detail_entry,  // the element inside detail
    fault_detail_code,   // detail/*/code
  };

  struct FrameState {
    Frame frame;                    // what this element is
    const Type* type = nullptr;     // value / replay_root: expected type
    Value* target = nullptr;        // where the value goes
    std::size_t bindings_mark = 0;  // namespaces_ mark when the element opened
    bool has_child = false;         // operation: the result element was seen
    bool response = false;          // operation: a response wrapper (OPResponse)
    std::size_t capture = 0;        // capture: the SoapMultiRef recording
    bool keeps_id = false;          // value: carries a SOAP 1.2 enc:id (its id on pending_ids_)
    bool shaped = false;            // value: an array with declared dimensions (array_dims_)
  };

  // Opens an element below a skipped element or inside a multiRef being recorded.
  bool open_unread(const FrameState& parent, std::string_view qname, XmlAttributes attributes);
  // Opens Header (skipped) or Body.
  bool open_in_envelope(std::string_view local, std::string_view uri, XmlAttributes attributes);
  // Opens a Body child: a multiRef to record, the operation element or Fault, else skipped.
  bool open_in_body(std::string_view local, std::string_view uri, XmlAttributes attributes);
  // Opens the operation element (call, or response wrapper OPResponse) named `local`.
  bool open_operation(std::string_view local, std::string_view uri, XmlAttributes attributes);
  // Opens a param (call) or the result element (response) of the operation.
  bool open_in_operation(FrameState& parent, std::string_view local, std::string_view uri,
                         XmlAttributes attributes);
  // Opens an array item or a struct member of the value `parent`.
  bool open_in_value(FrameState& parent, std::string_view local, std::string_view uri,
                     XmlAttributes attributes);
  // Fails an element of a document/literal message whose namespace is not the one the WSDL's schema
  // gives it (`declared`, "" unqualified); true when it is.
  bool check_element_ns(std::string_view local, std::string_view uri, std::string_view declared);
  // Opens an occurrence of a repeated param or member: `slot` holds the array of occurrences
  // (made here on the first one), `type` its array type.
  bool open_occurrence(const Type& type, Value& slot, XmlAttributes attributes);
  // Opens an occurrence of the repeated member `m`, named `local`, of the struct `parent`.
  bool open_repeated_member(const Member& m, Value& parent, std::string_view local,
                            XmlAttributes attributes);
  // The type an anyType value names by its xsi:type, soapenc:arrayType (SOAP 1.1) or
  // enc:itemType / enc:arraySize / enc:nodeType (SOAP 1.2) (dynamic_type()); nullptr with the
  // error recorded when it names none we know.
  const Type* dynamic_value_type(XmlAttributes attributes);
  // The array type whose items are of the array item type named `item` (a QName as written in
  // arrayType / itemType): a built-in's, else items typed by their own xsi:type.
  const Type* array_of_named(std::string_view item);
  // An array of `item`, made once per decoder.
  const Type* array_of(const Type* item);
  // The id a Body child carries (SOAP 1.1 id, SOAP 1.2 enc:id), or "".
  std::string_view body_id(XmlAttributes attributes) const;
  // Fails an attribute of <qname> (whose declarations are in scope) with a prefix bound to no
  // namespace (Namespaces in XML 1.0 section 5).
  bool check_attribute_prefixes(std::string_view qname, XmlAttributes attributes);
  // Opens the Body element of an operation the contract does not name: typed by its values.
  bool open_dynamic_operation(std::string_view local);
  // Opens an element inside Fault, Reason, detail or the detail entry.
  bool open_in_fault(const FrameState& parent, std::string_view local, std::string_view uri);
  // Opens a child of Fault: its version's parts only, SOAP 1.2's in order.
  bool open_fault_part(std::string_view local, std::string_view uri);
  // Pushes the frame of a value typed `type` that fills `target` (href and xsi:nil included).
  bool open_value(const Type* type, Value* target, XmlAttributes attributes);
  // Finishes the element `f` just closed.
  bool close_frame(const FrameState& f, std::string_view qname);
  // Fails a value of an untyped element (`qname`) that holds only text, saying what would type
  // it; out of close_frame's path, which runs for every element.
  bool fail_untyped(std::string_view qname);
  // Fails a struct without a type (`qname`, or the response's accessors) whose members repeat a
  // name: a struct's members are distinct (SOAP 1.1 section 5.4.1), so it is no struct, and
  // nothing says it is an array. Never turned into duplicate JSON keys.
  bool check_distinct_members(const Value& v, std::string_view qname);
  // What would type a message the contract does not: its WSDL (--wsdl FILE).
  std::string what_would_type() const;
  // " (not in the contract)", or where the operation's namespace differs from the contract's.
  std::string not_in_contract() const;
  // Closes an array with declared dimensions (array_dims_.back()): every member sent, a
  // multi-dimensional one made its rows.
  bool close_shaped_array(Value& array, std::string_view qname);
  // Fails a value typed by the sender's own schema that holds only text (an enumeration, a
  // restriction: only that schema says what it is).
  bool fail_named_text(std::string_view qname);
  // Converts a scalar value's text (xml_scalar.h).
  bool close_scalar(const FrameState& f);
  // Checks the Fault's required children; takes the fault code from the detail's code text.
  bool close_fault();
  // Every required param of the call was read.
  bool check_params();

  // The envelope namespace of this message's SOAP version.
  std::string_view envelope_uri() const;
  // Whether `attributes` hold the envelope's encodingStyle.
  bool has_encoding_style(XmlAttributes attributes) const;

  const Contract& own_contract_;          // the contract when the context names none
  const Contract* contract_;              // this message's: types values, finds operations
  XmlDecodeSession& session_;             // context, output, family and error, shared
  SoapMultiRef multiref_;                 // id-carrying Body elements and their expansion
  std::vector<FrameState> frames_;        // open elements, the Envelope first
  std::vector<FrameState> parked_;        // frames_ set aside during a multiRef replay
  XmlNamespaces namespaces_;              // namespace declarations in scope
  std::string text_;                      // character data of the innermost leaf element
  bool seen_operation_ = false;           // the Body's first element was read
  bool encoded_ = false;                  // encodingStyle or xsi:type seen
  bool checks_element_ns_ = false;        // a user's WSDL's literal operation: each element's
                                          // namespace is its schema's (Member::ns, Param::ns)
  const Operation* operation_ = nullptr;  // the operation of this message
  std::string fault_code_text_;           // the fault's detail code text
  unsigned fault_parts_ = 0;              // the Fault's children seen (soap_fault.cpp's bits)
  bool encoding_declared_ = false;        // an encodingStyle names SOAP encoding (1.1 or 1.2)
  std::string_view qname_prefix_;         // prefix of the element being opened (valid in open_*)
  std::vector<const Type*> param_types_;  // call: the type of each param read, in order
  std::uint64_t params_seen_ = 0;         // call: bit i set when param i was read
  std::vector<std::pair<std::size_t, std::size_t>> repeated_at_;  // repeated param i -> params slot
  Operation dynamic_op_;            // an operation the contract does not name (anyType)
  std::string dynamic_name_;        // its name, which dynamic_op_.name views
  std::string first_accessor_;      // a dynamic response's first accessor's name
  bool dynamic_accessors_ = false;  // that response's result became a struct of accessors
  std::string foreign_uri_;         // the operation element's namespace, when the contract has an
                             // operation of that name in another namespace (never typed by it)
  std::string_view own_uri_;  // that operation's own namespace
  std::vector<std::string>
      pending_ids_;  // enc:id of the open values that carry one, innermost last
  std::vector<std::size_t> pending_dims_;             // dimensions dynamic_value_type() read
  std::vector<std::vector<std::size_t>> array_dims_;  // the open shaped arrays', innermost last
  std::deque<Type> item_arrays_;  // arrays of a built-in item type other than the six
};

}  // namespace sb::rpc
