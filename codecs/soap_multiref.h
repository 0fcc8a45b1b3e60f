// SoapMultiRef: multi-references. SOAP 1.1 (section 5): Body elements carrying an id are
// recorded as events while the message streams; at finish, every href placeholder is replaced by
// its element, decoded from its recorded events by an ElementDecoder (the SoapDecoder, which owns
// this and hands itself in: calls run one way, decoder to here). SOAP 1.2 (Part 2, 3.1.5.1):
// a value with enc:id stands where it is first serialized and is decoded there; kept here, it
// replaces the enc:ref placeholders that name it. Cycles are refused and expansions bounded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "codecs/service_contract.h"
#include "codecs/value.h"
#include "codecs/xml_decode_session.h"
#include "core/events.h"

namespace sb::rpc {

// The type of member `name` of the struct type `t` (of an anyType struct: anyType), or nullptr.
// Inline: the SOAP decoder calls it for every struct member it reads.
inline const Type* member_type(const Type& t, std::string_view name) {
  if (t.dynamic) return &dynamic_type();
  for (const Member& m : t.structure->members) {
    if (m.name == name) return m.type;
  }
  return nullptr;
}

// One recorded event of an id-carrying element.
struct RecordedEvent {
  enum class Type : std::uint8_t { start, text, end } type;     // which event
  std::string name;                                             // qname, or the text
  std::vector<std::pair<std::string, std::string>> attributes;  // start: as written
};

// What turns a recorded element into a value of a type (the SoapDecoder's event handlers).
class ElementDecoder {
 public:
  // Decodes `events` (one whole element) into `target` as `type`. False on error (reported).
  virtual bool decode_recorded(const Type& type, Value& target,
                               std::span<const RecordedEvent> events) = 0;

 protected:
  ~ElementDecoder() = default;
};

class SoapMultiRef {
 public:
  // Reports into `session`, which must outlive this; expands at most `max_expansions` hrefs.
  SoapMultiRef(XmlDecodeSession& session, std::size_t max_expansions)
      : session_(session), max_expansions_(max_expansions) {}

  // Forgets the previous message's elements.
  void reset();

  // Starts recording the element `id` (its start tag: `name` and `attributes`); returns the
  // recording's index for the record_* calls of its content.
  std::size_t begin(std::string_view id, std::string_view name, XmlAttributes attributes);
  // Records a start tag inside recording `index`, as written.
  void record_start(std::size_t index, std::string_view qname, XmlAttributes attributes);
  // Records character data inside recording `index` (pieces are joined).
  void record_text(std::size_t index, std::string_view chars);
  // Records an end tag inside recording `index`.
  void record_end(std::size_t index, std::string_view qname);

  // Keeps a copy of `value`, decoded in place from an element carrying enc:id="`id`" (SOAP 1.2),
  // for the placeholders that refer to it.
  void keep(std::string_view id, const Value& value);

  // Notes that an href placeholder (Value::reference) was created.
  void note_reference() { has_references_ = true; }
  // Replaces the href placeholders in `v`, typed `type`, by their elements decoded through
  // `decoder`. False on error (unknown id, cycle, too many expansions, a bad element).
  bool resolve(Value& v, const Type& type, ElementDecoder& decoder);

 private:
  using Event = RecordedEvent;

  struct Recording {
    std::vector<Event> events;  // the element's events, in order
  };

  // resolve() at `depth` hrefs / containers deep (bounded against chains).
  bool resolve_at(Value& v, const Type& type, int depth, ElementDecoder& decoder);
  // Replaces the placeholder `v` by its element, then resolves inside it.
  bool expand(Value& v, const Type& type, ElementDecoder& decoder);

  XmlDecodeSession& session_;                                // error, shared with XmlDecoder
  std::size_t max_expansions_;                               // Limits::max_reference_expansions
  std::vector<Recording> recordings_;                        // id-carrying elements, in order
  std::unordered_map<std::string, std::size_t> by_id_;       // id → recordings_ index
  std::vector<Value> kept_;                                  // SOAP 1.2 values decoded in place
  std::unordered_map<std::string, std::size_t> kept_by_id_;  // enc:id → kept_ index
  std::vector<std::string> active_;                          // ids being expanded (cycle detection)
  std::size_t expansions_ = 0;                               // hrefs expanded in this message
  bool has_references_ = false;                              // an href placeholder was created
};

}  // namespace sb::rpc
