// The binary control (binary/): its codec on random, truncated, corrupted and hostile input, and
// its server and client answering the standard calls with the wire bytes a proxy counts
// (tests/round_trip_fixture.h).
#include <gtest/gtest.h>

#include <boost/asio.hpp>

#include <array>
#include <bit>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "codecs/canonical_json.h"
#include "harness/binary/binary_codec.h"
#include "harness/binary/binary_rpc.h"
#include "harness/corpus.h"
#include "tests/round_trip_fixture.h"

namespace sb {
namespace {

using namespace round_trip_test;

// ---------------------------------------------------------------- binary codec

class RandomMessages {
 public:
  explicit RandomMessages(std::uint64_t seed) : rng_(seed) {}

  Message next() {
    Message m;
    switch (rng_() % 3) {
      case 0:
        m.kind = MessageKind::call;
        m.method = text(12);
        for (int i = static_cast<int>(rng_() % 5); i > 0; --i) m.params.push_back(value(0));
        break;
      case 1:
        m.kind = MessageKind::response;
        m.method = text(12);
        m.result = value(0);
        break;
      default:
        m.kind = MessageKind::fault;
        m.fault_code = static_cast<std::int32_t>(rng_());
        m.fault_message = text(40);
    }
    return m;
  }

 private:
  // Any bytes: the binary format carries strings as they are.
  std::string text(std::size_t max) {
    std::string s(rng_() % (max + 1), '\0');
    for (char& c : s) c = static_cast<char>(rng_());
    return s;
  }

  Value value(int depth) {
    const int kind = static_cast<int>(rng_() % (depth < 4 ? 9 : 7));
    switch (kind) {
      case 0:
        return Value();
      case 1:
        return Value::boolean(rng_() & 1);
      case 2:
        return Value::integer(static_cast<std::int32_t>(rng_()));
      case 3:
        return Value::floating(std::bit_cast<double>(static_cast<std::uint64_t>(rng_())));
      case 4:
        return Value::string(text(30));
      case 5: {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d",
                      static_cast<int>(1 + rng_() % 9999), static_cast<int>(1 + rng_() % 12),
                      static_cast<int>(1 + rng_() % 28), static_cast<int>(rng_() % 24),
                      static_cast<int>(rng_() % 60), static_cast<int>(rng_() % 60));
        return Value::datetime(buf);
      }
      case 6:
        return Value::base64(text(30));
      case 7: {
        Value a = Value::array();
        for (int i = static_cast<int>(rng_() % 5); i > 0; --i) a.push(value(depth + 1));
        return a;
      }
      default: {
        Value s = Value::structure();
        for (int i = static_cast<int>(rng_() % 5); i > 0; --i)
          s.add_member(text(8), value(depth + 1));
        return s;
      }
    }
  }

  std::mt19937_64 rng_;  // fixed seed: reproducible failures
};

TEST(BinaryCodec, RandomMessagesRoundTrip) {
  RandomMessages gen(0xb1a5eedULL);
  for (int i = 0; i < 2000; ++i) {
    const Message m = gen.next();
    std::string frame;
    std::string error;
    ASSERT_TRUE(encode_binary_frame(m, frame, error)) << error;
    ASSERT_GE(frame.size(), kBinaryFrameHeader);
    const auto* header = reinterpret_cast<const unsigned char*>(frame.data());
    ASSERT_EQ(read_frame_length(header), frame.size() - kBinaryFrameHeader);
    Message back;
    ASSERT_TRUE(decode_binary(std::string_view(frame).substr(kBinaryFrameHeader), back, error))
        << error;
    EXPECT_EQ(back, m) << "message " << i;
  }
}

TEST(BinaryCodec, RejectsTruncatedAndTrailingBytes) {
  RandomMessages gen(7);
  for (int i = 0; i < 200; ++i) {
    std::string payload;
    std::string error;
    ASSERT_TRUE(encode_binary(gen.next(), payload, error));
    Message out;
    for (std::size_t n = 0; n < payload.size(); ++n) {
      EXPECT_FALSE(decode_binary(std::string_view(payload).substr(0, n), out, error))
          << "prefix " << n << " of " << payload.size();
      EXPECT_FALSE(error.empty());
    }
    EXPECT_FALSE(decode_binary(payload + '\0', out, error));
    EXPECT_NE(error.find("trailing"), std::string::npos) << error;
  }
}

TEST(BinaryCodec, SurvivesCorruption) {
  RandomMessages gen(11);
  std::mt19937_64 rng(13);
  int rejected = 0;
  for (int i = 0; i < 2000; ++i) {
    std::string payload;
    std::string error;
    ASSERT_TRUE(encode_binary(gen.next(), payload, error));
    for (int flips = 1 + static_cast<int>(rng() % 4); flips > 0; --flips) {
      payload[rng() % payload.size()] = static_cast<char>(rng());
    }
    Message out;
    if (!decode_binary(payload, out, error)) {
      ++rejected;
      EXPECT_EQ(error.find('\n'), std::string::npos);
    }
  }
  EXPECT_GT(rejected, 0);
}

TEST(BinaryCodec, RejectsHostileShapes) {
  Message out;
  std::string error;
  // A call claiming 2^32-1 params in a 10-byte payload: refused before any allocation.
  const std::string huge_count("\x00\x00\x00\x00\x00\xff\xff\xff\xff\x00", 10);
  EXPECT_FALSE(decode_binary(huge_count, out, error));
  EXPECT_NE(error.find("count"), std::string::npos) << error;
  // Arrays nested deeper than the limit.
  std::string deep("\x01\x00\x00\x00\x00", 5);  // response, empty method
  for (int i = 0; i <= kBinaryMaxDepth + 1; ++i) deep += std::string("\x07\x01\x00\x00\x00", 5);
  deep += '\0';
  EXPECT_FALSE(decode_binary(deep, out, error));
  EXPECT_NE(error.find("nesting"), std::string::npos) << error;
  // Unknown tags, bad booleans, non-canonical dateTimes, unknown message kinds.
  EXPECT_FALSE(decode_binary(std::string("\x01\x00\x00\x00\x00\x09", 6), out, error));
  EXPECT_FALSE(decode_binary(std::string("\x01\x00\x00\x00\x00\x01\x02", 7), out, error));
  EXPECT_FALSE(decode_binary(std::string("\x01\x00\x00\x00\x00\x05\x03\x00\x00\x00"
                                         "abc",
                                         13),
                             out, error));
  EXPECT_FALSE(decode_binary(std::string("\x03", 1), out, error));
  EXPECT_FALSE(decode_binary({}, out, error));
}

// ---------------------------------------------------------------- binary server and client

class BinaryTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = new BinaryServer(BinaryServerConfig{});
    server_->start();
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  static BinaryClientConfig config() {
    BinaryClientConfig c;
    c.port = server_->port();
    return c;
  }
  static BinaryServer* server_;  // 127.0.0.1, port 0
};

BinaryServer* BinaryTest::server_ = nullptr;

TEST_F(BinaryTest, AnswersTheStandardCalls) {
  BinaryClient client(config());
  int i = 0;
  for (const Case& c : standard_cases()) {
    CallResult r = client.call(c.request);
    ASSERT_TRUE(r.ok) << c.request.method << ": " << r.error;
    EXPECT_EQ(rpc::to_canonical_json(r.response), c.expected);
    EXPECT_EQ(r.connected, i++ == 0);
    EXPECT_GT(r.wire.sent, 0u);
  }
  CallResult r = client.call(call("fail"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(rpc::to_canonical_json(r.response),
            R"({"kind":"fault","code":4,"message":"division by zero"})");
  r = client.call(call("noSuchMethod"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.response.fault_code, rpc::fault::method_not_found);
  r = client.call(standard_cases()[0].request);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(r.connected);
}

TEST_F(BinaryTest, GetChainIsThePreEncodedCorpusDocument) {
  ASSERT_TRUE(server_->has_chain_document());
  const Corpus corpus = Corpus::load(default_corpus_dir());
  const CorpusEntry* entry = corpus.find("jsonrpc/getChain.response.json");
  ASSERT_NE(entry, nullptr);
  BinaryClient client(config());
  CallResult r = client.call(call("getChain"));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(entry->canonical_matches(rpc::to_canonical_json(r.response)));
}

TEST_F(BinaryTest, WireBytesEqualWhatAProxyCounts) {
  for (bool keep_alive : {true, false}) {
    CountingProxy proxy(server_->port());
    BinaryClientConfig c = config();
    c.port = proxy.port();
    c.keep_alive = keep_alive;
    BinaryClient client(c);
    for (int i = 0; i < 5; ++i) {
      const Case k = standard_cases()[static_cast<std::size_t>(i)];
      Observed o = observe(client, proxy, k.request);
      ASSERT_TRUE(o.result.ok) << o.result.error;
      EXPECT_EQ(o.result.connected, !keep_alive || i == 0);
      EXPECT_EQ(o.result.wire.sent, o.up) << k.request.method;
      EXPECT_EQ(o.result.wire.received, o.down) << k.request.method;
    }
    EXPECT_EQ(proxy.connections(), keep_alive ? 1 : 5);
  }
}

TEST_F(BinaryTest, MalformedFramesGetFaults) {
  asio::io_context ioc;
  tcp::socket s(ioc);
  s.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), server_->port()));
  auto exchange = [&](const std::string& frame) {
    asio::write(s, asio::buffer(frame));
    std::array<unsigned char, 4> header;
    asio::read(s, asio::buffer(header));
    std::string payload(read_frame_length(header.data()), '\0');
    asio::read(s, asio::buffer(payload));
    Message m;
    std::string error;
    EXPECT_TRUE(decode_binary(payload, m, error)) << error;
    return m;
  };
  // A corrupted payload: a parse-error fault, and the connection goes on.
  Message m = exchange(std::string("\x02\x00\x00\x00\x00\x09", 6));
  EXPECT_EQ(m.fault_code, rpc::fault::parse_error);
  std::string frame;
  std::string error;
  ASSERT_TRUE(encode_binary_frame(standard_cases()[0].request, frame, error));
  m = exchange(frame);
  EXPECT_EQ(rpc::to_canonical_json(m), standard_cases()[0].expected);
  // A frame over the limit: a fault, then the server closes.
  unsigned char big[4];
  write_frame_length(static_cast<std::uint32_t>(kBinaryMaxFrame + 1), big);
  m = exchange(std::string(reinterpret_cast<char*>(big), 4));
  EXPECT_EQ(m.kind, MessageKind::fault);
  std::array<char, 16> rest;
  error_code ec;
  s.read_some(asio::buffer(rest), ec);
  EXPECT_EQ(ec, asio::error::eof);
}

}  // namespace
}  // namespace sb
