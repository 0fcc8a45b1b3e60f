// xsd:dateTime by XML Schema Part 2's grammar (3.2.7) and XML-RPC's compact date, to the canonical
// text docs/service.md defines (declared in codecs/scalars.h).
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "codecs/scalars.h"

namespace sb::rpc {

namespace {

// The fields of a dateTime as written; `offset` (minutes east of UTC) applies when `zoned`.
struct Fields {
  long year = 0;
  int month = 0, day = 0, hour = 0, minute = 0, second = 0;
  std::string_view fraction;  // the digits after '.', maybe empty
  bool zoned = false;
  int offset = 0;
};

bool refuse(std::string* why, std::string reason) {
  if (why != nullptr) *why = std::move(reason);
  return false;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The number written by the `n` digits at t[0..n), or -1 when they are not all digits.
int number(std::string_view t, std::size_t n) {
  if (t.size() < n) return -1;
  int v = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!is_digit(t[i])) return -1;
    v = v * 10 + (t[i] - '0');
  }
  return v;
}

bool is_leap(long y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int days_in_month(long y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : kDays[m - 1];
}

// Days since 0000-03-01 of a proleptic Gregorian date, and back (H. Hinnant's civil algorithms):
// what applying a time zone or 24:00:00 needs.
long days_from_civil(long y, int m, int d) {
  y -= m <= 2 ? 1 : 0;
  const long era = (y >= 0 ? y : y - 399) / 400;
  const long yoe = y - era * 400;
  const long doy = (153L * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy;
}

void civil_from_days(long z, Fields& f) {
  const long era = (z >= 0 ? z : z - 146096) / 146097;
  const long doe = z - era * 146097;
  const long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const long mp = (5 * doy + 2) / 153;
  f.day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  f.month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  f.year = yoe + era * 400 + (f.month <= 2 ? 1 : 0);
}

bool year_in_range(long year, std::string* why) {
  if (year < 1) return refuse(why, "years before 0001 are not supported");
  if (year > 9999) return refuse(why, "years after 9999 are not supported");
  return true;
}

// "-"? YYYY+ "-" MM "-" DD, or (compact_ok) XML-RPC's YYYYMMDD; `t` advances past it.
bool read_date(std::string_view& t, bool compact_ok, Fields& f, std::string* why) {
  if (compact_ok && t.size() > 8 && t[8] == 'T' && number(t, 8) >= 0) {
    f.year = number(t, 4);
    f.month = number(t.substr(4), 2);
    f.day = number(t.substr(6), 2);
    t.remove_prefix(8);
    return true;
  }
  const bool negative = !t.empty() && t.front() == '-';
  if (negative) t.remove_prefix(1);
  std::size_t n = 0;
  while (n < t.size() && is_digit(t[n])) ++n;
  if (n < 4 || (n > 4 && t.front() == '0')) return refuse(why, "the year is not YYYY");
  if (n == t.size() || t[n] != '-') return refuse(why, "the date is not YYYY-MM-DD");
  if (negative) return refuse(why, "years before 0001 are not supported");
  if (n > 4) return refuse(why, "years after 9999 are not supported");
  f.year = number(t, 4);
  t.remove_prefix(4);
  if (t.size() < 6 || t[0] != '-' || t[3] != '-') return refuse(why, "the date is not YYYY-MM-DD");
  f.month = number(t.substr(1), 2);
  f.day = number(t.substr(4), 2);
  t.remove_prefix(6);
  return true;
}

// "T" hh ":" mm ":" ss ("." s+)? (Z | (+|-) hh ":" mm)? to the end of `t`.
bool read_time(std::string_view t, Fields& f, std::string* why) {
  if (t.size() < 9 || t[0] != 'T' || t[3] != ':' || t[6] != ':') {
    return refuse(why, "the time is not Thh:mm:ss");
  }
  f.hour = number(t.substr(1), 2);
  f.minute = number(t.substr(4), 2);
  f.second = number(t.substr(7), 2);
  t.remove_prefix(9);
  if (!t.empty() && t.front() == '.') {
    std::size_t n = 1;
    while (n < t.size() && is_digit(t[n])) ++n;
    if (n == 1) return refuse(why, "a '.' without fraction digits");
    f.fraction = t.substr(1, n - 1);
    t.remove_prefix(n);
  }
  if (t == "Z") {
    f.zoned = true;
  } else if (!t.empty()) {
    const int zh = number(t.substr(1), 2), zm = t.size() == 6 ? number(t.substr(4), 2) : -1;
    if ((t[0] != '+' && t[0] != '-') || t.size() != 6 || t[3] != ':' || zh < 0 || zm < 0) {
      return refuse(why, "the time zone is not Z or +hh:mm");
    }
    if (zh > 14 || zm > 59 || (zh == 14 && zm > 0)) return refuse(why, "a time zone beyond 14:00");
    f.zoned = true;
    f.offset = (t[0] == '-' ? -1 : 1) * (zh * 60 + zm);
  }
  return f.hour >= 0 && f.minute >= 0 && f.second >= 0;
}

// The fields' own bounds, before any normalisation.
bool check_fields(const Fields& f, std::string* why) {
  if (f.month < 1 || f.month > 12) return refuse(why, "month " + std::to_string(f.month));
  if (f.day < 1 || f.day > days_in_month(f.year, f.month)) {
    return refuse(why, "day " + std::to_string(f.day) + " of month " + std::to_string(f.month));
  }
  const bool end_of_day = f.hour == 24 && f.minute == 0 && f.second == 0 &&
                          f.fraction.find_first_not_of('0') == std::string_view::npos;
  if (f.hour > 23 && !end_of_day) return refuse(why, "hour " + std::to_string(f.hour));
  if (f.minute > 59) return refuse(why, "minute " + std::to_string(f.minute));
  if (f.second == 60) return refuse(why, "leap seconds (second 60) are not supported");
  if (f.second > 59) return refuse(why, "second " + std::to_string(f.second));
  return true;
}

std::optional<std::string> parse(std::string_view text, bool compact_ok, std::string* why) {
  text = trim_xml_space(text);
  Fields f;
  std::string_view t = text;
  if (!read_date(t, compact_ok, f, why)) return std::nullopt;
  if (!read_time(t, f, why)) {
    if (why != nullptr && why->empty()) *why = "the time is not Thh:mm:ss";
    return std::nullopt;
  }
  if (!check_fields(f, why) || !year_in_range(f.year, why)) return std::nullopt;
  // In UTC, 24:00:00 as the next day: minutes since the epoch of days_from_civil, then back.
  const long minutes = days_from_civil(f.year, f.month, f.day) * 1440 + f.hour * 60L + f.minute -
                       (f.zoned ? f.offset : 0);
  const long days = minutes >= 0 ? minutes / 1440 : (minutes - 1439) / 1440;
  const long of_day = minutes - days * 1440;
  civil_from_days(days, f);
  if (!year_in_range(f.year, why)) return std::nullopt;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04ld-%02d-%02dT%02ld:%02ld:%02d", f.year, f.month, f.day,
                of_day / 60, of_day % 60, f.second);
  std::string out(buf);
  const std::size_t last = f.fraction.find_last_not_of('0');
  if (last != std::string_view::npos) out.append(".").append(f.fraction.substr(0, last + 1));
  return out;
}

}  // namespace

std::optional<std::string> parse_xsd_datetime(std::string_view text, std::string* why) {
  return parse(text, false, why);
}

std::optional<std::string> parse_datetime(std::string_view text, std::string* why) {
  return parse(text, true, why);
}

std::optional<std::string> parse_datetime_text(std::string_view text) {
  text = trim_xml_space(text);
  if (text.size() < 19 || text[10] != ' ') return parse_datetime(text);
  std::string iso(text);
  iso[10] = 'T';
  return parse_datetime(iso);
}

bool is_canonical_datetime(std::string_view s) {
  if (s.size() < 19) return false;
  for (std::size_t i = 0; i < 19; ++i) {
    const char want = i == 4 || i == 7 ? '-' : i == 10 ? 'T' : i == 13 || i == 16 ? ':' : '0';
    if (want == '0' ? !is_digit(s[i]) : s[i] != want) return false;
  }
  if (s.size() == 19) return true;
  // ".f": digits, the last one not 0.
  if (s.size() == 20 || s[19] != '.' || s.back() == '0') return false;
  for (char c : s.substr(20)) {
    if (!is_digit(c)) return false;
  }
  return true;
}

std::string datetime_to_xmlrpc(std::string_view c) {
  std::string out;
  out.reserve(17);
  out.append(c.substr(0, 4)).append(c.substr(5, 2)).append(c.substr(8, 2)).append(c.substr(10));
  return out;
}

}  // namespace sb::rpc
