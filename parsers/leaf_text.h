// The text some DOM libraries leave out of an element, read back from the message's bytes at the
// decode level (docs/architecture.md, "Text a library drops"). RapidXML 1.13 (every mode),
// tinyxml2 9 and Qt 6.4's QDomDocument drop whitespace-only character data (<string>   </string>
// reads as ""), and none of them has an option to keep it (tinyxml2's PEDANTIC_WHITESPACE and Qt's
// PreserveSpacingOnlyNodes came in later releases); RapidXML's parse_fastest also skips CDATA
// sections and keeps only an element's first text run. The walk level does not need that text
// (the Digest drops whitespace-only runs; a fastest mode is digest-exempt), so the library's parse
// stays as it is; the decode level delivers the text a message holds, so these adapters find the
// leaf elements (no child elements) whose text their library loses and restore it there
// (LeafTextSink), before the library parses (an in-situ parse rewrites the bytes).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/events.h"
#include "parsers/adapter.h"

namespace sb {

class LeafTexts {
 public:
  // One leaf element whose text is restored.
  struct Leaf {
    std::size_t element;     // its place among the message's elements, 0-based, document order
    std::size_t begin, end;  // its whole text, in text_
  };

  // Reads `xml` for the leaf elements whose text a library that loses `loss` would not deliver
  // whole, and keeps a copy of that text. False when there is none: the usual case, settled by
  // one pass over the '<' bytes (comments, CDATA and processing instructions, which make the
  // answer less plain, send the message to a full pass).
  bool find(std::string_view xml, TextLoss loss);

  std::span<const Leaf> leaves() const { return leaves_; }
  std::string_view text(const Leaf& leaf) const {
    return std::string_view(text_).substr(leaf.begin, leaf.end - leaf.begin);
  }

 private:
  // A piece of an element's content: a run of character data or a CDATA section's content.
  struct Piece {
    bool cdata;             // a CDATA section (else character data)
    std::string_view text;  // as written
  };

  // The full pass: every element numbered, each leaf's content read.
  void scan(std::string_view xml, TextLoss loss);
  // Records leaf `element` (its content in pieces_) when the library loses some of its text.
  void settle(std::size_t element, TextLoss loss);
  // Appends character data, references decoded when `decode`, line ends normalised (XML 1.0
  // section 2.11); false on a reference it does not know.
  bool append_text(std::string_view run, bool decode);

  std::vector<Leaf> leaves_;   // in document order
  std::string text_;           // their texts, one after another
  std::vector<Piece> pieces_;  // the content of the leaf being read
};

// Forwards every event to `sink`, replacing the text of the leaves LeafTexts found (what the
// library delivered of it, if anything, is dropped) by their whole text. Should the library's
// elements not match the scan's (a leaf with a child), it stops with error() set.
template <class Sink>
class LeafTextSink {
 public:
  LeafTextSink(Sink& sink, const LeafTexts& texts) : sink_(sink), texts_(texts) {}

  bool start_element(std::string_view qname, XmlAttributes attributes) {
    if (replacing_) return lost_place();
    const std::span<const LeafTexts::Leaf> leaves = texts_.leaves();
    replacing_ = next_ < leaves.size() && leaves[next_].element == elements_;
    ++elements_;
    return sink_.start_element(qname, attributes);
  }
  bool text(std::string_view chars) { return replacing_ || sink_.text(chars); }
  bool end_element(std::string_view qname) {
    if (replacing_) {
      replacing_ = false;
      if (!sink_.text(texts_.text(texts_.leaves()[next_++]))) return false;
    }
    return sink_.end_element(qname);
  }

  // Why the restore stopped the parse, or "".
  const std::string& error() const { return error_; }

 private:
  bool lost_place() {
    error_ =
        "the text this library drops could not be restored: its elements differ from the "
        "message's";
    return false;
  }

  Sink& sink_;                // the decoder
  const LeafTexts& texts_;    // what to restore
  std::size_t elements_ = 0;  // start_element events so far
  std::size_t next_ = 0;      // the next leaf to restore
  bool replacing_ = false;    // inside a leaf being restored
  std::string error_;         // see error()
};

}  // namespace sb
