// The corpus manifest (corpus/manifest.json, docs/corpus.md) read into plain records, beside the
// corpus code (corpus.h builds the corpus on them, message_files.h reads recorded folders with
// them). It reads JSON with RapidJSON: the one file outside parsers/ the layering rule lets
// include a parser library (tests/layering/check_includes.py), since the manifest is the suite's
// own data, not a message under test.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/digest.h"

namespace sb {

// One manifest entry, as written by tools/corpusgen or, for a recorded folder, by `soapbench
// record` (docs/corpus.md "Recorded folders": the same shape plus the recording's fields).
struct ManifestEntry {
  std::string path;    // relative to the corpus directory
  std::string family;  // "xmlrpc", "soap11-rpc-encoded", …, "jsonrpc"; may be empty for hostile
  Format format = Format::xml;        // xml or json
  std::string operation;              // service operation ("getRate"); empty for hostile files
  std::string direction;              // "call", "response" or "fault"
  std::string tag;                    // size or variant tag, may be empty
  std::vector<std::string> sets;      // "seed", "sweep", "variant"
  std::uint64_t size = 0;             // nominal sweep size (bytes or elements), 0 when not a sweep
  std::uint64_t bytes = 0;            // uncompressed size
  std::optional<Digest> digest;       // expected digest (non-hostile)
  std::string canonical;              // expected canonical JSON (non-hostile, up to 4096 bytes)
  std::string canonical_sha256;       // longer lines: SHA-256 of the canonical JSON, lowercase hex
  std::uint64_t canonical_bytes = 0;  // longer lines: its length
  bool hostile = false;               // a malformed or attack document
  std::string error_class;            // hostile only: what is wrong with it
  std::string note;                   // hostile only: one line
  bool format_given = true;           // "format" was written (recorded entries may leave it out)
  // A recorded exchange (soapbench record); zero / empty when the entry is not one.
  std::uint64_t exchange = 0;  // the request/response pair it belongs to, 1-based
  int status = 0;              // response: the HTTP status
  // Header values as sent (a value that is not UTF-8 is written "<name>_base64" and read back
  // as its bytes).
  std::string content_type;         // the Content-Type header as sent
  std::string soap_action;          // the SOAPAction header as sent (quotes kept)
  std::string target;               // request: the HTTP request target ("/soap")
  std::string accept_encoding;      // request: the Accept-Encoding header as sent
  std::string content_encoding;     // the body's Content-Encoding as sent ("gzip"), empty if none
  std::string encoded_path;         // with content_encoding: the bytes as sent (path: decoded)
  std::uint64_t encoded_bytes = 0;  // their size
  std::int64_t at_us = -1;          // microseconds from the recording's start to the message's end
  std::int64_t upstream_us = -1;    // response: microseconds from forwarding the request to its end
};

// The entries of a manifest's text, in order. Throws std::runtime_error naming `where` (the
// file) and the problem when the text is not a valid manifest.
std::vector<ManifestEntry> read_manifest(std::string_view text, const std::string& where);

}  // namespace sb
