#include "parsers/reference_calls.h"

#include <string>

#if SB_HAVE_PUGIXML
#include <pugixml.hpp>
#endif
#if SB_HAVE_LIBXML2
#include "parsers/libxml2_common.h"
#endif

namespace sb {

struct ReferenceParser::Impl {
  std::string library;  // which library parse() calls
#if SB_HAVE_PUGIXML
  pugi::xml_document pugi_doc;  // reused, as in pugixml/dom
#endif
#if SB_HAVE_LIBXML2
  xmlParserCtxtPtr xml_ctxt = nullptr;  // reused, as in libxml2/dom
#endif
};

ReferenceParser::ReferenceParser(std::string_view library) : impl_(std::make_unique<Impl>()) {
  impl_->library = library;
#if SB_HAVE_LIBXML2
  if (library == "libxml2") {
    libxml2::ensure_ready();
    impl_->xml_ctxt = xmlNewParserCtxt();
  }
#endif
}

ReferenceParser::~ReferenceParser() {
#if SB_HAVE_LIBXML2
  if (impl_->xml_ctxt != nullptr) xmlFreeParserCtxt(impl_->xml_ctxt);
#endif
}

bool ReferenceParser::parse(MessageBuffer& message) {
#if SB_HAVE_PUGIXML
  if (impl_->library == "pugixml") {
    return static_cast<bool>(impl_->pugi_doc.load_buffer(
        message.data(), message.size(),
        pugi::parse_default | pugi::parse_doctype | pugi::parse_ws_pcdata_single,
        pugi::encoding_utf8));
  }
#endif
#if SB_HAVE_LIBXML2
  if (impl_->library == "libxml2") {
    xmlDocPtr doc =
        xmlCtxtReadMemory(impl_->xml_ctxt, message.data(), static_cast<int>(message.size()),
                          nullptr, nullptr, libxml2::kParseOptions);
    if (doc == nullptr) return false;
    xmlFreeDoc(doc);
    return true;
  }
#endif
  (void)message;
  return false;
}

}  // namespace sb
