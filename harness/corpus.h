// The corpus: manifest.json entries and the message files they describe (docs/corpus.md).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/manifest_reader.h"

namespace sb {

// A manifest entry (harness/manifest_reader.h) with what benchmarks and tests ask of it.
struct CorpusEntry : ManifestEntry {
  // "<family>/<operation>[.<tag>].<direction>" (hostile: the path without extension).
  std::string name() const;
  bool in_set(std::string_view set) const;
  // True when `json` is the expected canonical JSON (compared by hash for long lines).
  bool canonical_matches(std::string_view json) const;
  // "" when canonical_matches(json), else where it differs: the first differing byte with some
  // context on both sides (or, for a manifest that keeps only a hash, the sizes).
  std::string canonical_mismatch(std::string_view json) const;
  // Whether the entry says what its message decodes to.
  bool has_canonical() const { return !canonical.empty() || !canonical_sha256.empty(); }
};

// SHA-256 of bytes, lowercase hex.
std::string sha256_hex(std::string_view bytes);

class Corpus {
 public:
  // Loads dir/manifest.json; a folder without one is a corpus of its *.xml, *.json and *.gz files
  // (harness/message_files.h: no Digest or canonical JSON, which harness/equal_work.h then
  // settles). Throws std::runtime_error naming the file and the problem.
  static Corpus load(const std::filesystem::path& dir);

  const std::filesystem::path& dir() const { return dir_; }
  const std::vector<CorpusEntry>& entries() const { return entries_; }
  // The entry whose path is `path` (relative), or nullptr.
  const CorpusEntry* find(std::string_view path) const;
  // The message bytes of an entry (inflated when stored as .gz). Throws on I/O errors.
  std::string read(const CorpusEntry& entry) const;
  // A folder without a manifest: the files it left out and why, one line each.
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  std::filesystem::path dir_;         // the corpus directory
  std::vector<CorpusEntry> entries_;  // manifest order
  std::vector<std::string> notes_;    // files left out of a folder without a manifest
};

// The corpus directory: $SOAPBENCH_CORPUS when set, else the source tree's corpus/.
std::filesystem::path default_corpus_dir();

// Reads a file, inflating it when its name ends in .gz. Throws std::runtime_error.
std::string read_message_file(const std::filesystem::path& path);

}  // namespace sb
