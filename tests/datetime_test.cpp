// xsd:dateTime by XML Schema Part 2's grammar (3.2.7) and its canonical text (docs/service.md):
// fractions and time zones read, the forms the corpus uses unchanged byte for byte, what the
// value model cannot hold refused by name.
#include <gtest/gtest.h>

#include <string>

#include "codecs/scalars.h"

namespace sb::rpc {
namespace {

std::string canonical(std::string_view text) {
  std::string why;
  const auto d = parse_xsd_datetime(text, &why);
  return d ? *d : "refused: " + why;
}

TEST(XsdDateTime, TodaysFormsAreUnchanged) {
  EXPECT_EQ(canonical("2009-11-30T22:15:00"), "2009-11-30T22:15:00");
  EXPECT_EQ(canonical(" 1968-12-31T23:59:59\n"), "1968-12-31T23:59:59");
  EXPECT_EQ(canonical("2009-11-30T22:15:00Z"), "2009-11-30T22:15:00");
  EXPECT_EQ(canonical("2009-11-30T22:15:00+00:00"), "2009-11-30T22:15:00");
  EXPECT_EQ(canonical("2009-11-30T22:15:00-00:00"), "2009-11-30T22:15:00");
  EXPECT_EQ(*parse_datetime("20091130T22:15:00"), "2009-11-30T22:15:00");  // XML-RPC's form
  EXPECT_EQ(*parse_datetime_text("1965-03-21 00:00:00"), "1965-03-21T00:00:00");
}

TEST(XsdDateTime, FractionsAndTimeZones) {
  EXPECT_EQ(canonical("2009-04-30T06:38:34.000Z"), "2009-04-30T06:38:34");  // Axis 1
  EXPECT_EQ(canonical("2009-04-30T06:38:34.500Z"), "2009-04-30T06:38:34.5");
  EXPECT_EQ(canonical("2009-04-30T06:38:34.123456789"), "2009-04-30T06:38:34.123456789");
  EXPECT_EQ(canonical("2009-04-30T08:38:34+02:00"), "2009-04-30T06:38:34");
  EXPECT_EQ(canonical("2009-04-30T23:30:00-05:00"), "2009-05-01T04:30:00");
  EXPECT_EQ(canonical("2000-03-01T00:30:00+01:00"), "2000-02-29T23:30:00");
  EXPECT_EQ(canonical("1999-12-31T24:00:00"), "2000-01-01T00:00:00");
  EXPECT_EQ(canonical("2008-02-29T12:00:00+14:00"), "2008-02-28T22:00:00");
  EXPECT_EQ(canonical("12345-01-01T00:00:00"), "refused: years after 9999 are not supported");
  EXPECT_TRUE(is_canonical_datetime("2009-04-30T06:38:34.25"));
  EXPECT_FALSE(is_canonical_datetime("2009-04-30T06:38:34.250"));
  EXPECT_FALSE(is_canonical_datetime("2009-04-30T06:38:34Z"));
}

TEST(XsdDateTime, WhatTheValueModelCannotHoldIsRefusedByName) {
  EXPECT_EQ(canonical("-0044-03-15T12:00:00"), "refused: years before 0001 are not supported");
  EXPECT_EQ(canonical("0000-01-01T00:00:00"), "refused: years before 0001 are not supported");
  EXPECT_EQ(canonical("10000-01-01T00:00:00"), "refused: years after 9999 are not supported");
  EXPECT_EQ(canonical("9999-12-31T23:30:00-01:00"), "refused: years after 9999 are not supported");
  EXPECT_EQ(canonical("0001-01-01T00:30:00+01:00"), "refused: years before 0001 are not supported");
  EXPECT_EQ(canonical("2009-04-30T23:59:60Z"),
            "refused: leap seconds (second 60) are not supported");
  EXPECT_EQ(canonical("2009-02-29T00:00:00"), "refused: day 29 of month 2");
  EXPECT_EQ(canonical("2009-04-30T24:00:01"), "refused: hour 24");
  EXPECT_EQ(canonical("2009-04-30T06:38:34+15:00"), "refused: a time zone beyond 14:00");
  EXPECT_EQ(canonical("2009-04-30T06:38:34."), "refused: a '.' without fraction digits");
  EXPECT_EQ(canonical("2009-04-30 06:38:34"), "refused: the time is not Thh:mm:ss");
  EXPECT_EQ(canonical("20091130T22:15:00"), "refused: the date is not YYYY-MM-DD");  // XML-RPC's
  EXPECT_EQ(canonical("02009-01-01T00:00:00"), "refused: the year is not YYYY");
}

}  // namespace
}  // namespace sb::rpc
