// libxml2's own serializer behind rpc::XmlWriter (parsers/writers.h): xmlTextWriter, the streaming
// writer (no tree is built), writing into an xmlBuffer that is reused across messages.
#include <libxml/parser.h>
#include <libxml/xmlwriter.h>

#include <string>

#include "parsers/adapters.h"
#include "parsers/library_xml_writer.h"
#include "parsers/writers.h"

namespace sb {
namespace {

class Libxml2Writer final : public LibraryXmlWriter {
 public:
  Libxml2Writer() : buffer_(xmlBufferCreate()) {
    xmlInitParser();  // idempotent; the writer uses libxml2's global encoding tables
    reset();
  }
  ~Libxml2Writer() override {
    if (writer_ != nullptr) xmlFreeTextWriter(writer_);
    if (buffer_ != nullptr) xmlBufferFree(buffer_);
  }
  Libxml2Writer(const Libxml2Writer&) = delete;
  Libxml2Writer& operator=(const Libxml2Writer&) = delete;

  void reset() override {
    error_.clear();
    depth_ = 0;
    // An xmlTextWriter cannot be restarted: a new one per message, over the same buffer.
    if (writer_ != nullptr) xmlFreeTextWriter(writer_);
    writer_ = nullptr;
    if (buffer_ == nullptr) return fail("libxml2: xmlBufferCreate failed");
    xmlBufferEmpty(buffer_);
    writer_ = xmlNewTextWriterMemory(buffer_, 0);
    if (writer_ == nullptr) return fail("libxml2: xmlNewTextWriterMemory failed");
    // NULL encoding: the documented default (UTF-8), written without a conversion pass.
    ok(xmlTextWriterStartDocument(writer_, "1.0", nullptr, nullptr), "xmlTextWriterStartDocument");
  }

  void start_element(std::string_view qname) override {
    if (!error_.empty()) return;
    name_.assign(qname);  // libxml2 takes NUL-terminated strings
    ok(xmlTextWriterStartElement(writer_, xml(name_)), "xmlTextWriterStartElement");
    ++depth_;
  }

  void attribute(std::string_view qname, std::string_view value) override {
    if (!error_.empty() || !check(value)) return;
    name_.assign(qname);
    value_.assign(value);
    ok(xmlTextWriterWriteAttribute(writer_, xml(name_), xml(value_)),
       "xmlTextWriterWriteAttribute");
  }

  void text(std::string_view chars) override {
    if (!error_.empty() || chars.empty() || !check(chars)) return;
    value_.assign(chars);
    ok(xmlTextWriterWriteString(writer_, xml(value_)), "xmlTextWriterWriteString");
  }

  void end_element() override {
    if (!can_close(depth_ != 0)) return;
    ok(xmlTextWriterEndElement(writer_), "xmlTextWriterEndElement");
    --depth_;
  }

  bool finish(std::string& out) override {
    if (!can_finish(depth_ != 0)) return false;
    ok(xmlTextWriterEndDocument(writer_), "xmlTextWriterEndDocument");
    ok(xmlTextWriterFlush(writer_), "xmlTextWriterFlush");
    if (!error_.empty()) return false;
    out.assign(reinterpret_cast<const char*>(xmlBufferContent(buffer_)),
               static_cast<std::size_t>(xmlBufferLength(buffer_)));
    return true;
  }

 private:
  // libxml2's view of a NUL-terminated std::string.
  static const xmlChar* xml(const std::string& s) {
    return reinterpret_cast<const xmlChar*>(s.c_str());
  }

  // Records a failure when a libxml2 call returned < 0.
  void ok(int rc, const char* call) {
    if (rc < 0) fail(std::string("libxml2: ") + call + " failed");
  }

  xmlBufferPtr buffer_ = nullptr;      // output, reused across messages
  xmlTextWriterPtr writer_ = nullptr;  // the writer of the current message
  std::size_t depth_ = 0;              // open elements
  std::string name_;                   // NUL-terminated copy of a name
  std::string value_;                  // NUL-terminated copy of text or an attribute value
};

std::unique_ptr<rpc::XmlWriter> make_libxml2_writer() { return std::make_unique<Libxml2Writer>(); }

}  // namespace

// The row of the writer table (parsers/writers.h). libxml2: xmlTextWriter (streaming, no tree) into
// an xmlBuffer reused across messages; xmlTextWriterStartDocument("1.0", NULL encoding: UTF-8
// without a conversion pass).
const WriterInfo& libxml2_writer_info() {
  static const WriterInfo info{
      .name = "libxml2",
      .library = "libxml2",
      .writer = "xmlTextWriter into an xmlBuffer",
      .notes = "new xmlTextWriter per message over a reused xmlBuffer",
      .make_xml = &make_libxml2_writer,
      .make_json = nullptr,
  };
  return info;
}

}  // namespace sb
