// Shared pieces of the Xerces-C++ adapters (xerces_dom.cpp, xerces_sax2.cpp): process-wide
// initialization, UTF-16 -> UTF-8 transcoding, error recording and the unwinding used to stop
// the scanner. Included only by those two files.
#pragma once

#include <xercesc/framework/MemBufInputSource.hpp>
#include <xercesc/sax/ErrorHandler.hpp>
#include <xercesc/sax/SAXParseException.hpp>
#include <xercesc/util/TransService.hpp>
#include <xercesc/util/XMLString.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/events.h"
#include "core/message_buffer.h"
#include "core/status.h"

namespace sb::xerces {

// Calls XMLPlatformUtils::Initialize() once per process; thread-safe. Adapters call it before
// creating any Xerces object (through InitToken, their first member).
void ensure_initialized();

// A member that initializes Xerces before the members declared after it are constructed.
struct InitToken {
  InitToken() { ensure_initialized(); }
};

// "3.2.4": gXercesFullVersionStr with '_' turned into '.'.
std::string version();

// True when the prolog (after a BOM, the XML declaration, comments, PIs and white space) holds a
// DOCTYPE. SAX2 reports startDTD only for a DOCTYPE with a subset, so `<!DOCTYPE a>` is caught
// here. Byte-oriented encodings only; Xerces rejects UTF-16 input the decoder cannot use anyway.
bool prolog_has_doctype(std::string_view xml);

// Thrown by our handlers to leave Xerces' scanner (SAX2 has no stop call); the thrower has
// stored the reason in the adapter's Status first. Xerces rethrows foreign exceptions after
// resetting its reader stack, so the parser stays reusable.
struct Abort {};

// Converts Xerces' UTF-16 strings to UTF-8 with one XMLTranscoder made for UTF-8 (not
// XMLString::transcode, which uses the local code page). Output goes into caller-owned
// std::string scratch buffers that only ever grow, so the steady state allocates nothing.
class Utf8Transcoder {
 public:
  Utf8Transcoder();
  ~Utf8Transcoder();
  Utf8Transcoder(const Utf8Transcoder&) = delete;
  Utf8Transcoder& operator=(const Utf8Transcoder&) = delete;

  // UTF-8 of s[0, n) written into scratch; the view is valid until scratch is next written.
  std::string_view convert(const XMLCh* s, XMLSize_t n, std::string& scratch);
  // The same for a NUL-terminated string.
  std::string_view convert(const XMLCh* s, std::string& scratch) {
    return convert(s, xercesc::XMLString::stringLen(s), scratch);
  }

 private:
  std::unique_ptr<xercesc::XMLTranscoder> transcoder_;  // Xerces' UTF-8 transcoder, reused
};

// Reusable UTF-8 copies of one element's attributes, handed to the sink as XmlAttributes.
class AttributeScratch {
 public:
  // Forgets the previous element's attributes (keeps every buffer's capacity).
  void clear() { count_ = 0; }
  // Adds one attribute, transcoding name and value into this object's buffers.
  void add(Utf8Transcoder& utf8, const XMLCh* qname, const XMLCh* value);
  // Views of the attributes added since clear(); valid until the next clear()/add(). Built
  // here, after the last add: growing names_/values_ moves the strings (and SSO bytes).
  XmlAttributes views();

 private:
  std::vector<std::string> names_;   // UTF-8 qnames (buffers, longer than the text)
  std::vector<std::string> values_;  // UTF-8 values (buffers, longer than the text)
  std::vector<XmlAttribute> views_;  // first: the lengths only (data null); then the views
  std::size_t count_ = 0;            // attributes of the current element
};

// Qualified names of the open elements (UTF-8), so that end tags need no second transcoding.
class NameStack {
 public:
  // Stores the UTF-8 name of the element opened at depth (1-based) and returns a view of it.
  std::string_view push(Utf8Transcoder& utf8, std::size_t depth, const XMLCh* qname);
  // The name stored for depth.
  std::string_view at(std::size_t depth) const { return {names_[depth].data(), lengths_[depth]}; }

 private:
  std::vector<std::string> names_;    // names_[depth]: buffer holding the name's bytes
  std::vector<std::size_t> lengths_;  // lengths_[depth]: the name's length in names_[depth]
};

// Records the first error Xerces reports and stops the scan by throwing Abort. Warnings are
// ignored; error() (recoverable in XML terms, rare with validation off) counts as malformed like
// fatalError(). Nothing is printed: with a handler installed Xerces reports only through it.
class ErrorRecorder final : public xercesc::ErrorHandler {
 public:
  // status receives the failure; utf8 converts Xerces' message.
  ErrorRecorder(Status& status, Utf8Transcoder& utf8) : status_(status), utf8_(utf8) {}

  void warning(const xercesc::SAXParseException&) override {}
  void error(const xercesc::SAXParseException& e) override { record(e); }
  void fatalError(const xercesc::SAXParseException& e) override { record(e); }
  void resetErrors() override {}

 private:
  [[noreturn]] void record(const xercesc::SAXParseException& e);

  Status& status_;        // the adapter's failure slot
  Utf8Transcoder& utf8_;  // the adapter's transcoder
  std::string scratch_;   // message buffer
};

// One MemBufInputSource reused for every message: it reads the MessageBuffer in place
// (adoptBuffer=false, copyBufToStream=false), and Xerces auto-detects the encoding as usual.
class MessageSource {
 public:
  MessageSource();
  // Points the source at message's bytes.
  const xercesc::InputSource& over(const MessageBuffer& message);

 private:
  xercesc::MemBufInputSource source_;  // reset per message; its system id is set once
};

// Runs parse_call (one Xerces parse) and turns every way it can end into a Status: our Abort
// (status already stored), Xerces exceptions, or anything else. Never throws.
template <class F>
Status run_guarded(Status& status, Utf8Transcoder& utf8, F&& parse_call);

// Implementation detail of run_guarded: Status for an exception that escaped the parser.
Status from_current_exception(Utf8Transcoder& utf8);

template <class F>
Status run_guarded(Status& status, Utf8Transcoder& utf8, F&& parse_call) {
  status = Status::success();
  try {
    parse_call();
  } catch (const Abort&) {
    return std::move(status);
  } catch (...) {
    return from_current_exception(utf8);
  }
  return std::move(status);
}

}  // namespace sb::xerces
