// The user's own messages (`soapbench compare PATH...`, `parse_bench --corpus=DIR` without a
// manifest): files and folders, gzip inflated, each sniffed for XML or JSON, with a folder's
// manifest.json read when it has one (a corpus or a recorded folder, docs/corpus.md). Whatever
// cannot be compared is named in one line and the rest goes on.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "harness/corpus.h"

namespace sb {

// One message to compare.
struct MessageFile {
  std::string label;           // its name in output and benchmark names: "recorded/0001.call.xml"
  std::filesystem::path path;  // where it is
  std::string bytes;           // its content, inflated
  CorpusEntry entry;           // what its folder's manifest says (or path, format, bytes only)
};

struct MessageScanOptions {
  std::size_t max_files = 100;            // more are sampled evenly in path order; 0: no bound
  std::uint64_t max_bytes = 64ull << 20;  // larger files (inflated) are refused by size
  bool read = true;                       // false: list only (names and formats, no bytes kept)
};

struct MessageScan {
  std::vector<MessageFile> files;    // in the order named, folders in path order
  std::vector<std::string> skipped;  // one line each: "PATH: why"
};

// The messages under `paths` (files or folders). A folder with a manifest.json takes its entries
// (hostile ones left out); without one, its *.xml, *.json and *.gz files, recursively.
MessageScan scan_messages(const std::vector<std::string>& paths, const MessageScanOptions& options);

// "xml", "json", or "" with `why` set (empty, binary, neither) for the first bytes of a message.
std::string_view sniff_format(std::string_view bytes, std::string* why);

// A folder's messages as corpus entries (no manifest): for Corpus::load of a folder without one.
std::vector<CorpusEntry> entries_of_folder(const std::filesystem::path& dir,
                                           std::vector<std::string>& skipped);

}  // namespace sb
