#include "harness/corpus.h"

#include <openssl/evp.h>
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <zlib.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace sb {

namespace {

std::string read_plain(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path.string() + ": cannot open");
  std::ostringstream ss;
  ss << in.rdbuf();
  return std::move(ss).str();
}

std::string inflate_gzip(const std::filesystem::path& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (f == nullptr) throw std::runtime_error(path.string() + ": cannot open");
  gzbuffer(f, 1 << 16);
  std::string out;
  char buf[1 << 16];
  for (;;) {
    int n = gzread(f, buf, sizeof buf);
    if (n < 0) {
      int err = 0;
      std::string msg = gzerror(f, &err);
      gzclose(f);
      throw std::runtime_error(path.string() + ": " + msg);
    }
    if (n == 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  gzclose(f);
  return out;
}

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

}  // namespace

std::string CorpusEntry::name() const {
  if (hostile || operation.empty()) {
    std::string p = path;
    if (p.ends_with(".gz")) p.resize(p.size() - 3);
    auto dot = p.rfind('.');
    return dot == std::string::npos ? p : p.substr(0, dot);
  }
  return family + "/" + operation + (tag.empty() ? "" : "." + tag) + "." + direction;
}

std::string sha256_hex(std::string_view bytes) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(bytes.data(), bytes.size(), md, &len, EVP_sha256(), nullptr);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < len; ++i) {
    out += kHex[md[i] >> 4];
    out += kHex[md[i] & 15];
  }
  return out;
}

bool CorpusEntry::canonical_matches(std::string_view json) const {
  if (!canonical_sha256.empty()) {
    return json.size() == canonical_bytes && sha256_hex(json) == canonical_sha256;
  }
  return !canonical.empty() && json == canonical;
}

bool CorpusEntry::in_set(std::string_view set) const {
  for (const std::string& s : sets) {
    if (s == set) return true;
  }
  return false;
}

Corpus Corpus::load(const std::filesystem::path& dir) {
  const std::filesystem::path manifest = dir / "manifest.json";
  const std::string text = read_plain(manifest);
  rapidjson::Document doc;
  doc.Parse(text.c_str(), text.size());
  if (doc.HasParseError()) {
    throw std::runtime_error(manifest.string() + ": offset " +
                             std::to_string(doc.GetErrorOffset()) + ": " +
                             rapidjson::GetParseError_En(doc.GetParseError()));
  }
  if (!doc.IsObject() || !doc.HasMember("entries") || !doc["entries"].IsArray()) {
    throw std::runtime_error(manifest.string() + ": no \"entries\" array");
  }
  Corpus corpus;
  corpus.dir_ = dir;
  for (const rapidjson::Value& v : doc["entries"].GetArray()) {
    if (!v.IsObject()) throw std::runtime_error(manifest.string() + ": an entry is not an object");
    CorpusEntry e;
    e.path = get_string(v, "path");
    if (e.path.empty()) throw std::runtime_error(manifest.string() + ": an entry has no path");
    e.family = get_string(v, "family");
    const std::string format = get_string(v, "format");
    if (format != "xml" && format != "json") {
      throw std::runtime_error(manifest.string() + ": " + e.path + ": format must be xml or json");
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
        throw std::runtime_error(manifest.string() + ": " + e.path + ": malformed digest");
      }
    }
    corpus.entries_.push_back(std::move(e));
  }
  return corpus;
}

const CorpusEntry* Corpus::find(std::string_view path) const {
  for (const CorpusEntry& e : entries_) {
    if (e.path == path) return &e;
  }
  return nullptr;
}

std::string Corpus::read(const CorpusEntry& entry) const {
  return read_message_file(dir_ / entry.path);
}

std::filesystem::path default_corpus_dir() {
  if (const char* env = std::getenv("SOAPBENCH_CORPUS"); env != nullptr && *env != '\0') return env;
  return SB_DEFAULT_CORPUS_DIR;
}

std::string read_message_file(const std::filesystem::path& path) {
  return path.extension() == ".gz" ? inflate_gzip(path) : read_plain(path);
}

}  // namespace sb
