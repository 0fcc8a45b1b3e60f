#include "harness/message_files.h"

#include <algorithm>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include "harness/gzip_file.h"
#include "harness/manifest_reader.h"

namespace sb {

namespace fs = std::filesystem;

namespace {

bool is_gzip(const fs::path& p) { return p.extension() == ".gz"; }

// A folder's message files by name: .xml, .json and gzip.
bool message_name(const fs::path& p) {
  const fs::path e = p.extension();
  return e == ".xml" || e == ".json" || e == ".gz";
}

std::string human_bytes(std::uint64_t n) {
  if (n >= (1ull << 30)) return std::to_string(n >> 30) + " GiB";
  if (n >= (1ull << 20)) return std::to_string(n >> 20) + " MiB";
  return std::to_string(n) + " bytes";
}

// The whole file, refused by its size before it is read (inflated: stopped at the bound).
std::string read_bounded(const fs::path& path, std::uint64_t max_bytes) {
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) throw std::runtime_error("cannot read: " + ec.message());
  if (!is_gzip(path)) {
    if (size > max_bytes) {
      throw std::runtime_error(human_bytes(size) + ", over the " + human_bytes(max_bytes) +
                               " bound (--max-file-bytes): refused without reading it");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open");
    std::string out(size, '\0');
    in.read(out.data(), static_cast<std::streamsize>(size));
    out.resize(static_cast<std::size_t>(in.gcount()));
    return out;
  }
  try {
    return inflate_gzip_file(path, max_bytes);
  } catch (const GzipOverBound&) {
    throw std::runtime_error("inflates to more than " + human_bytes(max_bytes) +
                             " (--max-file-bytes): refused");
  }
}

// One named path: a file, or a folder's files (its manifest's entries when it has one).
struct Candidate {
  fs::path path;      // the file
  std::string label;  // its name in output
  CorpusEntry entry;  // from a manifest, or path only
  bool listed;        // from a manifest (format known) rather than found by name
};

// A message's name in output and benchmark names: as given when relative to here, else from the
// folder named (its last component) or the file's own name; never starting with '/'.
std::string label_of(const fs::path& p, const fs::path& named) {
  std::error_code ec;
  const std::string r = fs::relative(p, fs::current_path(), ec).generic_string();
  if (!ec && !r.empty() && !r.starts_with("..")) return r;
  if (named == p) return p.filename().generic_string();
  const fs::path base =
      named.filename().empty() ? named.parent_path().filename() : named.filename();
  return (base / fs::relative(p, named, ec)).generic_string();
}

void from_manifest(const fs::path& dir, std::vector<Candidate>& out,
                   std::vector<std::string>& skipped) {
  const fs::path manifest = dir / "manifest.json";
  std::ifstream in(manifest, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::size_t hostile = 0;
  for (ManifestEntry& m : read_manifest(text, manifest.string())) {
    if (m.hostile) {
      ++hostile;
      continue;
    }
    const fs::path rel(m.path);
    if (rel.is_absolute() || m.path.find("..") != std::string::npos) {
      skipped.push_back(manifest.string() + ": entry " + m.path + ": outside the folder: skipped");
      continue;
    }
    const bool given = m.format_given;
    out.push_back({dir / rel, label_of(dir / rel, dir), CorpusEntry{std::move(m)}, given});
  }
  if (hostile > 0) {
    skipped.push_back(manifest.string() + ": " + std::to_string(hostile) +
                      " hostile files left out (soapbench conformance reads them)");
  }
}

void from_folder(const fs::path& dir, std::vector<Candidate>& out,
                 std::vector<std::string>& skipped) {
  if (fs::exists(dir / "manifest.json")) {
    from_manifest(dir, out, skipped);
    return;
  }
  std::vector<fs::path> found;
  std::size_t other = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (it->path().filename().string().starts_with(".")) {
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file()) continue;
    if (message_name(it->path())) {
      found.push_back(it->path());
    } else {
      ++other;
    }
  }
  if (ec) skipped.push_back(dir.string() + ": " + ec.message());
  std::sort(found.begin(), found.end());
  if (other > 0) {
    skipped.push_back(dir.string() + ": " + std::to_string(other) +
                      " files that are not .xml, .json or .gz left out");
  }
  for (const fs::path& p : found) {
    CorpusEntry e;
    e.path = fs::relative(p, dir).generic_string();
    out.push_back({p, label_of(p, dir), std::move(e), false});
  }
}

// At most `max` of `all`, evenly spaced (the first and the last kept), with one line saying so.
void sample(std::vector<Candidate>& all, std::size_t max, std::vector<std::string>& skipped) {
  if (max == 0 || all.size() <= max) return;
  skipped.push_back(std::to_string(all.size()) + " message files named; comparing " +
                    std::to_string(max) +
                    " of them, evenly spaced in path order (--max-files N to compare more, 0 "
                    "for all)");
  std::vector<Candidate> kept;
  for (std::size_t i = 0; i < max; ++i) {
    kept.push_back(std::move(all[max == 1 ? 0 : i * (all.size() - 1) / (max - 1)]));
  }
  all = std::move(kept);
}

}  // namespace

std::string_view sniff_format(std::string_view bytes, std::string* why) {
  std::string_view s = bytes;
  if (s.starts_with("\xEF\xBB\xBF")) s.remove_prefix(3);
  const std::size_t first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) {
    *why = bytes.empty() ? "empty file" : "only whitespace";
    return {};
  }
  const char c = s[first];
  if (c == '<') return "xml";
  if (c == '{' || c == '[') return "json";
  if (s.starts_with("\xFF\xFE") || s.starts_with("\xFE\xFF")) {
    *why = "UTF-16 text: the adapters read UTF-8 (convert it first, e.g. iconv -t UTF-8)";
    return {};
  }
  const std::string_view head = s.substr(0, 4096);
  const bool binary = std::any_of(head.begin(), head.end(), [](char ch) {
    const auto u = static_cast<unsigned char>(ch);
    return u == 0 || (u < 0x20 && u != '\t' && u != '\n' && u != '\r');
  });
  if (binary) {
    *why = "a binary file, not XML or JSON";
    return {};
  }
  std::string start(s.substr(first, 16));
  for (char& ch : start) ch = (static_cast<unsigned char>(ch) < 0x20) ? ' ' : ch;
  *why = "not XML or JSON (it begins \"" + start + "\")";
  return {};
}

MessageScan scan_messages(const std::vector<std::string>& paths,
                          const MessageScanOptions& options) {
  MessageScan scan;
  std::vector<Candidate> candidates;
  for (const std::string& p : paths) {
    std::error_code ec;
    const fs::file_status st = fs::status(p, ec);
    if (ec || !fs::exists(st)) {
      scan.skipped.push_back(p + ": no such file or folder");
    } else if (fs::is_directory(st)) {
      from_folder(p, candidates, scan.skipped);
    } else {
      CorpusEntry e;
      e.path = fs::path(p).filename().string();
      candidates.push_back({p, label_of(p, p), std::move(e), false});
    }
  }
  sample(candidates, options.max_files, scan.skipped);
  for (Candidate& c : candidates) {
    MessageFile f{c.label, c.path, {}, std::move(c.entry)};
    try {
      f.bytes = read_bounded(c.path, options.max_bytes);
    } catch (const std::exception& e) {
      scan.skipped.push_back(c.label + ": " + e.what());
      continue;
    }
    std::string why;
    const std::string_view format = sniff_format(f.bytes, &why);
    if (format.empty()) {
      scan.skipped.push_back(c.label + ": " + why);
      continue;
    }
    if (!c.listed) f.entry.format = format == "json" ? Format::json : Format::xml;
    f.entry.bytes = f.bytes.size();
    if (!options.read) std::string().swap(f.bytes);
    scan.files.push_back(std::move(f));
  }
  return scan;
}

std::vector<CorpusEntry> entries_of_folder(const fs::path& dir, std::vector<std::string>& skipped) {
  MessageScanOptions options;
  options.max_files = 0;
  options.read = false;
  MessageScan scan = scan_messages({dir.string()}, options);
  skipped = std::move(scan.skipped);
  std::vector<CorpusEntry> out;
  for (MessageFile& f : scan.files) out.push_back(std::move(f.entry));
  return out;
}

}  // namespace sb
