#include "record/record_store.h"

#include <fcntl.h>
#include <fmt/core.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <system_error>

#include "codecs/base64.h"
#include "codecs/canonical_json.h"
#include "codecs/family.h"
#include "core/message_buffer.h"
#include "core/status.h"
#include "harness/content_coding.h"
#include "harness/message_files.h"
#include "parsers/registry.h"

namespace sb {

namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kReserveStep = 64 * 1024;  // the manifest's reserve grows by this much
constexpr const char* kManifestTmp = ".manifest.json.tmp";

// "xml", "json" or "" (neither): sniff_format without its reason (which it always writes).
std::string_view format_of(std::string_view body) {
  std::string why;
  return sniff_format(body, &why);
}

// What decoding a recorded body tells the manifest: the family and the operation, when the
// body is a message the decoders can type (the built-in contract, XML-RPC, JSON-RPC, rpc/encoded).
struct Sniffed {
  std::string format;     // "xml", "json" or "" (neither: the file is named .dat)
  std::string family;     // family_name(), or "" when it does not decode
  std::string operation;  // the method, or "" when it does not decode
};

Sniffed sniff(std::string_view body, const std::string& method) {
  Sniffed s;
  s.format = std::string(format_of(body));
  if (s.format.empty()) return s;
  MessageBuffer buffer(body);
  rpc::DecodeContext context;
  context.method = method;  // names an XML-RPC or JSON-RPC response's method
  rpc::Message m;
  DecodeReport report;
  const bool json = s.format == "json";
  if (!make_adapter(default_adapter(json))->decode(buffer, context, m, report).ok()) return s;
  s.family = std::string(rpc::family_name(report.family));
  s.operation = m.method.empty() ? method : m.method;
  return s;
}

// `"name":` and the value as a JSON string, after a comma. A header value may hold any byte; one
// that is not UTF-8 is written as "<name>_base64", its bytes in base64, so the manifest stays
// UTF-8 JSON and the bytes are kept exactly (docs/corpus.md "Recorded folders").
std::string string_field(std::string_view name, std::string_view value) {
  if (!is_valid_utf8(value))
    return fmt::format(",\"{}_base64\":\"{}\"", name, rpc::base64_encode(value));
  std::string out = fmt::format(",\"{}\":", name);
  rpc::append_json_string(out, value);
  return out;
}

// A body as it is kept: the bytes as sent, and when they came with a content coding that could
// be undone, the decoded body (which the manifest's path names; the bytes as sent beside it).
struct Body {
  std::string_view sent;  // as it went over the wire
  std::string coding;     // its Content-Encoding ("" for none)
  std::string decoded;    // the coding undone, when `is_decoded`
  std::string why;        // a coded body that was not decoded: why
  bool is_decoded = false;

  std::string_view readable() const { return is_decoded ? std::string_view(decoded) : sent; }
};

Body prepare(std::string_view sent, const std::string& coding, std::uint64_t room) {
  Body b;
  b.sent = sent;
  if (!is_identity_coding(coding)) b.coding = coding;
  if (!b.coding.empty())
    b.is_decoded = decode_content(sent, b.coding, static_cast<std::size_t>(room), b.decoded, b.why);
  return b;
}

// Writes `bytes` to a new file at `path`; throws naming the file and the system's reason (a
// partial file is removed).
void write_file(const fs::path& path, std::string_view bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int error = fd < 0 ? errno : 0;
  for (std::size_t at = 0; error == 0 && at < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + at, bytes.size() - at);
    if (n < 0 && errno != EINTR) error = errno;
    if (n > 0) at += static_cast<std::size_t>(n);
  }
  if (fd >= 0 && ::close(fd) != 0 && error == 0) error = errno;
  if (error == 0) return;
  std::error_code ignored;
  fs::remove(path, ignored);
  throw std::runtime_error(path.string() + ": cannot write (" + std::strerror(error) + ")");
}

}  // namespace

RecordStore::RecordStore(fs::path dir, std::string upstream, RecordLimits limits)
    : dir_(std::move(dir)), upstream_(std::move(upstream)), limits_(limits) {
  std::error_code ec;
  if (fs::exists(dir_, ec) && !fs::is_empty(dir_, ec))
    throw std::runtime_error(dir_.string() +
                             ": exists and is not empty (record into a new folder)");
  fs::create_directories(dir_, ec);
  if (ec || !fs::is_directory(dir_))
    throw std::runtime_error(dir_.string() + ": cannot create the folder: " + ec.message());
  entries_bytes_ = manifest_text().size();  // the text around the entries
  if (!reserve(entries_bytes_)) throw std::runtime_error(dir_.string() + ": " + stopped_);
  dirty_ = true;  // an empty recording still gets its manifest
  flush();
}

RecordStore::~RecordStore() {
  try {
    flush();
  } catch (const std::exception& e) {
    fmt::print(stderr, "soapbench: record: {}\n", e.what());
  }
}

bool RecordStore::keep(const RecordedExchange& e) {
  const std::uint64_t size = e.request_body.size() + e.response_body.size();
  if (full_ || e.too_large || exchanges_ * 2 + 2 > limits_.max_messages ||
      bytes_ + size > limits_.max_bytes) {
    full_ = true;
    return false;
  }
  const std::uint64_t room = limits_.max_bytes - bytes_ - size;  // for the decoded copies
  const Body call_body = prepare(e.request_body, e.request_content_encoding, room);
  const Body answer_body =
      prepare(e.response_body, e.response_content_encoding, room - call_body.decoded.size());
  const std::uint64_t n = exchanges_ + 1;
  const Sniffed call = sniff(call_body.readable(), "");
  const Sniffed answer = sniff(answer_body.readable(), call.operation);
  const std::string operation = call.operation.empty() ? answer.operation : call.operation;
  // The files: "<exchange>.<direction>.<format>" (the bytes as sent beside a decoded body).
  std::vector<std::pair<std::string, std::string_view>> files;
  auto entry = [&](const Body& b, const Sniffed& s, const std::string& direction) {
    const std::string name =
        fmt::format("{:04}.{}.{}", n, direction, s.format.empty() ? "dat" : s.format);
    files.emplace_back(name, b.readable());
    std::string f = "{" + string_field("path", name).substr(1);
    if (!s.format.empty()) f += string_field("format", s.format);
    // The exchange's family is its request's: a fault, say, does not tell the SOAP style.
    const std::string& family = call.family.empty() ? s.family : call.family;
    if (!family.empty()) f += string_field("family", family);
    if (!operation.empty()) f += string_field("operation", operation);
    f += fmt::format(",\"direction\":\"{}\",\"bytes\":{},\"exchange\":{}", direction,
                     b.readable().size(), n);
    if (!b.coding.empty()) f += string_field("content_encoding", b.coding);
    if (b.is_decoded) {
      const std::string sent = fmt::format("{:04}.{}.{}", n, direction, b.coding);
      files.emplace_back(sent, b.sent);
      f += string_field("encoded_path", sent) + fmt::format(",\"encoded_bytes\":{}", b.sent.size());
    } else if (!b.coding.empty()) {
      f += string_field("note", "kept as sent, not decoded: " + b.why);
    }
    return f;
  };
  std::string request = entry(call_body, call, "call");
  request += string_field("target", e.target);
  if (!e.request_content_type.empty())
    request += string_field("content_type", e.request_content_type);
  if (!e.soap_action.empty()) request += string_field("soap_action", e.soap_action);
  if (!e.accept_encoding.empty()) request += string_field("accept_encoding", e.accept_encoding);
  request += fmt::format(",\"at_us\":{}}}", e.request_at_us);
  std::string response = entry(answer_body, answer, "response");
  response += fmt::format(",\"status\":{}", e.status);
  if (!e.response_content_type.empty())
    response += string_field("content_type", e.response_content_type);
  response += fmt::format(",\"at_us\":{},\"upstream_us\":{}}}", e.response_at_us, e.upstream_us);

  // Room for the manifest that will list it, before any of its files is written.
  const std::uint64_t grown = entries_bytes_ + request.size() + response.size() + 12;
  if (!reserve(grown)) {
    full_ = true;
    return false;
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    try {
      write_file(dir_ / files[i].first, files[i].second);
    } catch (const std::exception& x) {
      std::error_code ignored;
      for (std::size_t j = 0; j < i; ++j) fs::remove(dir_ / files[j].first, ignored);
      full_ = true;
      stopped_ = x.what();
      throw;
    }
  }
  entries_bytes_ = grown;
  entries_.push_back(std::move(request));
  entries_.push_back(std::move(response));
  exchanges_ = n;
  bytes_ += size + call_body.decoded.size() + answer_body.decoded.size();
  dirty_ = true;
  return true;
}

bool RecordStore::reserve(std::uint64_t bytes) {
  if (reserved_ >= bytes) return true;
  const fs::path tmp = dir_ / kManifestTmp;
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    stopped_ = tmp.string() + ": " + std::strerror(errno);
    return false;
  }
  std::uint64_t want = bytes + kReserveStep;
  int rc = ::posix_fallocate(fd, 0, static_cast<off_t>(want));
  if (rc != 0) {  // not the step: then exactly what is needed
    want = bytes;
    rc = ::posix_fallocate(fd, 0, static_cast<off_t>(want));
  }
  ::close(fd);
  if (rc != 0) {
    stopped_ = "no room for the manifest's next entries (" + std::string(std::strerror(rc)) +
               "): keeping nothing more";
    return false;
  }
  reserved_ = want;
  return true;
}

std::string RecordStore::manifest_text() const {
  std::string text =
      "{\n  \"version\": 1,\n  \"generator\": \"soapbench record\",\n  \"upstream\": ";
  rpc::append_json_string(text, upstream_);
  text.reserve(text.size() + entries_bytes_ + 32);
  text += ",\n  \"entries\": [";
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    text += i == 0 ? "\n    " : ",\n    ";
    text += entries_[i];
  }
  text += entries_.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return text;
}

void RecordStore::flush() {
  if (!dirty_) return;
  const std::string text = manifest_text();
  // Written into the space reserved for it (no truncation first: that would free it), cut to
  // its length, then renamed over the manifest.
  const fs::path tmp = dir_ / kManifestTmp;
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  int error = fd < 0 ? errno : 0;
  for (std::size_t at = 0; error == 0 && at < text.size();) {
    const ssize_t n = ::pwrite(fd, text.data() + at, text.size() - at, static_cast<off_t>(at));
    if (n < 0 && errno != EINTR) error = errno;
    if (n > 0) at += static_cast<std::size_t>(n);
  }
  if (error == 0 && ::ftruncate(fd, static_cast<off_t>(text.size())) != 0) error = errno;
  if (fd >= 0 && ::close(fd) != 0 && error == 0) error = errno;
  if (error != 0)
    throw std::runtime_error(tmp.string() + ": cannot write (" + std::strerror(error) + ")");
  std::error_code ec;
  fs::rename(tmp, dir_ / "manifest.json", ec);
  if (ec) throw std::runtime_error((dir_ / "manifest.json").string() + ": " + ec.message());
  reserved_ = 0;  // the temporary file is the manifest now
  dirty_ = false;
}

}  // namespace sb
