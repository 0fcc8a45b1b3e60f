// Canonical JSON pieces against Python: format_double is repr(float), append_json_string is
// json.dumps(s, ensure_ascii=False). Expected strings were computed once with /usr/bin/python3
// (3.11) and pasted here, so the test needs no Python.
#include <gtest/gtest.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>

#include "codecs/canonical_json.h"

namespace sb {
namespace {

struct DoubleCase {
  double value;           // the C++ literal (parsed correctly rounded, as Python does)
  std::string_view repr;  // Python's repr(float(literal))
};

// Tricky values: the fixed/exponent switch at 1e-4 and 1e16, shortest digits, subnormals, the
// extremes, the sign of zero, integers beyond 2^53.
constexpr DoubleCase kReprTable[] = {
    {0.1, "0.1"},
    {1e16, "1e+16"},
    {1e15, "1000000000000000.0"},
    {123456789012345680.0, "1.2345678901234568e+17"},
    {1e-05, "1e-05"},
    {0.0001, "0.0001"},
    {5e-324, "5e-324"},
    {1.7976931348623157e308, "1.7976931348623157e+308"},
    {-0.0, "-0.0"},
    {100.0, "100.0"},
    {1e22, "1e+22"},
    {2.5e-07, "2.5e-07"},
    {0.0, "0.0"},
    {1.0, "1.0"},
    {-1.5, "-1.5"},
    {2.2250738585072014e-308, "2.2250738585072014e-308"},
    {2.225073858507201e-308, "2.225073858507201e-308"},
    {9007199254740993.0, "9007199254740992.0"},
    {1e21, "1e+21"},
    {9.999999999999999e-05, "9.999999999999999e-05"},
    {9999999999999998.0, "9999999999999998.0"},
    {12345678901234567.0, "1.2345678901234568e+16"},
    {0.3, "0.3"},
    {123.456, "123.456"},
    {1e100, "1e+100"},
    {-1e-300, "-1e-300"},
    {1e-300, "1e-300"},
    {4.35, "4.35"},
    {1e-07, "1e-07"},
    {0.5, "0.5"},
    {3.141592653589793, "3.141592653589793"},
    {1e23, "1e+23"},
    {1.5e-323, "1.5e-323"},
    {9.999999999999999e22, "1e+23"},
    {1234567890123456.8, "1234567890123456.8"},
    {0.001, "0.001"},
    {123456789.0, "123456789.0"},
    {-123456789012345.6, "-123456789012345.6"},
    {99999999999999990.0, "9.999999999999998e+16"},
    {1.0000000000000002, "1.0000000000000002"},
    {0.30000000000000004, "0.30000000000000004"},
    {7e-10, "7e-10"},
    {-2.5e+300, "-2.5e+300"},
};

TEST(CanonicalJson, FormatDoubleMatchesPythonRepr) {
  for (const DoubleCase& c : kReprTable) {
    EXPECT_EQ(rpc::format_double(c.value), c.repr) << "expected " << c.repr;
  }
}

TEST(CanonicalJson, FormatDoubleSpecialsAsJsonDumps) {
  EXPECT_EQ(rpc::format_double(std::nan("")), "NaN");
  EXPECT_EQ(rpc::format_double(HUGE_VAL), "Infinity");
  EXPECT_EQ(rpc::format_double(-HUGE_VAL), "-Infinity");
}

// 100,000 random bit patterns (every finite double is equally likely to be drawn by its bits,
// so subnormals, huge and tiny exponents all appear): the text parses back to the same bits and
// always reads as a float in JSON (a '.' or an exponent).
TEST(CanonicalJson, FormatDoubleRoundTripsRandomBits) {
  std::mt19937_64 rng(20240611);
  int checked = 0;
  while (checked < 100000) {
    const double d = std::bit_cast<double>(rng());
    if (!std::isfinite(d)) continue;
    const std::string s = rpc::format_double(d);
    double back = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), back);
    ASSERT_EQ(r.ec, std::errc()) << s;
    ASSERT_EQ(r.ptr, s.data() + s.size()) << s;
    ASSERT_EQ(std::bit_cast<std::uint64_t>(back), std::bit_cast<std::uint64_t>(d)) << s;
    ASSERT_NE(s.find_first_of(".e"), std::string::npos) << s;
    ++checked;
  }
}

std::string json_string(std::string_view s) {
  std::string out;
  rpc::append_json_string(out, s);
  return out;
}

// Hand-checked against json.dumps(s, ensure_ascii=False).
TEST(CanonicalJson, AppendJsonStringEscapes) {
  EXPECT_EQ(json_string(""), R"("")");
  EXPECT_EQ(json_string(R"(a"b\c)"), R"("a\"b\\c")");
  EXPECT_EQ(json_string("\n\r\t\b\f"), R"("\n\r\t\b\f")");
  EXPECT_EQ(json_string("\x01\x1f"), R"("\u0001\u001f")");
  EXPECT_EQ(json_string(std::string_view("a\0b", 3)), R"("a\u0000b")");
  EXPECT_EQ(json_string("\x7f"), "\"\x7f\"");  // DEL is not a JSON control character
  EXPECT_EQ(json_string("/"), R"("/")");       // no \/ (Python does not write it)
  EXPECT_EQ(json_string("é中😀"), "\"é中😀\"");  // non-ASCII raw (ensure_ascii=False)
  EXPECT_EQ(json_string("\u2028"), "\"\u2028\"");
  EXPECT_EQ(json_string("<&>]]>'"), R"("<&>]]>'")");
}

}  // namespace
}  // namespace sb
