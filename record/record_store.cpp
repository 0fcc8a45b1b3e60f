#include "record/record_store.h"

#include <fmt/core.h>

#include <fstream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <system_error>

#include "codecs/canonical_json.h"
#include "codecs/family.h"
#include "core/message_buffer.h"
#include "harness/message_files.h"
#include "parsers/registry.h"

namespace sb {

namespace fs = std::filesystem;

namespace {

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

Sniffed sniff(const std::string& body, const std::string& method) {
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

// `"name":` and the value as a JSON string, after a comma.
std::string string_field(std::string_view name, std::string_view value) {
  std::string out = fmt::format(",\"{}\":", name);
  rpc::append_json_string(out, value);
  return out;
}

void write_file(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw std::runtime_error(path.string() + ": cannot write");
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
  ++exchanges_;
  bytes_ += size;
  const Sniffed call = sniff(e.request_body, "");
  const Sniffed answer = sniff(e.response_body, call.operation);
  const std::string operation = call.operation.empty() ? answer.operation : call.operation;
  auto common = [&](const Sniffed& s) {
    std::string f;
    if (!s.format.empty()) f += string_field("format", s.format);
    // The exchange's family is its request's: a fault, say, does not tell the SOAP style.
    const std::string& family = call.family.empty() ? s.family : call.family;
    if (!family.empty()) f += string_field("family", family);
    if (!operation.empty()) f += string_field("operation", operation);
    return f;
  };
  std::string request = common(call);
  request += fmt::format(",\"direction\":\"call\",\"bytes\":{},\"exchange\":{}",
                         e.request_body.size(), exchanges_);
  request += string_field("target", e.target);
  if (!e.request_content_type.empty())
    request += string_field("content_type", e.request_content_type);
  if (!e.soap_action.empty()) request += string_field("soap_action", e.soap_action);
  request += fmt::format(",\"at_us\":{}", e.request_at_us);
  write_message(e.request_body, "call", request);

  std::string response = common(answer);
  response += fmt::format(",\"direction\":\"response\",\"bytes\":{},\"exchange\":{},\"status\":{}",
                          e.response_body.size(), exchanges_, e.status);
  if (!e.response_content_type.empty())
    response += string_field("content_type", e.response_content_type);
  response += fmt::format(",\"at_us\":{},\"upstream_us\":{}", e.response_at_us, e.upstream_us);
  write_message(e.response_body, "response", response);
  dirty_ = true;
  return true;
}

void RecordStore::write_message(const std::string& body, const std::string& direction,
                                const std::string& fields) {
  const std::string_view format = format_of(body);
  const std::string name =
      fmt::format("{:04}.{}.{}", exchanges_, direction, format.empty() ? "dat" : format);
  write_file(dir_ / name, body);
  std::string entry = "{";
  entry += string_field("path", name).substr(1);
  entry += fields;
  entry += "}";
  entries_.push_back(std::move(entry));
}

void RecordStore::flush() {
  if (!dirty_) return;
  std::string text =
      "{\n  \"version\": 1,\n  \"generator\": \"soapbench record\",\n  \"upstream\": ";
  rpc::append_json_string(text, upstream_);
  text += ",\n  \"entries\": [";
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    text += i == 0 ? "\n    " : ",\n    ";
    text += entries_[i];
  }
  text += entries_.empty() ? "]\n}\n" : "\n  ]\n}\n";
  const fs::path tmp = dir_ / ".manifest.json.tmp";
  write_file(tmp, text);
  std::error_code ec;
  fs::rename(tmp, dir_ / "manifest.json", ec);
  if (ec) throw std::runtime_error((dir_ / "manifest.json").string() + ": " + ec.message());
  dirty_ = false;
}

}  // namespace sb
