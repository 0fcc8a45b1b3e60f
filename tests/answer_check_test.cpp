// harness/answer_check.h: json_check, the check of every interop cell and round-trip row.
#include "harness/answer_check.h"

#include <gtest/gtest.h>

namespace sb {
namespace {

TEST(AnswerCheck, EqualTextPasses) {
  std::uint64_t drift = 1;
  EXPECT_EQ(json_check(R"({"result":[1.5,"a"]})", R"({"result":[1.5,"a"]})", 0, drift), "");
  EXPECT_EQ(drift, 0u);
}

TEST(AnswerCheck, DoublesWithinTheDriftPass) {
  std::uint64_t drift = 0;
  EXPECT_EQ(json_check(R"({"result":82.29999999999998})", R"({"result":82.3})", 32, drift), "");
  EXPECT_EQ(drift, ulps(82.29999999999998, 82.3));
  EXPECT_NE(json_check(R"({"result":82.29999999999998})", R"({"result":82.3})", 0, drift), "");
}

TEST(AnswerCheck, WrongAnswersFail) {
  std::uint64_t drift = 0;
  EXPECT_NE(json_check(R"({"result":0})", R"({"result":5})", 32, drift), "");  // ints are exact
  EXPECT_NE(json_check(R"({"result":"1.5"})", R"({"result":"1.6"})", 32, drift), "");  // strings
  EXPECT_NE(json_check(R"({"result":[]})", R"({"result":[1]})", 32, drift), "");
  EXPECT_NE(json_check(R"({"result":1.0,"x":1})", R"({"result":1.0})", 32, drift), "");
  EXPECT_NE(json_check(R"({"result":"a\"1"})", R"({"result":"a\"2"})", 32, drift), "");
}

}  // namespace
}  // namespace sb
