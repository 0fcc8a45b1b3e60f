// Status (core/status.h): reasons are valid UTF-8 whatever bytes a library quotes.
#include "core/status.h"

#include <gtest/gtest.h>

#include <string>

namespace sb {
namespace {

TEST(StatusTest, ValidUtf8ReasonsAreKept) {
  const std::string text = "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \xF4\x8F\xBF\xBF";
  EXPECT_TRUE(is_valid_utf8(text));
  EXPECT_EQ(Status::malformed(text).reason(), text);
}

TEST(StatusTest, InvalidBytesBecomeReplacementCharacters) {
  const std::string fffd = "\xEF\xBF\xBD";
  // nlohmann/json's "last read" of a cut sequence, an overlong '/', a surrogate, a byte past
  // U+10FFFF's range and a lone continuation byte: each bad byte is one U+FFFD.
  EXPECT_EQ(Status::malformed("last read: 'Hello\xE6\x97'").reason(),
            "last read: 'Hello" + fffd + fffd + "'");
  EXPECT_EQ(Status::limit("\xC0\xAF").reason(), fffd + fffd);
  EXPECT_EQ(Status::invalid("\xED\xA0\x80").reason(), fffd + fffd + fffd);
  EXPECT_EQ(Status::malformed("\xF4\x90\x80\x80!").reason(), fffd + fffd + fffd + fffd + "!");
  EXPECT_EQ(Status::malformed("a\x80").reason(), "a" + fffd);
  EXPECT_FALSE(is_valid_utf8("a\x80"));
  EXPECT_TRUE(is_valid_utf8(Status::malformed("a\x80").describe()));
}

}  // namespace
}  // namespace sb
