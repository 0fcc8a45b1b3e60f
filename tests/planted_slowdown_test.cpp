// The planted slowdown's setting and spread (measure/planted_slowdown.h): what a timing study
// plants must be what it asked for, and a malformed setting must never run unplanted.
#include <gtest/gtest.h>

#include <string>

#include "measure/planted_slowdown.h"

namespace {

using sb::bench::parse_planted_slowdown;
using sb::bench::PlantedSlowdown;

TEST(PlantedSlowdown, ParsesPercentAndRegex) {
  std::string why;
  auto p = parse_planted_slowdown("5:^decode/pugixml-dom/", &why);
  ASSERT_TRUE(p) << why;
  EXPECT_DOUBLE_EQ(p->fraction, 0.05);
  EXPECT_TRUE(std::regex_search("decode/pugixml-dom/xmlrpc/add.call", p->which));
  EXPECT_FALSE(std::regex_search("parse/pugixml-dom/xmlrpc/add.call", p->which));
  p = parse_planted_slowdown("2.5:x", &why);
  ASSERT_TRUE(p) << why;
  EXPECT_DOUBLE_EQ(p->fraction, 0.025);
}

// Zero is valid and plants nothing: the base of an A/B carries it, as long as the head's value.
TEST(PlantedSlowdown, ZeroPlantsNothing) {
  std::string why;
  auto p = parse_planted_slowdown("0:^decode/", &why);
  ASSERT_TRUE(p) << why;
  EXPECT_EQ(p->fraction, 0.0);
}

TEST(PlantedSlowdown, RefusesMalformedSettings) {
  for (const char* bad : {"five:^x", "5", ":^x", "5:(", "-1:^x", "1001:^x", "5x:^x", "nan:^x"}) {
    std::string why;
    EXPECT_FALSE(parse_planted_slowdown(bad, &why)) << bad;
    EXPECT_FALSE(why.empty()) << bad;
  }
}

// Above 100% some iterations owe several passes: 300% is three extra passes an iteration (a
// bool "due" capped it at one, so 300% planted doubled the time instead of quadrupling it).
TEST(PlantedSlowdown, RedoesTheFractionEvenlySpread) {
  for (double fraction : {0.02, 0.05, 0.3, 1.0, 3.0, 2.5}) {
    PlantedSlowdown redo(fraction);
    long passes = 0;
    long first_half = 0;
    constexpr int kIterations = 10000;
    for (int i = 0; i < kIterations; ++i) {
      const int n = redo.due();
      EXPECT_LE(n, static_cast<int>(fraction) + 1) << fraction;
      passes += n;
      if (i < kIterations / 2) first_half += n;
    }
    EXPECT_NEAR(passes, fraction * kIterations, 1.0) << fraction;
    EXPECT_NEAR(first_half, fraction * kIterations / 2, 1.0) << fraction;
  }
}

}  // namespace
