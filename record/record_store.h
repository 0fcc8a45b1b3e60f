// RecordStore: what `soapbench record` keeps of each exchange it forwarded: the request and
// response bodies as files of the output folder and the folder's manifest.json, in the recorded
// folder's format (docs/corpus.md "Folders of your own messages, and recorded folders"), which
// `soapbench compare` and `soapbench load --replay` read. A body sent with a content coding
// (gzip, deflate) is kept as sent and decoded beside it; header values that are not UTF-8 are
// written in base64, so the manifest stays UTF-8 JSON. Bounded by a message count and a byte
// count; used by one thread (the writer's).
//
// On a full disk: the space the next manifest needs is reserved (allocated to its temporary
// file) before an exchange's files are written, so whatever exchange is on disk whole is in the
// manifest; an exchange whose files cannot be written is removed, and nothing more is kept.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace sb {

// One forwarded request and the upstream's answer to it, as the proxy saw them.
struct RecordedExchange {
  std::string target;                     // the request's target as the client sent it
  std::string request_body;               // as received (chunked bodies joined)
  std::string request_content_type;       // Content-Type as sent, empty when none
  std::string soap_action;                // SOAPAction as sent (quotes kept), empty when none
  std::string request_content_encoding;   // the request's Content-Encoding, empty when none
  std::string accept_encoding;            // the request's Accept-Encoding, empty when none
  std::string response_body;              // as the upstream sent it
  std::string response_content_type;      // the response's Content-Type, empty when none
  std::string response_content_encoding;  // the response's Content-Encoding, empty when none
  int status = 0;                         // the upstream's HTTP status
  std::int64_t request_at_us = 0;         // µs from the recording's start: request complete
  std::int64_t response_at_us = 0;        // µs from the recording's start: response complete
  std::int64_t upstream_us = 0;           // µs from forwarding the request to the response's end
  bool too_large = false;  // a body passed what may be kept: its copy was dropped (not stored)
};

struct RecordLimits {
  std::uint64_t max_messages = 100'000;             // request and response files kept, at most
  std::uint64_t max_bytes = 1024ull * 1024 * 1024;  // body bytes kept, at most
};

class RecordStore {
 public:
  // Records into `dir` (created; an existing one must be empty), naming `upstream` in the
  // manifest. Throws std::runtime_error naming the folder and the problem.
  RecordStore(std::filesystem::path dir, std::string upstream, RecordLimits limits);
  ~RecordStore();  // writes the manifest
  RecordStore(const RecordStore&) = delete;
  RecordStore& operator=(const RecordStore&) = delete;

  // Keeps an exchange (both bodies) unless a bound would be passed (or it is too_large, or the
  // disk has no room for its manifest entries); then keeps nothing more and full() becomes
  // true. False when it was not kept. Throws std::runtime_error when a file cannot be written:
  // the exchange's files are removed and nothing more is kept.
  bool keep(const RecordedExchange& e);
  // Rewrites manifest.json (atomically: a temporary file renamed) when something was kept since.
  void flush();
  // A bound was reached: nothing more is kept.
  bool full() const { return full_; }
  // Exchanges kept (whole on disk and in the manifest).
  std::uint64_t exchanges() const { return exchanges_; }
  // Body bytes kept (decoded copies included).
  std::uint64_t bytes() const { return bytes_; }
  // Why nothing more is kept beyond the bounds (the disk), empty when not so.
  const std::string& stopped() const { return stopped_; }
  // The output folder.
  const std::filesystem::path& dir() const { return dir_; }
  // What may be kept.
  const RecordLimits& limits() const { return limits_; }

 private:
  // Makes sure the manifest's temporary file holds `bytes` of allocated space (so that the
  // next flush() cannot run out of disk); false when the disk cannot give them.
  bool reserve(std::uint64_t bytes);
  // The manifest's text for the entries kept.
  std::string manifest_text() const;

  std::filesystem::path dir_;         // the output folder
  std::string upstream_;              // the upstream URL, for the manifest
  RecordLimits limits_;               // what may be kept
  std::vector<std::string> entries_;  // the manifest's entries, each a JSON object
  std::uint64_t entries_bytes_ = 0;   // the manifest's length, at most
  std::uint64_t reserved_ = 0;        // space allocated to the manifest's temporary file
  std::uint64_t exchanges_ = 0;       // exchanges kept
  std::uint64_t bytes_ = 0;           // body bytes kept
  std::string stopped_;               // why nothing more is kept (the disk), or empty
  bool full_ = false;                 // a bound was reached (or the disk is full)
  bool dirty_ = false;                // kept something since the last flush()
};

}  // namespace sb
