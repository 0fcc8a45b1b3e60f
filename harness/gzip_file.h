// A message file stored gzip-compressed (`name.xml.gz`), inflated. The one inflater of the
// message readers (harness/corpus.h, harness/message_files.h): a damaged archive is an error of
// its own, never a few inflated bytes handed on for the XML or JSON parser to blame.
#pragma once

#include <cstdint>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <string>

namespace sb {

// Thrown when the inflated content would pass the caller's bound; what() says the bound.
struct GzipOverBound : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The inflated content of `path`. Throws std::runtime_error with one line (without the path,
// which the caller names): "truncated gzip: ..." when the file ends inside its compressed
// stream, "corrupt gzip: ..." when zlib rejects it, "not gzip: ..." when the file has no gzip
// header; GzipOverBound past `max_bytes` (stopped there, not read further).
std::string inflate_gzip_file(const std::filesystem::path& path,
                              std::uint64_t max_bytes = std::numeric_limits<std::uint64_t>::max());

}  // namespace sb
