// The decode-level markup guard (parsers/markup_guard.h) and the codec's matching bounds.
#include "parsers/markup_guard.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/every_adapter_rejects.h"

namespace sb {
namespace {

std::string element_with(std::size_t attributes, std::size_t value_bytes = 0) {
  std::string out = "<r";
  for (std::size_t i = 0; i < attributes; ++i) {
    out += " a" + std::to_string(i) + "=\"" + std::string(value_bytes, 'v') + "\"";
  }
  return out + "/>";
}

TEST(MarkupGuardTest, CountsAttributesPerStartTag) {
  Limits limits;
  limits.max_attributes = 3;
  EXPECT_TRUE(check_markup_limits(element_with(3), limits).ok());
  const Status over = check_markup_limits(element_with(4), limits);
  EXPECT_EQ(over.code(), StatusCode::limit);
  EXPECT_NE(over.reason().find("more than 3 attributes"), std::string::npos) << over.reason();
  // Per element, not per document.
  EXPECT_TRUE(check_markup_limits("<a x='1' y='2'><b x='1' y='2' z='3'/></a>", limits).ok());
}

TEST(MarkupGuardTest, QuotesCommentsCdataAndPisDoNotFoolIt) {
  Limits limits;
  limits.max_attributes = 2;
  // '>' and the other quote inside a value do not end the tag early.
  EXPECT_EQ(check_markup_limits("<r a='>\"' b=\"'>\" c='x'/>", limits).code(), StatusCode::limit);
  // Quotes outside start tags are not attributes.
  EXPECT_TRUE(check_markup_limits(
                  "<?xml version='1.0' encoding='UTF-8'?><!-- a='1' b='2' c='3' --><r a='1'>"
                  "<![CDATA[<x a='1' b='2' c='3'/>]]> \"'\"'\"' </r>",
                  limits)
                  .ok());
}

TEST(MarkupGuardTest, BoundsAttributeValueLength) {
  Limits limits;
  limits.max_attribute_bytes = 8;
  EXPECT_TRUE(check_markup_limits(element_with(1, 8), limits).ok());
  const Status s = check_markup_limits(element_with(1, 9), limits);
  EXPECT_EQ(s.code(), StatusCode::limit);
  EXPECT_NE(s.reason().find("longer than 8 bytes"), std::string::npos) << s.reason();
}

TEST(MarkupGuardTest, ThresholdSkipsOnlyMessagesThatCannotBreakABound) {
  Limits limits;
  limits.max_attributes = 10;
  // The shortest element with more than 10 attributes is longer than the threshold.
  std::string smallest = "<r";
  for (int i = 0; i < 11; ++i) smallest += std::string(1, static_cast<char>('a' + i)) + "=''";
  smallest += "/>";
  EXPECT_GE(smallest.size(), markup_guard_threshold(limits));
  EXPECT_EQ(check_markup_limits(smallest, limits).code(), StatusCode::limit);
}

// Every XML adapter rejects the same over-bound message at the decode level, whether its library
// is guarded before parsing or the codec counts from the events.
TEST(MarkupGuardTest, EveryXmlAdapterRejectsAtDecode) {
  Limits limits;
  limits.max_attributes = 4;
  const std::string message =
      "<?xml version='1.0'?><methodCall><methodName>add</methodName><params><param>"
      "<value a='1' b='2' c='3' d='4' e='5'><int>1</int></value></param></params></methodCall>";
  const int adapters_checked =
      expect_every_adapter_rejects(Format::xml, limits, message, "more than 4 attributes");
  EXPECT_GE(adapters_checked, 10);
}

}  // namespace
}  // namespace sb
