// Conversions between one generated binding's types and the contract's values (codecs/value.h).
// Included by the per-binding sources after the generated header, inside namespace SB_GSOAP_NS:
// the same code serves every binding, whose array types differ (encoded: __ptr/__size in the soap
// context; literal: std::vector item).
#pragma once

#include <ctime>
#include <string>
#include <type_traits>

#include "codecs/scalars.h"
#include "codecs/value.h"

namespace SB_GSOAP_NS {

using sb::rpc::Kind;
using sb::rpc::Value;

// A SOAP-encoded (pointer and size) array type rather than a literal (vector) one.
template <class A>
constexpr bool kEncodedArray = requires(A a) {
  a.__ptr;
};

// A generated array type (of either form).
template <class A>
concept ArrayType = requires(A a) {
  a.__ptr;
  a.__size;
}
|| requires(A a) { a.item.size(); };

// n elements allocated in the soap context (freed by soap_end / soap_destroy).
inline int* new_items(soap* s, int n, int*) {
  return static_cast<int*>(soap_malloc(s, sizeof(int) * n));
}
inline double* new_items(soap* s, int n, double*) {
  return static_cast<double*>(soap_malloc(s, sizeof(double) * n));
}
inline std::string* new_items(soap* s, int n, std::string*) { return soap_new_std__string(s, n); }
inline ns__Person* new_items(soap* s, int n, ns__Person*) { return soap_new_ns__Person(s, n); }
inline ns__PersonIn* new_items(soap* s, int n, ns__PersonIn*) {
  return soap_new_ns__PersonIn(s, n);
}
inline ns__ChainStep* new_items(soap* s, int n, ns__ChainStep*) {
  return soap_new_ns__ChainStep(s, n);
}

// The elements of an array and their count.
template <class A>
auto* items(const A& a) {
  if constexpr (kEncodedArray<A>) {
    return a.__ptr;
  } else {
    return a.item.data();
  }
}
template <class A>
int count(const A& a) {
  if constexpr (kEncodedArray<A>) {
    return a.__ptr != nullptr ? a.__size : 0;
  } else {
    return static_cast<int>(a.item.size());
  }
}

// Makes a hold n default elements; returns the first.
template <class A>
auto* resize(soap* s, A& a, int n) {
  if constexpr (kEncodedArray<A>) {
    a.__size = n;
    a.__ptr = n > 0 ? new_items(s, n, a.__ptr) : nullptr;
    return a.__ptr;
  } else {
    a.item.resize(static_cast<std::size_t>(n));
    return a.item.data();
  }
}

// "YYYY-MM-DDThh:mm:ss" of a time_t (UTC).
inline std::string datetime_text(time_t t) {
  std::tm utc{};
  gmtime_r(&t, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &utc);
  return buf;
}

// The time_t of a dateTime text (ISO 8601 or str(datetime)'s form); false when it is none.
inline bool parse_time(const std::string& text, time_t& out) {
  const auto iso = sb::rpc::parse_datetime_text(text);
  if (!iso) return false;
  std::tm tm{};
  if (std::sscanf(iso->c_str(), "%d-%d-%dT%d:%d:%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                  &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6) {
    return false;
  }
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  out = timegm(&tm);
  return true;
}

// ---- generated types -> values
inline Value to_value(int v) { return Value::integer(v); }
inline Value to_value(double v) { return Value::floating(v); }
inline Value to_value(bool v) { return Value::boolean(v); }
inline Value to_value(const std::string& v) { return Value::string(v); }
inline Value time_value(time_t t) { return Value::datetime(datetime_text(t)); }
inline Value to_value(const xsd__base64Binary& v) {
  return Value::base64(v.__ptr != nullptr ? std::string(reinterpret_cast<const char*>(v.__ptr),
                                                        static_cast<std::size_t>(v.__size))
                                          : std::string());
}
Value to_value(const ns__Person& p);
Value to_value(const ns__PersonIn& p);
Value to_value(const ns__ChainStep& c);
Value to_value(const ns__Document& d);
template <ArrayType A>
Value to_value(const A& a) {
  Value out = Value::array();
  const auto* p = items(a);
  for (int i = 0; i < count(a); ++i) out.push(to_value(p[i]));
  return out;
}

// ---- values -> generated types (client params)
inline void from_value(soap*, const Value& v, int& out) { out = v.as_int(); }
inline void from_value(soap*, const Value& v, double& out) {
  out = v.kind() == Kind::integer ? v.as_int() : v.as_double();
}
inline void from_value(soap*, const Value& v, bool& out) { out = v.as_bool(); }
inline void from_value(soap*, const Value& v, std::string& out) { out = v.text(); }
void from_value(soap* s, const Value& v, xsd__base64Binary& out);
void from_value(soap* s, const Value& v, ns__PersonIn& out);
template <ArrayType A>
void from_value(soap* s, const Value& v, A& out) {
  auto* p = resize(s, out, v.kind() == Kind::array ? static_cast<int>(v.items().size()) : 0);
  for (int i = 0; i < count(out); ++i) from_value(s, v.items()[static_cast<std::size_t>(i)], p[i]);
}

// The getChain result the server returns (Binding::load_chain stores it), or nullptr.
const ArrayOfChainStep*& stored_chain();

}  // namespace SB_GSOAP_NS
