// pugixml's own serializer behind rpc::XmlWriter (parsers/writers.h): the encoder's events build a
// pugi::xml_document, which xml_document::save writes with format_raw (no indentation).
#include <pugixml.hpp>

#include <string>

#include "parsers/adapters.h"
#include "parsers/library_xml_writer.h"
#include "parsers/writers.h"

namespace sb {
namespace {

// Appends what pugixml saves to a std::string (pugixml writes in chunks through xml_writer).
class StringSink final : public pugi::xml_writer {
 public:
  // Receives one chunk of the serialized document.
  void write(const void* data, size_t size) override {
    out->append(static_cast<const char*>(data), size);
  }

  std::string* out = nullptr;  // the document being filled by save()
};

class PugixmlWriter final : public LibraryXmlWriter {
 public:
  PugixmlWriter() { reset(); }

  void reset() override {
    doc_.reset();  // frees the nodes, keeps nothing of the previous message
    cur_ = doc_;
    depth_ = 0;
    error_.clear();
  }

  void start_element(std::string_view qname) override {
    if (!error_.empty()) return;
    name_.assign(qname);  // pugixml's setters take NUL-terminated names; it copies them
    cur_ = cur_.append_child(name_.c_str());
    ++depth_;
    if (!cur_) fail("pugixml: append_child failed");
  }

  void attribute(std::string_view qname, std::string_view value) override {
    if (!error_.empty() || !check(value)) return;
    name_.assign(qname);
    if (!cur_.append_attribute(name_.c_str()).set_value(value.data(), value.size())) {
      fail("pugixml: append_attribute failed");
    }
  }

  void text(std::string_view chars) override {
    if (!error_.empty() || chars.empty() || !check(chars)) return;
    // pugixml escapes & < > in PCDATA but writes CR raw, which every parser reads back as LF.
    if (chars.find('\r') != std::string_view::npos) {
      return fail("pugixml writes CR in text unescaped (parsers read it back as LF); refused");
    }
    if (!cur_.append_child(pugi::node_pcdata).set_value(chars.data(), chars.size())) {
      fail("pugixml: appending text failed");
    }
  }

  void end_element() override {
    if (!can_close(depth_ != 0)) return;
    cur_ = cur_.parent();
    --depth_;
  }

  bool finish(std::string& out) override {
    if (!can_finish(depth_ != 0)) return false;
    out.clear();
    sink_.out = &out;
    doc_.save(sink_, PUGIXML_TEXT(""), pugi::format_raw, pugi::encoding_utf8);
    return true;
  }

 private:
  pugi::xml_document doc_;  // the tree of the message being written
  pugi::xml_node cur_;      // the innermost open element (the document node at depth 0)
  std::size_t depth_ = 0;   // open elements
  std::string name_;        // NUL-terminated copy of a name for pugixml's setters
  StringSink sink_;         // save() target
};

std::unique_ptr<rpc::XmlWriter> make_pugixml_writer() { return std::make_unique<PugixmlWriter>(); }

}  // namespace

// The row of the writer table (parsers/writers.h). pugixml: builds a pugi::xml_document, saved with
// format_raw through a pugi::xml_writer that appends to a std::string. The document is reset (not
// reallocated) per message. pugixml writes CR in text raw (a parser reads it back as LF), so text
// holding CR is refused.
const WriterInfo& pugixml_writer_info() {
  static const WriterInfo info{
      .name = "pugixml",
      .library = "pugixml",
      .writer = "xml_document + save(format_raw)",
      .notes = "document reset per message; refuses CR in text (written raw, read back as LF)",
      .make_xml = &make_pugixml_writer,
      .make_json = nullptr,
  };
  return info;
}

}  // namespace sb
