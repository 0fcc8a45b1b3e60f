#include "parsers/manifest_reader.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <stdexcept>

namespace sb {

namespace {

std::string get_string(const rapidjson::Value& obj, const char* key) {
  auto it = obj.FindMember(key);
  if (it == obj.MemberEnd() || !it->value.IsString()) return {};
  return {it->value.GetString(), it->value.GetStringLength()};
}

std::uint64_t get_u64(const rapidjson::Value& obj, const char* key) {
  auto it = obj.FindMember(key);
  if (it == obj.MemberEnd() || !it->value.IsUint64()) return 0;
  return it->value.GetUint64();
}

// One entry object; throws naming `where` and the entry's path on a malformed one.
ManifestEntry read_entry(const rapidjson::Value& v, const std::string& where) {
  ManifestEntry e;
  e.path = get_string(v, "path");
  if (e.path.empty()) throw std::runtime_error(where + ": an entry has no path");
  e.family = get_string(v, "family");
  const std::string format = get_string(v, "format");
  if (format != "xml" && format != "json") {
    throw std::runtime_error(where + ": " + e.path + ": format must be xml or json");
  }
  e.format = format == "xml" ? Format::xml : Format::json;
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
