// The part the library XmlWriters (pugixml, tinyxml2, libxml2, Xerces-C++) share: the first
// error since reset(), the refusal of text XML 1.0 cannot carry (codecs/xml_writer.h's check
// and wording), and the checks before closing an element or the document. Included only by
// those writers' files.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "codecs/xml_writer.h"

namespace sb {

// An rpc::XmlWriter with the error slot every library writer keeps. Its helpers are inline and
// non-virtual: a writer pays no more per call than with its own copy.
class LibraryXmlWriter : public rpc::XmlWriter {
 public:
  std::string_view error() const override { return error_; }

 protected:
  // False (and the error recorded) when s holds text XML 1.0 cannot carry.
  bool check(std::string_view s) {
    const std::size_t bad = rpc::find_xml_unsafe(s);
    if (bad == std::string_view::npos) return true;
    fail(rpc::describe_xml_unsafe(s, bad));
    return false;
  }

  // end_element()'s precondition: true when no call failed and an element is open; else false,
  // recording why.
  bool can_close(bool element_open) {
    if (!error_.empty()) return false;
    if (!element_open) fail("end_element() without an open element");
    return element_open;
  }

  // finish()'s precondition: true when no call failed and no element is left open; else false,
  // recording why.
  bool can_finish(bool elements_open) {
    if (error_.empty() && elements_open) fail("finish() with elements still open");
    return error_.empty();
  }

  // Records the first error.
  void fail(std::string reason) {
    if (error_.empty()) error_ = std::move(reason);
  }

  std::string error_;  // first failure since reset()
};

}  // namespace sb
