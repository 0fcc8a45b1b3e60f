// Equal work without a manifest (harness/equal_work.h) and the user's message files
// (harness/message_files.h): the majority reference, the tie-break, disagreeing and refusing
// adapters named; bad inputs named in one line each while the rest is read.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "codecs/message_diff.h"
#include "harness/equal_work.h"
#include "harness/message_files.h"
#include "parsers/registry.h"

namespace {

namespace fs = std::filesystem;
using testing::HasSubstr;

std::vector<const sb::AdapterEntry*> all_of(sb::Format format) {
  std::vector<const sb::AdapterEntry*> out;
  for (const sb::AdapterEntry& a : sb::adapters()) {
    if (a.info().format == format) out.push_back(&a);
  }
  return out;
}

// A fresh empty folder under the test's temporary directory.
fs::path folder(const std::string& name) {
  const fs::path dir = fs::path(testing::TempDir()) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

TEST(EqualWork, EveryAdapterAgreesOnAPlainMessage) {
  const std::string xml = "<a x='1'><b>text</b><c/></a>";
  const sb::EqualWork w = sb::check_equal_work(xml, all_of(sb::Format::xml), {}, true);
  ASSERT_TRUE(w.digest);
  EXPECT_EQ(w.digest->elements, 3u);
  EXPECT_TRUE(w.canonical.empty());  // not an RPC message
  EXPECT_THAT(w.decode_refusal, HasSubstr("not a SOAP envelope or XML-RPC message"));
  for (const sb::AdapterVerdicts& v : w.adapters) {
    EXPECT_TRUE(v.walk.timed) << v.adapter->info().name << ": " << v.walk.why;
    EXPECT_TRUE(v.walk.flag.empty());
  }
}

// RapidXML's fastest mode decodes no entities: at walk it is kept and flagged (its Digest
// differs in the text only), at decode its answer is wrong: left out, named by its first
// difference (not by a guess from its flags), and marked wrong (then timed at no level).
TEST(EqualWork, AFastestModeIsFlaggedOrLeftOutNeverTimedSilently) {
  const std::string xml =
      "<methodCall><methodName>concat</methodName><params><param><value><string>a &amp; b"
      "</string></value></param><param><value><string>c</string></value></param></params>"
      "</methodCall>";
  const std::vector<const sb::AdapterEntry*> all = all_of(sb::Format::xml);
  const sb::EqualWork w = sb::check_equal_work(xml, all, {}, true);
  const sb::AdapterEntry* fastest = sb::find_adapter("rapidxml/dom-fastest");
  ASSERT_NE(fastest, nullptr);
  const sb::LevelVerdict* walk = w.verdict(*fastest, sb::Level::walk);
  EXPECT_TRUE(walk->timed);
  EXPECT_THAT(walk->flag, HasSubstr("no entity decoding"));
  const sb::LevelVerdict* decode = w.verdict(*fastest, sb::Level::decode);
  EXPECT_FALSE(decode->timed);
  EXPECT_TRUE(decode->wrong);
  EXPECT_EQ(decode->why, "decodes it wrong: params[0] is \"a &amp; b\", not \"a & b\" as " +
                             std::to_string(all.size() - 1) + " adapters decode it");
  EXPECT_EQ(w.canonical, R"({"kind":"call","method":"concat","params":["a & b","c"]})");
  EXPECT_EQ(w.family, sb::rpc::Family::xmlrpc);
}

// The reason is the actual difference: RapidXML's fastest mode got CDATA right once its leaf
// text was restored; what differed before ("" for "test") was named as such, never as "it
// decodes no entity references".
TEST(EqualWork, TheReasonIsTheFirstDifference) {
  const std::string cdata =
      "<methodCall><methodName>echo</methodName><params><param><value><string><![CDATA[test]]>"
      "</string></value></param></params></methodCall>";
  const sb::EqualWork w = sb::check_equal_work(cdata, all_of(sb::Format::xml), {}, true);
  for (const sb::AdapterVerdicts& v : w.adapters) {
    EXPECT_TRUE(v.decode.timed) << v.adapter->info().name << ": " << v.decode.why;
  }
  const std::string json = R"({"jsonrpc":"2.0","result":{"id":1,"tags":["a",{"k":2.0}]},"id":1})";
  const std::string other = R"({"jsonrpc":"2.0","result":{"id":1,"tags":["a",{"k":2}]},"id":1})";
  const sb::AdapterEntry* rapidjson = sb::find_adapter("rapidjson/dom");
  sb::MessageBuffer a(json), b(other);
  sb::rpc::Message ma, mb;
  sb::DecodeReport report;
  auto adapter = rapidjson->make({});
  ASSERT_TRUE(adapter->decode(a, {}, ma, report).ok());
  ASSERT_TRUE(adapter->decode(b, {}, mb, report).ok());
  EXPECT_EQ(sb::rpc::first_difference(mb, ma, "as the manifest has it"),
            "result.tags[1].k is 2, not 2.0 as the manifest has it");
}
// A file only some adapters accept: tinyxml2 refuses a processing instruction that is not
// first (docs/findings.md); it is left out with its reason, the others agree.
TEST(EqualWork, AnAdapterThatRefusesIsNamedWithItsReason) {
  const std::string xml =
      "<!-- c --><?pi x?><methodCall><methodName>boolean</methodName></methodCall>";
  const sb::EqualWork w = sb::check_equal_work(xml, all_of(sb::Format::xml), {}, true);
  ASSERT_TRUE(w.digest);
  const sb::LevelVerdict* t = w.verdict(*sb::find_adapter("tinyxml2/dom"), sb::Level::walk);
  EXPECT_FALSE(t->timed);
  EXPECT_THAT(t->why, HasSubstr("refuses it: "));
  EXPECT_TRUE(w.verdict(*sb::find_adapter("expat/sax"), sb::Level::walk)->timed);
}

TEST(EqualWork, NothingReadsIt) {
  const sb::EqualWork w = sb::check_equal_work("<a><b></a>", all_of(sb::Format::xml), {}, true);
  EXPECT_FALSE(w.digest);
  EXPECT_THAT(w.digest_refusal, HasSubstr("libxml2/"));  // the tie-breaker's reason
}

// A key sent twice: nlohmann::json and Poco keep its last value, RapidJSON both (jsoncpp and Qt
// refuse it). One against one, RapidJSON's answer wins the tie; two against one, the majority.
TEST(EqualWork, TheMajorityWinsAndTheTieBreakerBreaksTies) {
  const std::string json = R"({"jsonrpc":"2.0","result":{"b":1,"b":2},"id":1})";
  const sb::AdapterEntry* nlohmann = sb::find_adapter("nlohmann/dom");
  const sb::AdapterEntry* poco = sb::find_adapter("poco-json/dom");
  const sb::AdapterEntry* rapidjson = sb::find_adapter("rapidjson/dom");
  ASSERT_TRUE(nlohmann && poco && rapidjson);
  const std::vector<const sb::AdapterEntry*> tie = {nlohmann, rapidjson};
  const sb::EqualWork one = sb::check_equal_work(json, tie, {}, true);
  EXPECT_EQ(one.canonical, R"({"kind":"response","method":"","result":{"b":1,"b":2}})");
  EXPECT_FALSE(one.verdict(*nlohmann, sb::Level::decode)->timed);
  EXPECT_EQ(one.verdict(*nlohmann, sb::Level::decode)->why,
            "decodes it wrong: result.b is 2, not 1 as the other adapter decodes it");
  const std::vector<const sb::AdapterEntry*> majority = {nlohmann, poco, rapidjson};
  const sb::EqualWork two = sb::check_equal_work(json, majority, {}, true);
  EXPECT_EQ(two.canonical, R"({"kind":"response","method":"","result":{"b":2}})");
  EXPECT_TRUE(two.verdict(*rapidjson, sb::Level::decode)->wrong);
  EXPECT_THAT(two.verdict(*rapidjson, sb::Level::decode)->why,
              HasSubstr("result.b is 1, not 2 as 2 adapters decode it"));
}

TEST(MessageFiles, BadInputsAreNamedAndTheRestIsRead) {
  const fs::path dir = folder("msgs");
  write(dir / "ok.xml", "<a/>");
  write(dir / "ok.json", R"({"a":1})");
  write(dir / "empty.xml", "");
  write(dir / "blank.json", "  \n");
  write(dir / "binary.xml", std::string("\x00\x01\x02\xff", 4));
  write(dir / "text.xml", "hello");
  write(dir / "notes.txt", "ignored by name");
  write(dir / ".hidden.xml", "<a/>");
  {
    gzFile gz = gzopen((dir / "packed.xml.gz").c_str(), "wb");
    gzputs(gz, "<packed>yes</packed>");
    gzclose(gz);
  }
  // 2 GiB, sparse: refused by its size without being read (the test's heap would not hold it).
  {
    std::ofstream big(dir / "huge.xml", std::ios::binary);
    big.seekp((2ll << 30) - 1);
    big.put('<');
  }
  const sb::MessageScan scan = sb::scan_messages({dir.string()}, {});
  std::vector<std::string> names;
  for (const sb::MessageFile& f : scan.files) names.push_back(f.path.filename().string());
  EXPECT_THAT(names, testing::ElementsAre("ok.json", "ok.xml", "packed.xml.gz"));
  EXPECT_EQ(scan.files[2].bytes, "<packed>yes</packed>");
  const std::string all = testing::PrintToString(scan.skipped);
  EXPECT_THAT(all, HasSubstr("empty.xml: empty file"));
  EXPECT_THAT(all, HasSubstr("blank.json: only whitespace"));
  EXPECT_THAT(all, HasSubstr("binary.xml: a binary file"));
  EXPECT_THAT(all, HasSubstr("text.xml: not XML or JSON"));
  EXPECT_THAT(all, HasSubstr("huge.xml: 2 GiB, over the 64 MiB bound"));
  EXPECT_THAT(all, HasSubstr("1 files that are not .xml, .json or .gz"));
  EXPECT_EQ(scan.skipped.size(), 6u) << all;
}

TEST(MessageFiles, TenThousandFilesAreSampledEvenlyInOneLine) {
  const fs::path dir = folder("many");
  for (int i = 0; i < 10000; ++i) write(dir / (std::to_string(100000 + i) + ".xml"), "<m/>");
  const sb::MessageScan scan = sb::scan_messages({dir.string()}, {});
  ASSERT_EQ(scan.files.size(), 100u);
  EXPECT_EQ(scan.files.front().path.filename(), "100000.xml");
  EXPECT_EQ(scan.files.back().path.filename(), "109999.xml");
  ASSERT_EQ(scan.skipped.size(), 1u);
  EXPECT_THAT(scan.skipped[0], HasSubstr("10000 message files named; comparing 100"));
  fs::remove_all(dir);
}

// A recorded folder: its manifest (docs/corpus.md "Recorded folders") lists the messages with
// the recording's fields; format may be left out (the content is sniffed).
TEST(MessageFiles, ARecordedFolderIsReadThroughItsManifest) {
  const fs::path dir = folder("recorded");
  write(dir / "0001.request.xml", "<methodCall><methodName>boolean</methodName></methodCall>");
  write(dir / "0001.response.bin", R"({"jsonrpc":"2.0","result":true,"id":1})");
  write(dir / "manifest.json", R"({"version":1,"generator":"soapbench record","entries":[
    {"path":"0001.request.xml","family":"xmlrpc","direction":"call","operation":"boolean",
     "exchange":1,"content_type":"text/xml","target":"/RPC2","at_us":120},
    {"path":"0001.response.bin","direction":"response","exchange":1,"status":200,
     "content_type":"application/json","at_us":450,"upstream_us":310},
    {"path":"../escape.xml"}]})");
  const sb::MessageScan scan = sb::scan_messages({dir.string()}, {});
  ASSERT_EQ(scan.files.size(), 2u) << testing::PrintToString(scan.skipped);
  EXPECT_EQ(scan.files[0].entry.operation, "boolean");
  EXPECT_EQ(scan.files[0].entry.target, "/RPC2");
  EXPECT_EQ(scan.files[1].entry.format, sb::Format::json);  // sniffed
  EXPECT_EQ(scan.files[1].entry.status, 200);
  EXPECT_EQ(scan.files[1].entry.upstream_us, 310);
  EXPECT_THAT(testing::PrintToString(scan.skipped), HasSubstr("outside the folder"));
}

}  // namespace
