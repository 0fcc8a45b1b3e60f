// codecs/jsonrpc_id: the top-level "id" of a JSON-RPC request found without a full parse, as the
// server echoes it (tests/server_test.cpp checks the echo end to end).
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "codecs/jsonrpc_id.h"

namespace sb {
namespace {

using rpc::find_jsonrpc_id;
using rpc::json_top_level_member;
using rpc::JsonRpcId;

// The id of `body`, which must be present, written back as the server would.
std::string_view raw_id(std::string_view body) {
  const JsonRpcId id = find_jsonrpc_id(body);
  EXPECT_TRUE(id.present) << body;
  return id.raw;
}

// The id in first position (the scan from the front) and last position (the scan from the back).
void expect_both_ways(std::string_view token, std::string_view raw,
                      std::optional<std::int64_t> number) {
  const std::string first = "{\"id\":" + std::string(token) + ",\"method\":\"m\",\"params\":[]}";
  const std::string last = "{\"method\":\"m\",\"params\":[],\"id\" : " + std::string(token) + " }";
  for (const std::string& body : {first, last}) {
    SCOPED_TRACE(body);
    const JsonRpcId id = find_jsonrpc_id(body);
    EXPECT_TRUE(id.present);
    EXPECT_EQ(id.raw, raw);
    EXPECT_EQ(id.number, number);
  }
}

TEST(JsonrpcId, NumbersAreEchoedAsWrittenAndIntegersAreKnown) {
  expect_both_ways("1", "1", 1);
  expect_both_ways("0", "0", 0);
  expect_both_ways("-42", "-42", -42);
  expect_both_ways("-9007199254740993", "-9007199254740993", -9007199254740993);
  expect_both_ways("9223372036854775807", "9223372036854775807", INT64_MAX);
  // Valid JSON numbers the encoder cannot write as an integer: spliced in as written.
  expect_both_ways("2.5", "2.5", std::nullopt);
  expect_both_ways("1e3", "1e3", std::nullopt);
  expect_both_ways("1E-2", "1E-2", std::nullopt);
  expect_both_ways("-0", "-0", std::nullopt);  // would lose its sign as 0
  expect_both_ways("9223372036854775808", "9223372036854775808", std::nullopt);
}

TEST(JsonrpcId, StringsKeepTheirEscapes) {
  expect_both_ways(R"("abc")", R"("abc")", std::nullopt);
  expect_both_ways(R"("")", R"("")", std::nullopt);
  expect_both_ways(R"("abc\"-42")", R"("abc\"-42")", std::nullopt);
  expect_both_ways(R"("a\\")", R"("a\\")", std::nullopt);        // ends in an escaped backslash
  expect_both_ways(R"("x\"}y,")", R"("x\"}y,")", std::nullopt);  // delimiters inside
  expect_both_ways(R"("\u00e9\n")", R"("\u00e9\n")", std::nullopt);
}

TEST(JsonrpcId, NullAndInvalidIdsAreAnsweredWithNull) {
  expect_both_ways("null", "null", std::nullopt);
  // Present (so not a notification) but not an id JSON-RPC allows, or not valid JSON.
  for (std::string_view token : {"true", "false", "01", "1.", "+1", "\"a\tb\""}) {
    SCOPED_TRACE(token);
    expect_both_ways(token, "null", std::nullopt);
  }
  EXPECT_EQ(raw_id(R"({"id":{"a":1},"method":"m"})"), "null");
  EXPECT_EQ(raw_id(R"({"method":"m","id":[1]})"), "null");
}

TEST(JsonrpcId, MissingIdIsANotification) {
  for (std::string_view body : {R"({"jsonrpc":"2.0","method":"m","params":[1]})", "{}", " { } ",
                                R"({"ids":1,"i":2,"Id":3})"}) {
    SCOPED_TRACE(body);
    const JsonRpcId id = find_jsonrpc_id(body);
    EXPECT_FALSE(id.present);
    EXPECT_EQ(id.raw, "null");
    EXPECT_FALSE(id.number);
  }
}

TEST(JsonrpcId, NestedIdKeysAreNotTaken) {
  for (std::string_view body : {
           R"({"method":"m","params":{"id":5}})", R"({"params":{"a":1,"id":5},"method":"m"})",
           R"({"method":"m","params":[{"id":5}]})",
           R"({"method":"m","params":[1,{"x":[{"id":5}]}]})",
           R"({"method":"\"id\":5","params":[]})",  // in a string
           R"({"params":"a,\"id\":7"})",
           R"([{"id":5}])",  // a batch is not a request object
       }) {
    SCOPED_TRACE(body);
    EXPECT_FALSE(find_jsonrpc_id(body).present);
  }
  // Beside nested ones, the top-level id is the one taken.
  EXPECT_EQ(raw_id(R"({"params":{"id":5},"id":6})"), "6");
  EXPECT_EQ(raw_id(R"({"id":6,"params":[{"id":5}]})"), "6");
  EXPECT_EQ(raw_id(R"({"params":{"id":"}"},"id":6,"method":"m"})"), "6");
}

TEST(JsonrpcId, EscapedKeysAreRead) {
  EXPECT_EQ(raw_id(R"({"\u0069d":3,"method":"m"})"), "3");
  EXPECT_EQ(raw_id(R"({"method":"m","i\u0064":4})"), "4");
  EXPECT_FALSE(find_jsonrpc_id(R"({"\u0069x":3,"method":"m"})").present);
  EXPECT_FALSE(find_jsonrpc_id(R"({"id\n":3,"method":"m"})").present);
}

TEST(JsonrpcId, DuplicatedKeysLastWins) {
  EXPECT_EQ(raw_id(R"({"id":1,"method":"m","id":2})"), "2");
  EXPECT_EQ(raw_id(R"({"id":1,"id":2,"method":"m"})"), "2");
  EXPECT_EQ(raw_id(R"({"id":"a","id":null,"method":"m"})"), "null");
  EXPECT_EQ(find_jsonrpc_id(R"({"id":1,"method":"m","id":2})").number, 2);
}

TEST(JsonrpcId, MalformedBodiesNeverReadOutside) {
  for (std::string_view body : {"", " ", "{", "[", "\"id\"", R"({"id")", R"({"id":)", R"({"id" 1})",
                                R"({id:1})", R"({"id:1})", "null"}) {
    SCOPED_TRACE(body);
    EXPECT_FALSE(find_jsonrpc_id(body).present);
  }
  // Not a validator (the server asks after its adapter has read the body): today's answers.
  EXPECT_EQ(raw_id(R"({"id":1)"), "1");  // members before the damage count
  EXPECT_EQ(raw_id(R"({"id":1,"method":)"), "1");
  EXPECT_EQ(raw_id(R"({,"method":"m","id":1})"), "1");  // the scan from the back stops at "id"
  EXPECT_EQ(raw_id(R"({"id":"abc})"), "null");          // unterminated string: not an id
  // Every prefix of a request, with one byte damaged: answers stay inside the body.
  const std::string request = R"({"jsonrpc":"2.0","params":[{"id":"x\"y"}],"id":"r\\1"})";
  for (std::size_t n = 1; n <= request.size(); ++n) {
    for (char c : {'\0', '"', '\\', '}', ',', ':'}) {
      std::string body = request.substr(0, n);
      body[n / 2] = c;
      const JsonRpcId id = find_jsonrpc_id(body);
      if (id.raw != "null") {
        ASSERT_GE(id.raw.data(), body.data()) << body;
        ASSERT_LE(id.raw.data() + id.raw.size(), body.data() + body.size()) << body;
      }
    }
  }
  EXPECT_EQ(raw_id(request), R"("r\\1")");
}

TEST(JsonrpcId, AnyTopLevelMemberCanBeFound) {
  const std::string_view doc = R"({"jsonrpc":"2.0","result":{"a":[1,{"result":2}]},"id":1})";
  EXPECT_EQ(json_top_level_member(doc, "result"), R"({"a":[1,{"result":2}]})");
  EXPECT_EQ(json_top_level_member(doc, "jsonrpc"), R"("2.0")");
  EXPECT_FALSE(json_top_level_member(doc, "error"));
}

}  // namespace
}  // namespace sb
