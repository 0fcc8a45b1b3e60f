// The Digest builders against values computed independently (Python, docs/corpus.md rules).
#include <gtest/gtest.h>

#include <string>

#include "core/digest.h"

namespace sb {
namespace {

TEST(XmlDigest, CoalescesTextSortsAttributesDropsXmlns) {
  XmlDigestBuilder b;
  b.reset();
  const XmlAttribute root_attrs[] = {{"xmlns:p", "u"}, {"p:x", "1&2"}, {"b", "y"}};
  b.start_element("a", root_attrs);
  b.text("hi <");  // text split in pieces, as a SAX parser delivers it
  b.text("x");
  b.start_element("b", {});
  b.end_element("b");
  b.text(" \n\t");  // whitespace only: dropped
  b.end_element("a");
  const Digest d = b.finish();
  EXPECT_EQ(d.elements, 2u);
  EXPECT_EQ(d.attributes, 2u);
  EXPECT_EQ(d.text_bytes, 5u);
  // /usr/bin/python3: xxhash.xxh3_64_hexdigest(b'Sa\0Ab\0y\0Ap:x\0' b'1&2\0Thi <x\0Sb\0Eb\0Ea\0')
  EXPECT_EQ(d.to_json(),
            R"({"elements":2,"attributes":2,"text_bytes":5,"hash":"30bf25003bb57975"})");
}

TEST(XmlDigest, ResetStartsOver) {
  XmlDigestBuilder b;
  b.reset();
  b.start_element("x", {});
  b.end_element("x");
  const Digest first = b.finish();
  b.reset();
  b.start_element("x", {});
  b.end_element("x");
  EXPECT_EQ(b.finish(), first);
}

TEST(JsonDigest, NumbersByKind) {
  JsonDigestBuilder b;
  b.reset();
  b.start_object();
  b.key("a");
  b.int_value(1);
  b.key("b");
  b.double_value(1.5);
  b.key("c");
  b.start_array();
  b.string_value("x");
  b.bool_value(true);
  b.null_value();
  b.end_array();
  b.end_object();
  const Digest d = b.finish();
  // python: s = b'{Ka\0I' + (1).to_bytes(8,'little') + b'Kb\0D' + struct.pack('<d',1.5)
  //            + b'Kc\0[Sx\0tn]}'
  EXPECT_EQ(
      d.to_json(),
      R"({"objects":1,"arrays":1,"keys":3,"strings":1,"numbers":2,"string_bytes":4,"hash":"d2e401af9f1c0802"})");
}

// Streams longer than the builder's 4 KiB buffer are hashed in chunks; the value must be the
// one-shot XXH3 of the whole stream, wherever the chunk boundaries fall.
TEST(XmlDigest, LongStreamsHashAsOne) {
  XmlDigestBuilder b;
  for (int round = 0; round < 2; ++round) {  // the second round reuses the streaming state
    b.reset();
    b.start_element("a", {});
    b.text(std::string(10000, 'x'));  // one piece longer than the buffer
    for (int i = 0; i < 1000; ++i) {  // small pieces across chunk boundaries
      b.start_element("b", {});
      b.end_element("b");
    }
    b.end_element("a");
    // python: xxh3_64_hexdigest(b'Sa\0T' + b'x'*10000 + b'\0' + b'Sb\0Eb\0'*1000 + b'Ea\0')
    EXPECT_EQ(b.finish().to_json(),
              R"({"elements":1001,"attributes":0,"text_bytes":10000,"hash":"72596b9e9b986157"})");
  }
  b.reset();  // and a short stream after a long one is hashed on its own again
  b.start_element("a", {});
  b.text("hi <");
  b.text("x");
  b.end_element("a");
  // python: xxh3_64_hexdigest(b'Sa\0Thi <x\0Ea\0')
  EXPECT_EQ(b.finish().hash, 0xfdbcc76689d8f0d4ULL);
}

}  // namespace
}  // namespace sb
