// RapidXML's depth bound before parsing (parsers/rapidxml_prescan.h): the '<' count, the
// pre-scan's reading of the markup, and the stack probe.
#include "parsers/rapidxml_prescan.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <string>

#include "core/message_buffer.h"

namespace sb {
namespace {

using rapidxml_prescan::at_most_lt;
using rapidxml_prescan::pre_scan;
using rapidxml_prescan::recursion_fits_stack;
using rapidxml_prescan::ScanResult;

// A pre-scan's verdict with its stop position as an offset into the input.
struct Verdict {
  ScanResult result;     // what the scan found
  std::ptrdiff_t where;  // offset where it stopped
};

// Pre-scans xml in a MessageBuffer (NUL-terminated, as the adapter's input is).
Verdict scan(const std::string& xml, std::size_t max_depth, bool allow_doctype = false) {
  const MessageBuffer message(xml);
  const char* begin = message.data();
  const auto s = pre_scan(begin, begin + message.size(), max_depth, allow_doctype);
  return {s.result, s.where - begin};
}

// `levels` nested elements, the innermost one written as `innermost`.
std::string nest(std::size_t levels, const std::string& innermost = "<a></a>") {
  std::string out;
  for (std::size_t i = 1; i < levels; ++i) out += "<a>";
  out += innermost;
  for (std::size_t i = 1; i < levels; ++i) out += "</a>";
  return out;
}

TEST(RapidxmlPrescanTest, CountsNestedElements) {
  const std::string xml =
      "<?xml version='1.0'?>\n<a x='1'>text<b><c/>more</b><b>\n<c>t</c></b></a>";
  EXPECT_EQ(scan(xml, 3).result, ScanResult::ok);
  const Verdict v = scan(xml, 2);
  EXPECT_EQ(v.result, ScanResult::too_deep);
  EXPECT_EQ(v.where, static_cast<std::ptrdiff_t>(xml.find("<c/>")));
  // End tags and self-closing elements close their level: siblings do not add up.
  EXPECT_EQ(scan("<a><b/><b/><b></b><b x='y' /></a>", 2).result, ScanResult::ok);
}

TEST(RapidxmlPrescanTest, AcceptsTheLimitAndRefusesOneMore) {
  for (const std::size_t limit :
       {std::size_t{1}, std::size_t{2}, std::size_t{17}, std::size_t{256}}) {
    for (const std::string innermost : {"<a></a>", "<a/>", "<a x='1'/>"}) {
      EXPECT_EQ(scan(nest(limit, innermost), limit).result, ScanResult::ok) << limit << innermost;
      const Verdict over = scan(nest(limit + 1, innermost), limit);
      EXPECT_EQ(over.result, ScanResult::too_deep) << limit << innermost;
      EXPECT_EQ(over.where, static_cast<std::ptrdiff_t>(3 * limit)) << limit << innermost;
    }
  }
}

TEST(RapidxmlPrescanTest, MarkupInCommentsCdataPisAndAttributeValuesIsNotCounted) {
  // Each hides "<b><c>" (two levels) from a limit of 1, as RapidXML skips it.
  EXPECT_EQ(scan("<a><!-- <b><c> --></a>", 1).result, ScanResult::ok);
  EXPECT_EQ(scan("<!-- <b><c> --><a/>", 1).result, ScanResult::ok);
  EXPECT_EQ(scan("<a><![CDATA[<b><c>]]></a>", 1).result, ScanResult::ok);
  EXPECT_EQ(scan("<?pi <b><c> ?><a/>", 1).result, ScanResult::ok);
  EXPECT_EQ(scan("<a><?pi <b><c> ?></a>", 1).result, ScanResult::ok);
  EXPECT_EQ(scan("<a x='<b><c>' y=\"<b><c>\"/>", 1).result, ScanResult::ok);
  // Other "<!...": RapidXML skips to the next '>', so the '<' of "<b>" is skipped with it.
  EXPECT_EQ(scan("<a><!x <b></a>", 1).result, ScanResult::ok);
}

TEST(RapidxmlPrescanTest, QuotedMarkupCannotHideALevel) {
  // A quoted "/>" or '>' does not end the start tag: <b> is still a child of <a>.
  const std::string quoted_close = "<a x='/>'><b/></a>";
  EXPECT_EQ(scan(quoted_close, 2).result, ScanResult::ok);
  EXPECT_EQ(scan(quoted_close, 1).where, static_cast<std::ptrdiff_t>(quoted_close.find("<b")));
  EXPECT_EQ(scan("<a x=\">\"><b/></a>", 1).result, ScanResult::too_deep);
  // Nor does a quoted comment opener hide what follows it.
  EXPECT_EQ(scan("<a x='<!--'><b/><!-- --></a>", 1).result, ScanResult::too_deep);
}

TEST(RapidxmlPrescanTest, DoctypeIsRefusedOrSkippedByPolicy) {
  const std::string xml = "<?xml version='1.0'?><!DOCTYPE a [<!ELEMENT a ANY>]><a><b/></a>";
  const Verdict refused = scan(xml, 8);
  EXPECT_EQ(refused.result, ScanResult::doctype);
  EXPECT_EQ(refused.where, static_cast<std::ptrdiff_t>(xml.find("<!DOCTYPE")));
  // Allowed: skipped with its internal subset ('<' and '>' inside brackets), depth still counted.
  EXPECT_EQ(scan(xml, 2, true).result, ScanResult::ok);
  EXPECT_EQ(scan(xml, 1, true).result, ScanResult::too_deep);
}

TEST(RapidxmlPrescanTest, EmptyAndUnfinishedInputEndsTheScanWithOk) {
  EXPECT_EQ(scan("", 1).result, ScanResult::ok);
  EXPECT_EQ(scan("", 1).where, 0);
  EXPECT_EQ(scan(" \n\t", 1).result, ScanResult::ok);
  // Where RapidXML throws, the scan stops with ok and RapidXML reports the error.
  EXPECT_EQ(scan("<a><b", 2).result, ScanResult::ok);
  EXPECT_EQ(scan("<a><!-- unterminated <b><c>", 1).result, ScanResult::ok);
  EXPECT_EQ(scan("<a x=1><b><c>", 1).result, ScanResult::ok);
}

TEST(RapidxmlPrescanTest, TextRunsOfEveryLengthAroundTheInlineSearch) {
  // find<'<'> tests 16 bytes inline, then calls memchr: runs of 0 to 40 bytes cross that edge.
  for (std::size_t run = 0; run <= 40; ++run) {
    const std::string text(run, 't');
    const std::string xml = "<a>" + text + "<b>" + text + "<c/>" + text + "</b></a>";
    EXPECT_EQ(scan(xml, 3).result, ScanResult::ok) << run;
    EXPECT_EQ(scan(xml, 2).where, static_cast<std::ptrdiff_t>(xml.find("<c/>"))) << run;
  }
}

TEST(RapidxmlPrescanTest, LtCountHonoursTheEndAtEveryLength) {
  // 48 '<' in the buffer; the count must stop at `end` even inside a 16-byte block (the SSE2
  // tail), whatever lies after it.
  const MessageBuffer message(std::string(48, '<'));
  const char* begin = message.data();
  for (std::size_t n = 0; n <= 48; ++n) {
    EXPECT_TRUE(at_most_lt(begin, begin + n, n)) << n;
    if (n > 0) {
      EXPECT_FALSE(at_most_lt(begin, begin + n, n - 1)) << n;
    }
  }
}

TEST(RapidxmlPrescanTest, LtCountOnMixedBytesAndEmptyInput) {
  const MessageBuffer empty(std::string{});
  EXPECT_TRUE(at_most_lt(empty.data(), empty.data(), 0));
  // Lengths around the 16-byte blocks, with '<' every 5th byte: n / 5 + 1 of them for n > 0.
  for (std::size_t n = 1; n <= 70; ++n) {
    std::string bytes(n, 'x');
    for (std::size_t i = 0; i < n; i += 5) bytes[i] = '<';
    const MessageBuffer message(bytes);
    const std::size_t lts = (n - 1) / 5 + 1;
    EXPECT_TRUE(at_most_lt(message.data(), message.data() + n, lts)) << n;
    EXPECT_FALSE(at_most_lt(message.data(), message.data() + n, lts - 1)) << n;
  }
}

TEST(RapidxmlPrescanTest, StackProbeAcceptsSmallAndRefusesHugeMessages) {
  // A few levels fit any thread's stack; 2^40 bytes (up to 2^40 / 3 levels) fit none.
  EXPECT_TRUE(recursion_fits_stack(3));
  EXPECT_FALSE(recursion_fits_stack(std::size_t{1} << 40));
}

}  // namespace
}  // namespace sb
