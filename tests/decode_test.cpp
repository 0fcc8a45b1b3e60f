// The decode level: every adapter decodes every corpus file to exactly the manifest's
// canonical JSON, and detects the file's family.
#include <gtest/gtest.h>

#include "codecs/canonical_json.h"
#include "parsers/registry.h"
#include "tests/corpus_fixture.h"

namespace sb {
namespace {

using test::corpus;

struct AdapterFamily {
  std::string adapter;  // registry name
  std::string family;   // protocol family
};

std::vector<AdapterFamily> adapter_families() {
  std::vector<AdapterFamily> out;
  for (const AdapterEntry& e : adapters()) {
    if (e.info().digest_exempt) continue;  // no entity decoding: values legitimately differ
    for (const std::string& f : test::families()) {
      if ((f == "jsonrpc") == (e.info().format == Format::json)) out.push_back({e.info().name, f});
    }
  }
  return out;
}

class DecodeTest : public testing::TestWithParam<AdapterFamily> {};

TEST_P(DecodeTest, CanonicalEqualsManifest) {
  std::unique_ptr<Adapter> adapter = make_adapter(GetParam().adapter);
  ASSERT_TRUE(adapter);
  MessageBuffer buffer;
  rpc::Message message;
  int checked = 0;
  for (const CorpusEntry& e : corpus().entries()) {
    if (e.hostile || e.family != GetParam().family) continue;
    buffer.assign(corpus().read(e));
    rpc::DecodeContext context;
    context.method = e.operation;  // responses of XML-RPC / JSON-RPC need it
    DecodeReport report;
    Status s = adapter->decode(buffer, context, message, report);
    ASSERT_TRUE(s.ok()) << e.path << ": " << s.describe();
    const std::string json = rpc::to_canonical_json(message);
    EXPECT_TRUE(e.canonical_matches(json)) << e.path << "\n  got:      " << json.substr(0, 300)
                                           << "\n  expected: " << e.canonical.substr(0, 300);
    // Detected family; SOAP faults do not show their style.
    if (e.direction != "fault" || !e.family.starts_with("soap11")) {
      EXPECT_EQ(rpc::family_name(report.family), e.family) << e.path;
    }
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

INSTANTIATE_TEST_SUITE_P(Corpus, DecodeTest, testing::ValuesIn(adapter_families()),
                         [](const testing::TestParamInfo<AdapterFamily>& p) {
                           std::string s = p.param.adapter + "__" + p.param.family;
                           for (char& c : s) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return s;
                         });

}  // namespace
}  // namespace sb
