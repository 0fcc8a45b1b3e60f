// What the Boost.JSON adapters share: correctly rounded doubles and the version string.
//
// Boost.JSON 1.81 converts a number by multiplying its decimal significand (as a double) by a
// power of ten from a table: exact only for up to 15-16 digits and exponents within ±22. On 1e6
// shortest-form doubles drawn like the corpus's (uniform in ±1e6, 16-17 digits) it differs from
// strtod on 10.4% of them, and the Digest hashes the IEEE bits of every double (the library's
// precise mode, parse_options::numbers, arrived in Boost 1.83). Its handlers also get the
// number's text, which the adapters read again here. Boost also reads 1e999999 as infinity
// without an error; here it is refused like every other adapter refuses it.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>
#include <system_error>

#include <boost/version.hpp>

namespace sb {

// The double nearest to the JSON number `text` in `out`; false when it is beyond double.
inline bool boostjson_precise_double(std::string_view text, double& out) {
  const char* last = text.data() + text.size();
  const std::from_chars_result r = std::from_chars(text.data(), last, out);
  if (r.ec == std::errc() && r.ptr == last) return true;
  // Out of range: strtod gives underflow as 0 or a subnormal, overflow as infinity.
  out = std::strtod(std::string(text).c_str(), nullptr);
  return std::isfinite(out);
}

// The reason given for a number that boostjson_precise_double refuses.
inline constexpr std::string_view kBoostjsonNumberRange = "number out of the range of double";

// "1.81.0" from BOOST_VERSION (Boost.JSON has no version of its own).
inline std::string boostjson_version() {
  return std::to_string(BOOST_VERSION / 100000) + "." + std::to_string(BOOST_VERSION / 100 % 1000) +
         "." + std::to_string(BOOST_VERSION % 100);
}

}  // namespace sb
