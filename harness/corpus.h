// The corpus: manifest.json entries and the message files they describe (docs/corpus.md).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/digest.h"

namespace sb {

struct CorpusEntry {
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

  // "<family>/<operation>[.<tag>].<direction>" (hostile: the path without extension).
  std::string name() const;
  bool in_set(std::string_view set) const;
  // True when `json` is the expected canonical JSON (compared by hash for long lines).
  bool canonical_matches(std::string_view json) const;
};

// SHA-256 of bytes, lowercase hex.
std::string sha256_hex(std::string_view bytes);

class Corpus {
 public:
  // Loads dir/manifest.json. Throws std::runtime_error naming the file and the problem.
  static Corpus load(const std::filesystem::path& dir);

  const std::filesystem::path& dir() const { return dir_; }
  const std::vector<CorpusEntry>& entries() const { return entries_; }
  // The entry whose path is `path` (relative), or nullptr.
  const CorpusEntry* find(std::string_view path) const;
  // The message bytes of an entry (inflated when stored as .gz). Throws on I/O errors.
  std::string read(const CorpusEntry& entry) const;

 private:
  std::filesystem::path dir_;         // the corpus directory
  std::vector<CorpusEntry> entries_;  // manifest order
};

// The corpus directory: $SOAPBENCH_CORPUS when set, else the source tree's corpus/.
std::filesystem::path default_corpus_dir();

// Reads a file, inflating it when its name ends in .gz. Throws std::runtime_error.
std::string read_message_file(const std::filesystem::path& path);

}  // namespace sb
