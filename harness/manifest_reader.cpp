#include "harness/manifest_reader.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <stdexcept>

#include "codecs/base64.h"

namespace sb {

namespace {

std::string get_string(const rapidjson::Value& obj, const char* key) {
  auto it = obj.FindMember(key);
  if (it == obj.MemberEnd() || !it->value.IsString()) return {};
  return {it->value.GetString(), it->value.GetStringLength()};
}

// A header value the recorder wrote: "<key>" as a string, or "<key>_base64" (a value that is not
// UTF-8) as its bytes.
std::string get_header(const rapidjson::Value& obj, const std::string& key,
                       const std::string& where) {
  const std::string encoded = get_string(obj, (key + "_base64").c_str());
  if (encoded.empty()) return get_string(obj, key.c_str());
  std::optional<std::string> bytes = rpc::base64_decode(encoded);
  if (!bytes) throw std::runtime_error(where + ": " + key + "_base64 is not base64");
  return std::move(*bytes);
}

std::uint64_t get_u64(const rapidjson::Value& obj, const char* key) {
  auto it = obj.FindMember(key);
  if (it == obj.MemberEnd() || !it->value.IsUint64()) return 0;
  return it->value.GetUint64();
}

std::int64_t get_i64(const rapidjson::Value& obj, const char* key, std::int64_t absent) {
  auto it = obj.FindMember(key);
  if (it == obj.MemberEnd() || !it->value.IsInt64()) return absent;
  return it->value.GetInt64();
}

// Without "format" (a recorded entry may leave it out): the path's extension, else XML, with
// format_given false so that the reader of the file sniffs its content.
void read_format(const rapidjson::Value& v, const std::string& where, ManifestEntry& e) {
  const std::string format = get_string(v, "format");
  if (format.empty() && !v.HasMember("format")) {
    std::string_view p = e.path;
    if (p.ends_with(".gz")) p.remove_suffix(3);
    e.format = p.ends_with(".json") ? Format::json : Format::xml;
    e.format_given = p.ends_with(".json") || p.ends_with(".xml");
    return;
  }
  if (format != "xml" && format != "json") {
    throw std::runtime_error(where + ": " + e.path + ": format must be xml or json");
  }
  e.format = format == "xml" ? Format::xml : Format::json;
}

// The recording's fields (docs/corpus.md "Recorded folders").
void read_recording(const rapidjson::Value& v, const std::string& where, ManifestEntry& e) {
  e.exchange = get_u64(v, "exchange");
  e.status = static_cast<int>(get_u64(v, "status"));
  const std::string at = where + ": " + e.path;
  e.content_type = get_header(v, "content_type", at);
  e.soap_action = get_header(v, "soap_action", at);
  e.target = get_header(v, "target", at);
  e.accept_encoding = get_header(v, "accept_encoding", at);
  e.content_encoding = get_header(v, "content_encoding", at);
  e.encoded_path = get_string(v, "encoded_path");
  e.encoded_bytes = get_u64(v, "encoded_bytes");
  e.at_us = get_i64(v, "at_us", -1);
  e.upstream_us = get_i64(v, "upstream_us", -1);
}

// One entry object; throws naming `where` and the entry's path on a malformed one.
ManifestEntry read_entry(const rapidjson::Value& v, const std::string& where) {
  ManifestEntry e;
  e.path = get_string(v, "path");
  if (e.path.empty()) throw std::runtime_error(where + ": an entry has no path");
  e.family = get_string(v, "family");
  read_format(v, where, e);
  read_recording(v, where, e);
  e.operation = get_string(v, "operation");
  e.direction = get_string(v, "direction");
  e.tag = get_string(v, "tag");
  if (auto it = v.FindMember("sets"); it != v.MemberEnd() && it->value.IsArray()) {
    for (const rapidjson::Value& s : it->value.GetArray()) {
      if (s.IsString()) e.sets.emplace_back(s.GetString(), s.GetStringLength());
    }
  }
  e.size = get_u64(v, "size");
  e.bytes = get_u64(v, "bytes");
  e.canonical = get_string(v, "canonical");
  e.canonical_sha256 = get_string(v, "canonical_sha256");
  e.canonical_bytes = get_u64(v, "canonical_bytes");
  if (auto it = v.FindMember("hostile"); it != v.MemberEnd() && it->value.IsBool()) {
    e.hostile = it->value.GetBool();
  }
  e.error_class = get_string(v, "error_class");
  e.note = get_string(v, "note");
  if (auto it = v.FindMember("digest"); it != v.MemberEnd() && it->value.IsObject()) {
    std::vector<std::pair<std::string, std::uint64_t>> counts;
    std::string hash;
    for (const auto& m : it->value.GetObject()) {
      std::string key(m.name.GetString(), m.name.GetStringLength());
      if (key == "hash" && m.value.IsString()) {
        hash.assign(m.value.GetString(), m.value.GetStringLength());
      } else if (m.value.IsUint64()) {
        counts.emplace_back(std::move(key), m.value.GetUint64());
      }
    }
    e.digest = digest_from_fields(e.format, counts, hash);
    if (!e.digest) {
      throw std::runtime_error(where + ": " + e.path + ": malformed digest");
    }
  }
  return e;
}

}  // namespace

std::vector<ManifestEntry> read_manifest(std::string_view text, const std::string& where) {
  rapidjson::Document doc;
  doc.Parse(text.data(), text.size());
  if (doc.HasParseError()) {
    throw std::runtime_error(where + ": offset " + std::to_string(doc.GetErrorOffset()) + ": " +
                             rapidjson::GetParseError_En(doc.GetParseError()));
  }
  if (!doc.IsObject() || !doc.HasMember("entries") || !doc["entries"].IsArray()) {
    throw std::runtime_error(where + ": no \"entries\" array");
  }
  std::vector<ManifestEntry> entries;
  for (const rapidjson::Value& v : doc["entries"].GetArray()) {
    if (!v.IsObject()) throw std::runtime_error(where + ": an entry is not an object");
    entries.push_back(read_entry(v, where));
  }
  return entries;
}

}  // namespace sb
