#include "parsers/xerces_common.h"

#include <xercesc/dom/DOMException.hpp>
#include <xercesc/sax/SAXException.hpp>
#include <xercesc/util/OutOfMemoryException.hpp>
#include <xercesc/util/PlatformUtils.hpp>
#include <xercesc/util/XMLException.hpp>
#include <xercesc/util/XercesVersion.hpp>

#include <algorithm>
#include <new>

namespace sb::xerces {

void ensure_initialized() {
  // A function-local static: C++ runs the initializer exactly once, even with threads.
  // XMLPlatformUtils::Terminate() is deliberately never called: adapters (and their parsers,
  // transcoders and input sources) may live in statics or on other threads until process exit,
  // Terminate frees the global state they all use, and Initialize/Terminate are not
  // thread-safe among themselves. The OS reclaims the global state at exit; it stays reachable
  // through Xerces' statics, so leak checkers do not report it.
  static const bool initialized = [] {
    xercesc::XMLPlatformUtils::Initialize();
    return true;
  }();
  (void)initialized;
}

std::string version() {
  // Xerces exposes no run-time version query: gXercesFullVersionStr ("3_2_4") is a constant
  // from the header (XercesVersion.hpp), i.e. the version compiled against.
  std::string v = ::gXercesFullVersionStr;
  std::replace(v.begin(), v.end(), '_', '.');
  return v;
}

bool prolog_has_doctype(std::string_view xml) {
  if (xml.starts_with("\xEF\xBB\xBF")) xml.remove_prefix(3);
  for (;;) {
    const std::size_t start = xml.find_first_not_of(" \t\r\n");
    if (start == std::string_view::npos) return false;
    xml.remove_prefix(start);
    std::string_view close;
    if (xml.starts_with("<?")) {
      close = "?>";
    } else if (xml.starts_with("<!--")) {
      close = "-->";
    } else {
      return xml.starts_with("<!DOCTYPE");
    }
    const std::size_t end = xml.find(close, 2);
    if (end == std::string_view::npos) return false;
    xml.remove_prefix(end + close.size());
  }
}

Utf8Transcoder::Utf8Transcoder() {
  ensure_initialized();
  xercesc::XMLTransService::Codes code = xercesc::XMLTransService::Ok;
  // The block size matters only for transcodeFrom (bytes -> UTF-16), which we never call.
  transcoder_.reset(xercesc::XMLPlatformUtils::fgTransService->makeNewTranscoderFor(
      xercesc::XMLRecognizer::UTF_8, code, 16 * 1024));
  // Xerces always has its built-in UTF-8 transcoder; without it nothing below could work.
  if (!transcoder_ || code != xercesc::XMLTransService::Ok) throw std::bad_alloc();
}

Utf8Transcoder::~Utf8Transcoder() = default;

std::string_view Utf8Transcoder::convert(const XMLCh* s, XMLSize_t n, std::string& scratch) {
  // A UTF-16 unit becomes at most 3 bytes (a surrogate pair, 2 units, becomes 4).
  const std::size_t need = 3 * static_cast<std::size_t>(n);
  if (scratch.size() < need) scratch.resize(need);  // grows only; never zero-fills in steady state
  auto* out = reinterpret_cast<XMLByte*>(scratch.data());
  std::size_t written = 0;
  XMLSize_t done = 0;
  while (done < n) {
    XMLSize_t eaten = 0;
    written += transcoder_->transcodeTo(s + done, n - done, out + written, need - written, eaten,
                                        xercesc::XMLTranscoder::UnRep_RepChar);
    if (eaten == 0) break;  // cannot happen with the size above; guards against a spin
    done += eaten;
  }
  return {scratch.data(), written};
}

void AttributeScratch::add(Utf8Transcoder& utf8, const XMLCh* qname, const XMLCh* value) {
  if (count_ == names_.size()) {
    names_.emplace_back();
    values_.emplace_back();
    views_.emplace_back();
  }
  // Only the lengths are kept now; views() makes the views once the buffers stop moving.
  views_[count_] = {std::string_view(nullptr, utf8.convert(qname, names_[count_]).size()),
                    std::string_view(nullptr, utf8.convert(value, values_[count_]).size())};
  ++count_;
}

XmlAttributes AttributeScratch::views() {
  for (std::size_t i = 0; i < count_; ++i) {
    views_[i] = {{names_[i].data(), views_[i].qname.size()},
                 {values_[i].data(), views_[i].value.size()}};
  }
  return {views_.data(), count_};
}

std::string_view NameStack::push(Utf8Transcoder& utf8, std::size_t depth, const XMLCh* qname) {
  if (names_.size() <= depth) {
    names_.resize(depth + 1);
    lengths_.resize(depth + 1);
  }
  const std::string_view name = utf8.convert(qname, names_[depth]);
  lengths_[depth] = name.size();
  return name;
}

void ErrorRecorder::record(const xercesc::SAXParseException& e) {
  const std::string_view message = utf8_.convert(e.getMessage(), scratch_);
  status_ = Status::malformed(std::string(message),
                              Location{.line = static_cast<std::int64_t>(e.getLineNumber()),
                                       .column = static_cast<std::int64_t>(e.getColumnNumber())});
  throw Abort{};
}

namespace {
// Xerces wants an XMLCh system id for messages; the text is ours and ASCII.
constexpr XMLCh kSystemId[] = {u'm', u'e', u's', u's', u'a', u'g', u'e', 0};
}  // namespace

MessageSource::MessageSource() : source_(nullptr, 0, kSystemId, /*adoptBuffer=*/false) {
  // Xerces' default copies the buffer into the stream for every parse; reading the
  // MessageBuffer in place is ours to choose (input plumbing, not a parser option).
  source_.setCopyBufToStream(false);
}

const xercesc::InputSource& MessageSource::over(const MessageBuffer& message) {
  source_.resetMemBufInputSource(reinterpret_cast<const XMLByte*>(message.data()), message.size());
  return source_;
}

Status from_current_exception(Utf8Transcoder& utf8) {
  std::string scratch;
  try {
    throw;
  } catch (const xercesc::SAXParseException& e) {
    return Status::malformed(std::string(utf8.convert(e.getMessage(), scratch)),
                             Location{.line = static_cast<std::int64_t>(e.getLineNumber()),
                                      .column = static_cast<std::int64_t>(e.getColumnNumber())});
  } catch (const xercesc::SAXException& e) {
    return Status::malformed(std::string(utf8.convert(e.getMessage(), scratch)));
  } catch (const xercesc::XMLException& e) {
    // getSrcLine() is a line of Xerces' own source, not of the document: no Location.
    return Status::malformed(std::string(utf8.convert(e.getMessage(), scratch)));
  } catch (const xercesc::DOMException& e) {
    const XMLCh* m = e.getMessage();
    return Status::malformed(m ? std::string(utf8.convert(m, scratch)) : "DOMException");
  } catch (const xercesc::OutOfMemoryException&) {
    return Status::limit("Xerces ran out of memory");
  } catch (const std::bad_alloc&) {
    return Status::limit("out of memory");
  } catch (...) {
    return Status::malformed("Xerces threw an unknown exception");
  }
}

}  // namespace sb::xerces
