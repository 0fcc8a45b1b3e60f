#include "harness/gzip_file.h"

#include <zlib.h>

#include <memory>
#include <stdexcept>

namespace sb {

std::string inflate_gzip_file(const std::filesystem::path& path, std::uint64_t max_bytes) {
  const std::unique_ptr<gzFile_s, int (*)(gzFile)> f(gzopen(path.c_str(), "rb"), gzclose);
  if (!f) throw std::runtime_error("cannot open");
  gzbuffer(f.get(), 1 << 16);
  std::string out;
  char buf[1 << 16];
  for (;;) {
    const int n = gzread(f.get(), buf, sizeof buf);
    if (n < 0) {
      int err = 0;
      std::string msg = gzerror(f.get(), &err);
      // zlib starts its message with the path, which the caller names already.
      if (const std::string named = path.string() + ": "; msg.starts_with(named)) {
        msg.erase(0, named.size());
      }
      throw std::runtime_error("corrupt gzip: " + msg + " (after " + std::to_string(out.size()) +
                               " bytes inflated)");
    }
    // zlib passes a file without a gzip header through unchanged ("transparent" reading): a
    // file named .gz that is not gzip is refused rather than read as if it were inflated.
    // (An empty file is "direct" too: it stays empty, for the sniffer to call it so.)
    if (gzdirect(f.get()) == 1 && (n > 0 || !out.empty())) {
      throw std::runtime_error("not gzip: the file has no gzip header");
    }
    if (n == 0) break;
    if (out.size() + static_cast<std::size_t>(n) > max_bytes) {
      throw GzipOverBound("inflates to more than " + std::to_string(max_bytes) + " bytes");
    }
    out.append(buf, static_cast<std::size_t>(n));
  }
  // gzread ends quietly at the end of the file; Z_BUF_ERROR says it ended inside a stream.
  int err = Z_OK;
  gzerror(f.get(), &err);
  if (err == Z_BUF_ERROR) {
    throw std::runtime_error("truncated gzip: the file ends inside its compressed stream (" +
                             std::to_string(out.size()) + " bytes inflated before its end)");
  }
  return out;
}

}  // namespace sb
