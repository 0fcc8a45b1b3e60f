#include "parsers/libxml2_common.h"

#include <libxml/globals.h>

#include <cstdlib>

namespace sb::libxml2 {
namespace {

// Receives libxml2's context-less messages (e.g. encoding conversion failures) and drops them.
void silent_generic_error(void*, const char*, ...) {}

}  // namespace

void ensure_ready() {
  // xmlInitParser is not safe to race on first use; a function-local static serialises it.
  static const bool initialised = [] {
    xmlInitParser();
    return true;
  }();
  (void)initialised;
  // The generic error channel is per thread in libxml2; errors raised with a parser context
  // go to the context's structured handler instead (set by each adapter).
  thread_local bool silenced = false;
  if (!silenced) {
    xmlSetGenericErrorFunc(nullptr, &silent_generic_error);
    silenced = true;
  }
}

std::string version() {
  ensure_ready();  // xmlParserVersion is a per-thread global behind a function in libxml2
  // xmlParserVersion is the run-time library's "MMmmpp" string (LIBXML_VERSION_STRING).
  const long v = std::strtol(xmlParserVersion, nullptr, 10);
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
         std::to_string(v % 100);
}

void ErrorCapture::record(const xmlError* e) {
  if (has_error_ || e == nullptr || e->level < XML_ERR_ERROR) return;
  has_error_ = true;
  code_ = e->code;
  message_ = e->message != nullptr ? e->message : "libxml2 error " + std::to_string(e->code);
  while (!message_.empty() && (message_.back() == '\n' || message_.back() == ' ')) {
    message_.pop_back();
  }
  line_ = e->line;
  column_ = e->int2;  // the column, for parser errors
}

Status ErrorCapture::failure(const xmlError* fallback) const {
  if (!has_error_ && fallback != nullptr && fallback->code != XML_ERR_OK) {
    ErrorCapture last;
    last.record(fallback);
    if (last.has_error_) return last.failure(nullptr);
  }
  if (!has_error_) return Status::malformed("libxml2: document is not well-formed");
  Location at;
  if (line_ > 0) at.line = line_;
  if (column_ > 0) at.column = column_;
  // libxml2 has no dedicated code for its depth limit (xmlParserMaxDepth, 256 without
  // XML_PARSE_HUGE); the pull reader, which runs ahead of the nodes it reports, meets it before
  // the adapter's own check.
  if (code_ == XML_ERR_INTERNAL_ERROR && message_.starts_with("Excessive depth in document")) {
    return Status::limit(message_, at);
  }
  return Status::malformed(message_, at);
}

Location where(xmlParserCtxtPtr ctxt) {
  Location at;
  if (ctxt != nullptr && ctxt->input != nullptr) {
    at.line = ctxt->input->line;
    at.column = ctxt->input->col;
  }
  return at;
}

}  // namespace sb::libxml2
