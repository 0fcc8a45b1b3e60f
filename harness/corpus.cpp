#include "harness/corpus.h"

#include <openssl/evp.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "harness/gzip_file.h"
#include "harness/message_files.h"

namespace sb {

namespace {

std::string read_plain(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path.string() + ": cannot open");
  std::ostringstream ss;
  ss << in.rdbuf();
  return std::move(ss).str();
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
  Corpus corpus;
  corpus.dir_ = dir;
  if (!std::filesystem::exists(manifest) && std::filesystem::is_directory(dir)) {
    corpus.entries_ = entries_of_folder(dir, corpus.notes_);
    if (corpus.entries_.empty()) {
      throw std::runtime_error(dir.string() +
                               ": no manifest.json and no .xml, .json or .gz message in it");
    }
    return corpus;
  }
  for (ManifestEntry& m : read_manifest(read_plain(manifest), manifest.string())) {
    corpus.entries_.push_back(CorpusEntry{std::move(m)});
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
  if (path.extension() != ".gz") return read_plain(path);
  try {
    return inflate_gzip_file(path);
  } catch (const std::exception& e) {
    throw std::runtime_error(path.string() + ": " + e.what());
  }
}

}  // namespace sb
