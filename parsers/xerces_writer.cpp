// Xerces-C++'s own serializer behind rpc::XmlWriter (parsers/writers.h): the encoder's events build
// a DOMDocument (DOM Level 1 nodes: qnames and xmlns attributes as written, which is exactly what
// the encoder means), and DOMLSSerializer writes it as UTF-8 into a MemBufFormatTarget.
#include <xercesc/dom/DOM.hpp>
#include <xercesc/framework/MemBufFormatTarget.hpp>
#include <xercesc/util/OutOfMemoryException.hpp>
#include <xercesc/util/PlatformUtils.hpp>
#include <xercesc/util/TransService.hpp>
#include <xercesc/util/XMLString.hpp>
#include <xercesc/util/XMLUni.hpp>

#include <memory>
#include <string>
#include <vector>

#include "parsers/adapters.h"
#include "parsers/library_xml_writer.h"
#include "parsers/writers.h"

namespace sb {
namespace {

namespace x = xercesc;

// Xerces counts Initialize() calls; this one is never matched by Terminate() (process lifetime),
// like the adapters' own initialization, so their order does not matter.
void initialize_once() {
  static const bool done = [] {
    x::XMLPlatformUtils::Initialize();
    return true;
  }();
  (void)done;
}

// Initializes Xerces before the members declared after it (MemBufFormatTarget needs its memory
// manager) are constructed.
struct InitToken {
  InitToken() { initialize_once(); }
};

class XercesWriter final : public LibraryXmlWriter {
 public:
  XercesWriter() {
    static const XMLCh kLS[] = {x::chLatin_L, x::chLatin_S, x::chNull};
    impl_ = x::DOMImplementationRegistry::getDOMImplementation(kLS);
    serializer_ = impl_->createLSSerializer();
    output_ = impl_->createLSOutput();
    output_->setByteStream(&target_);
    output_->setEncoding(x::XMLUni::fgUTF8EncodingString);  // UTF-8 out, whatever the locale
    x::XMLTransService::Codes result;
    transcoder_.reset(x::XMLPlatformUtils::fgTransService->makeNewTranscoderFor(
        x::XMLRecognizer::UTF_8, result, 16 * 1024));
  }
  ~XercesWriter() override {
    release_document();
    output_->release();
    serializer_->release();
  }
  XercesWriter(const XercesWriter&) = delete;
  XercesWriter& operator=(const XercesWriter&) = delete;

  void reset() override {
    release_document();
    error_.clear();
    if (!transcoder_) return fail("xerces: no UTF-8 transcoder");
    guarded([&] { doc_ = impl_->createDocument(); });
  }

  void start_element(std::string_view qname) override {
    if (!error_.empty()) return;
    guarded([&] {
      x::DOMElement* e = doc_->createElement(utf16(qname, name16_));
      if (cur_ == nullptr) {
        doc_->appendChild(e);
      } else {
        cur_->appendChild(e);
      }
      cur_ = e;
    });
  }

  void attribute(std::string_view qname, std::string_view value) override {
    if (!error_.empty() || !check(value)) return;
    if (cur_ == nullptr) return fail("attribute() outside an element");
    guarded([&] { cur_->setAttribute(utf16(qname, name16_), utf16(value, value16_)); });
  }

  void text(std::string_view chars) override {
    if (!error_.empty() || chars.empty() || !check(chars)) return;
    if (cur_ == nullptr) return fail("text() outside an element");
    guarded([&] { cur_->appendChild(doc_->createTextNode(utf16(chars, value16_))); });
  }

  void end_element() override {
    if (!can_close(cur_ != nullptr)) return;
    x::DOMNode* parent = cur_->getParentNode();
    cur_ = parent != nullptr && parent->getNodeType() == x::DOMNode::ELEMENT_NODE
               ? static_cast<x::DOMElement*>(parent)
               : nullptr;
  }

  bool finish(std::string& out) override {
    if (!can_finish(cur_ != nullptr)) return false;
    target_.reset();
    bool written = false;
    guarded([&] { written = serializer_->write(doc_, output_); });
    if (error_.empty() && !written) fail("xerces: DOMLSSerializer::write failed");
    if (!error_.empty()) return false;
    out.assign(reinterpret_cast<const char*>(target_.getRawBuffer()), target_.getLen());
    release_document();
    return true;
  }

 private:
  // UTF-8 s as a NUL-terminated UTF-16 string in buf, with Xerces' UTF-8 transcoder (never
  // XMLString::transcode, which uses the local code page). s was validated: it converts fully.
  const XMLCh* utf16(std::string_view s, std::vector<XMLCh>& buf) {
    // A UTF-8 byte yields at most one UTF-16 unit (4 bytes -> a surrogate pair).
    buf.resize(s.size() + 1);
    sizes_.resize(s.size() + 1);
    XMLSize_t eaten = 0;
    XMLSize_t produced = 0;
    while (eaten < s.size()) {
      XMLSize_t bytes = 0;
      produced += transcoder_->transcodeFrom(reinterpret_cast<const XMLByte*>(s.data()) + eaten,
                                             s.size() - eaten, buf.data() + produced,
                                             s.size() - produced, bytes, sizes_.data());
      if (bytes == 0) break;  // cannot happen for validated UTF-8; avoids a loop
      eaten += bytes;
    }
    buf[produced] = 0;
    return buf.data();
  }

  // Runs one Xerces call, turning its exceptions into the recorded error.
  template <class F>
  void guarded(F&& call) {
    try {
      call();
    } catch (const x::DOMException& e) {
      fail("xerces: DOMException " + std::to_string(e.code));
    } catch (const x::OutOfMemoryException&) {
      fail("xerces: out of memory");
    } catch (const x::XMLException& e) {
      fail("xerces: XMLException at " + std::string(e.getSrcFile()) + ":" +
           std::to_string(e.getSrcLine()));
    }
  }

  // Frees the current DOMDocument (and every node in it).
  void release_document() {
    if (doc_ != nullptr) doc_->release();
    doc_ = nullptr;
    cur_ = nullptr;
  }

  InitToken init_;                                // first member: Xerces is up before the rest
  x::DOMImplementation* impl_ = nullptr;          // the "LS" implementation (owned by Xerces)
  x::DOMLSSerializer* serializer_ = nullptr;      // reused across messages
  x::DOMLSOutput* output_ = nullptr;              // UTF-8 into target_
  x::MemBufFormatTarget target_;                  // serialized bytes, reset per message
  std::unique_ptr<x::XMLTranscoder> transcoder_;  // UTF-8 -> UTF-16
  x::DOMDocument* doc_ = nullptr;                 // the message being built
  x::DOMElement* cur_ = nullptr;                  // innermost open element, nullptr at the top
  std::vector<XMLCh> name16_;                     // UTF-16 qname
  std::vector<XMLCh> value16_;                    // UTF-16 text or attribute value
  std::vector<unsigned char> sizes_;              // transcoder's per-character byte counts
};

std::unique_ptr<rpc::XmlWriter> make_xerces_writer() { return std::make_unique<XercesWriter>(); }

}  // namespace

// The row of the writer table (parsers/writers.h). Xerces-C++: a DOMDocument (DOM Level 1 nodes,
// qnames as written) serialized by DOMLSSerializer to a MemBufFormatTarget as UTF-8; input is
// transcoded UTF-8 -> UTF-16 with Xerces' UTF-8 transcoder (never the local code page).
const WriterInfo& xerces_writer_info() {
  static const WriterInfo info{
      .name = "xerces",
      .library = "Xerces-C++",
      .writer = "DOMDocument + DOMLSSerializer -> MemBufFormatTarget (UTF-8)",
      .notes = "new DOMDocument per message; serializer, output and transcoder reused",
      .make_xml = &make_xerces_writer,
      .make_json = nullptr,
  };
  return info;
}

}  // namespace sb
