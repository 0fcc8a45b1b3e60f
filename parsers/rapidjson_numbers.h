// A correction for RapidJSON 1.1.0's full-precision number parsing, shared by its adapters.
//
// With kParseFullPrecisionFlag, a number whose significand is zero but whose decimal exponent is
// outside the fast path ("-0e99", "0e-30", "0.000…0" with 23+ zeros) goes through DiyFp
// normalisation of 0: clz(0), undefined behaviour, and a garbage result ("-0e99" parses as
// -6.53996952628337e+296). Found by the fuzz_decode smoke (UBSan: "passing zero to clz()");
// tests/decode_test.cpp holds the inputs. RapidJSON parses a number on a local copy of the string
// stream and writes the position back afterwards, so while the Handler's Double() runs, the
// stream's src_ still points at the number's first character.
#pragma once

namespace sb {

// `d` as RapidJSON parsed the number whose text starts at `number`; ±0 when that text's
// significand has no non-zero digit.
inline double rapidjson_corrected_double(double d, const char* number) {
  if (d == 0.0) return d;
  const bool negative = *number == '-';
  const char* p = number + (negative ? 1 : 0);
  if (*p < '0' || *p > '9') return d;  // not at a number: leave RapidJSON's value
  for (; (*p >= '0' && *p <= '9') || *p == '.'; ++p) {
    if (*p != '0' && *p != '.') return d;  // a non-zero significand: RapidJSON is right
  }
  return negative ? -0.0 : 0.0;
}

}  // namespace sb
