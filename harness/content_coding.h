// HTTP content codings (RFC 9110 §8.4.1) undone where a body must be read as the message it
// carries: a recorded exchange (record/record_store.cpp keeps the bytes as sent and the decoded
// body beside them) and a replayed answer (load/load_connection.cpp judges the decoded body).
// gzip (and x-gzip) and deflate (the zlib format, or a bare deflate stream as some servers send
// it), with zlib; other codings (br, zstd, several in a list) are named, not decoded.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace sb {

// A Content-Encoding value that changes nothing: empty or "identity".
bool is_identity_coding(std::string_view coding);

// `encoded` with the coding `coding` undone into `out` (its storage reused), at most `max_bytes`
// of it; false with `why` set (one line) when the coding is not one undone here, or the data is
// corrupt, truncated, or decodes to more than `max_bytes`.
bool decode_content(std::string_view encoded, std::string_view coding, std::size_t max_bytes,
                    std::string& out, std::string& why);

}  // namespace sb
