#include "harness/content_coding.h"

#include <zlib.h>

#include <algorithm>
#include <cctype>

namespace sb {

namespace {

bool same(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Inflates `in` with zlib's window bits `bits` (16+15: gzip; 15: zlib; -15: raw deflate).
bool inflate_with(std::string_view in, int bits, std::size_t max_bytes, std::string& out,
                  std::string& why) {
  z_stream z{};
  if (inflateInit2(&z, bits) != Z_OK) {
    why = "zlib: cannot start inflating";
    return false;
  }
  out.clear();
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  int rc = Z_OK;
  char buf[64 * 1024];
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    const std::size_t n = sizeof buf - z.avail_out;
    if (out.size() + n > max_bytes) {
      inflateEnd(&z);
      why = "decodes to more than " + std::to_string(max_bytes) + " bytes";
      return false;
    }
    out.append(buf, n);
    if (rc == Z_BUF_ERROR && z.avail_in == 0) break;  // the input ended before the stream
  }
  const bool whole = rc == Z_STREAM_END;
  const std::string message = z.msg != nullptr ? z.msg : "";
  const bool trailing = z.avail_in != 0;
  inflateEnd(&z);
  if (whole && !trailing) return true;
  why = !message.empty() ? message
        : whole          ? "bytes after the end of the compressed data"
                         : "truncated (the compressed data ends early)";
  return false;
}

}  // namespace

bool is_identity_coding(std::string_view coding) {
  coding = trim(coding);
  return coding.empty() || same(coding, "identity");
}

bool decode_content(std::string_view encoded, std::string_view coding, std::size_t max_bytes,
                    std::string& out, std::string& why) {
  const std::string_view c = trim(coding);
  if (is_identity_coding(c)) {
    if (encoded.size() > max_bytes) {
      why = "more than " + std::to_string(max_bytes) + " bytes";
      return false;
    }
    out.assign(encoded);
    return true;
  }
  if (same(c, "gzip") || same(c, "x-gzip")) {
    if (!inflate_with(encoded, 16 + MAX_WBITS, max_bytes, out, why)) {
      why = "gzip: " + why;
      return false;
    }
    return true;
  }
  if (same(c, "deflate")) {
    std::string first;
    if (inflate_with(encoded, MAX_WBITS, max_bytes, out, first)) return true;
    if (inflate_with(encoded, -MAX_WBITS, max_bytes, out, why)) return true;  // bare deflate
    why = "deflate: " + first;
    return false;
  }
  why = "content coding '" + std::string(c) + "' is not decoded here (gzip, deflate are)";
  return false;
}

}  // namespace sb
