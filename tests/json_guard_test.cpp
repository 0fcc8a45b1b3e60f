// The decode-level JSON member guard (parsers/json_guard.h) and the codec's matching bound.
#include "parsers/json_guard.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/every_adapter_rejects.h"

namespace sb {
namespace {

std::string object_with(std::size_t members) {
  std::string out = "{";
  for (std::size_t i = 0; i < members; ++i) {
    out += (i == 0 ? "\"m" : ",\"m") + std::to_string(i) + "\":0";
  }
  return out + "}";
}

TEST(JsonGuardTest, CountsMembersPerObject) {
  Limits limits;
  limits.max_members = 3;
  EXPECT_TRUE(check_json_limits(object_with(3), limits).ok());
  const Status over = check_json_limits(object_with(4), limits);
  EXPECT_EQ(over.code(), StatusCode::limit);
  EXPECT_NE(over.reason().find("more than 3 members"), std::string::npos) << over.reason();
  // Nested objects and arrays each count their own members.
  EXPECT_TRUE(
      check_json_limits("{\"a\":{\"b\":1,\"c\":2,\"d\":3},\"e\":[{\"f\":1}],\"g\":2}", limits)
          .ok());
  EXPECT_EQ(check_json_limits("[" + object_with(2) + "," + object_with(4) + "]", limits).code(),
            StatusCode::limit);
}

TEST(JsonGuardTest, ColonsAndBracesInStringsAreText) {
  Limits limits;
  limits.max_members = 1;
  EXPECT_TRUE(check_json_limits(R"({"a:b:c":"x:{y}:z"})", limits).ok());
  EXPECT_TRUE(check_json_limits(R"({"a\"::":"\\\":}:"})", limits).ok());
  EXPECT_EQ(check_json_limits(R"({"a\\":1,"b":2})", limits).code(), StatusCode::limit);
}

TEST(JsonGuardTest, ThresholdSkipsOnlyMessagesThatCannotBreakTheBound) {
  Limits limits;
  limits.max_members = 10;
  // The shortest object with more than 10 members is longer than the threshold.
  std::string smallest = "{";
  for (int i = 0; i < 11; ++i) smallest += std::string(i == 0 ? "" : ",") + "\"\":0";
  smallest += "}";
  EXPECT_GE(smallest.size(), json_guard_threshold(limits));
  EXPECT_EQ(check_json_limits(smallest, limits).code(), StatusCode::limit);
}

// Every JSON adapter rejects the same over-bound message at the decode level, whether its library
// is guarded before parsing or the codec counts from the events.
TEST(JsonGuardTest, EveryJsonAdapterRejectsAtDecode) {
  Limits limits;
  limits.max_members = 5;
  // The top level holds 5 members; the over-bound object is one the decoder skips.
  const std::string message =
      R"({"jsonrpc":"2.0","method":"add","params":[2,3],"meta":)" + object_with(6) + R"(,"id":1})";
  const int adapters_checked =
      expect_every_adapter_rejects(Format::json, limits, message, "more than 5 members");
  EXPECT_GE(adapters_checked, 5);
}

}  // namespace
}  // namespace sb
