// The contract's canonical JSON (docs/service.md "Canonical JSON"), as `soapbench call` prints it,
// for every JVM client (one writer, so axis_client and jaxws_client cannot drift apart): Python's
// json.dumps(value, ensure_ascii=False, separators=(",", ":")). A double is written as Python's
// repr (shortest round-trip digits, positional for exponents -4..15), a string escapes only '"',
// '\' and control characters, dateTime and base64 are {"$dateTime":"…"} (UTC, whole seconds) and
// {"$base64":"…"}, arrays and Lists are lists, a Map is an object. A type it does not know (a
// client's beans) goes through the client's `plain` hook, which makes it a Map or a List. The
// output is UTF-8 whatever the locale (utf8Stdout), as json.dumps' text encoded.
package soapbench.common;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Calendar;
import java.util.GregorianCalendar;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.function.UnaryOperator;
import javax.xml.datatype.DatatypeConstants;
import javax.xml.datatype.XMLGregorianCalendar;

public final class CanonicalJson {
  private CanonicalJson() {}

  // The hook of a client without beans of its own: every unknown type is an error.
  public static final UnaryOperator<Object> NO_BEANS = v -> {
    throw new IllegalArgumentException("no canonical JSON for a " + v.getClass().getName());
  };

  private static final TimeZone UTC = TimeZone.getTimeZone("UTC");

  // System.out as UTF-8 (JDK 17 encodes it in the locale's charset: '?' for every non-ASCII
  // character when LANG is unset or C), flushed at each line as the JDK's own.
  public static void utf8Stdout() {
    System.setOut(new PrintStream(
        new BufferedOutputStream(new FileOutputStream(FileDescriptor.out)), true,
        StandardCharsets.UTF_8));
  }

  // {"kind":"response","method":M,"result":V}; `plain` turns the client's beans into Maps/Lists.
  public static String response(String method, Object result, UnaryOperator<Object> plain) {
    StringBuilder out = new StringBuilder("{\"kind\":\"response\",\"method\":");
    string(out, method);
    out.append(",\"result\":");
    value(out, result, plain);
    return out.append('}').toString();
  }

  // {"kind":"fault","code":C,"message":S} (a missing message as "").
  public static String fault(int code, String message) {
    StringBuilder out = new StringBuilder("{\"kind\":\"fault\",\"code\":").append(code);
    out.append(",\"message\":");
    string(out, message == null ? "" : message);
    return out.append('}').toString();
  }

  // `v`'s canonical JSON appended to `out`.
  public static void value(StringBuilder out, Object v, UnaryOperator<Object> plain) {
    if (v == null) {
      out.append("null");
    } else if (v instanceof Integer || v instanceof Long || v instanceof Short
        || v instanceof Boolean) {
      out.append(v);
    } else if (v instanceof Double || v instanceof Float) {
      out.append(pythonRepr(((Number) v).doubleValue()));
    } else if (v instanceof String) {
      string(out, (String) v);
    } else if (v instanceof Calendar) {
      dateTime(out, (Calendar) v);
    } else if (v instanceof XMLGregorianCalendar) {
      dateTime(out, (XMLGregorianCalendar) v);
    } else if (v instanceof byte[]) {
      out.append("{\"$base64\":\"").append(Base64.getEncoder().encodeToString((byte[]) v));
      out.append("\"}");
    } else if (v instanceof List) {
      list(out, ((List<?>) v).toArray(), plain);
    } else if (v.getClass().isArray()) {
      Object[] items = new Object[Array.getLength(v)];
      for (int i = 0; i < items.length; ++i) items[i] = Array.get(v, i);
      list(out, items, plain);
    } else if (v instanceof Map) {
      object(out, (Map<?, ?>) v, plain);
    } else {
      Object p = plain.apply(v);
      if (p == null || p.getClass() == v.getClass())
        throw new IllegalArgumentException("no canonical JSON for a " + v.getClass().getName());
      value(out, p, plain);
    }
  }

  private static void list(StringBuilder out, Object[] items, UnaryOperator<Object> plain) {
    out.append('[');
    for (int i = 0; i < items.length; ++i) {
      if (i > 0) out.append(',');
      value(out, items[i], plain);
    }
    out.append(']');
  }

  // A struct: its members in the Map's order (a LinkedHashMap in the contract's).
  private static void object(StringBuilder out, Map<?, ?> members, UnaryOperator<Object> plain) {
    out.append('{');
    boolean first = true;
    for (Map.Entry<?, ?> e : members.entrySet()) {
      if (!(e.getKey() instanceof String))
        throw new IllegalArgumentException("a struct member named by a non-string: " + e.getKey());
      if (!first) out.append(',');
      first = false;
      string(out, (String) e.getKey());
      out.append(':');
      value(out, e.getValue(), plain);
    }
    out.append('}');
  }

  // A Calendar's instant in UTC, whole seconds; Gregorian (Julian before 1582), as Axis read it.
  private static void dateTime(StringBuilder out, Calendar c) {
    Calendar u = new GregorianCalendar(UTC);
    u.setTimeInMillis(c.getTimeInMillis());
    dateTime(out, u.get(Calendar.YEAR), u.get(Calendar.MONTH) + 1, u.get(Calendar.DAY_OF_MONTH),
        u.get(Calendar.HOUR_OF_DAY), u.get(Calendar.MINUTE), u.get(Calendar.SECOND));
  }

  // An xsd:dateTime: moved to UTC when it has a time zone (the contract's have none, or Z), whole
  // seconds.
  private static void dateTime(StringBuilder out, XMLGregorianCalendar c) {
    if (c.getTimezone() != DatatypeConstants.FIELD_UNDEFINED) c = c.normalize();
    int[] fields = {c.getYear(), c.getMonth(), c.getDay(), c.getHour(), c.getMinute(),
        c.getSecond()};
    for (int f : fields) {
      if (f == DatatypeConstants.FIELD_UNDEFINED)
        throw new IllegalArgumentException("not a dateTime: " + c.toXMLFormat());
    }
    dateTime(out, fields[0], fields[1], fields[2], fields[3], fields[4], fields[5]);
  }

  // {"$dateTime":"YYYY-MM-DDTHH:MM:SS"}, ASCII digits whatever the locale.
  private static void dateTime(StringBuilder out, int year, int month, int day, int hour,
      int minute, int second) {
    out.append("{\"$dateTime\":\"");
    digits(out, year, 4).append('-');
    digits(out, month, 2).append('-');
    digits(out, day, 2).append('T');
    digits(out, hour, 2).append(':');
    digits(out, minute, 2).append(':');
    digits(out, second, 2).append("\"}");
  }

  private static StringBuilder digits(StringBuilder out, int n, int width) {
    String s = Integer.toString(n);
    for (int i = s.length(); i < width; ++i) out.append('0');
    return out.append(s);
  }

  // A JSON string as json.dumps(ensure_ascii=False) writes it: '"', '\' and the control
  // characters escaped (\n \r \t \b \f, else as a "u" escape in lowercase hex), everything
  // else as it is.
  public static void string(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); ++i) {
      char c = s.charAt(i);
      switch (c) {
        case '"': out.append("\\\""); break;
        case '\\': out.append("\\\\"); break;
        case '\n': out.append("\\n"); break;
        case '\r': out.append("\\r"); break;
        case '\t': out.append("\\t"); break;
        case '\b': out.append("\\b"); break;
        case '\f': out.append("\\f"); break;
        default:
          if (c < 0x20) out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xf]);
          else out.append(c);
      }
    }
    out.append('"');
  }

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  // Python's repr(float) (json.dumps' NaN, Infinity, -Infinity for the others): the shortest
  // digits that read back as `d`, the nearest to it among those; positional for decimal exponents
  // -4..15 (".0" when whole), else d.ddde+XX. Not Double.toString: before JDK 19 it is not always
  // the shortest (1e23 as 9.999999999999999E22, 5e-324 as 4.9E-324; JDK-4511638), and it
  // switches to an exponent at 1e7.
  public static String pythonRepr(double d) {
    if (Double.isNaN(d)) return "NaN";
    if (Double.isInfinite(d)) return d > 0 ? "Infinity" : "-Infinity";
    if (d == 0) return (1 / d < 0) ? "-0.0" : "0.0";
    BigDecimal shortest = shortest(Math.abs(d));
    String digits = shortest.unscaledValue().toString().replaceAll("0+$", "");
    int exponent = shortest.precision() - shortest.scale() - 1; // d.ddd x 10^exponent
    String sign = d < 0 ? "-" : "";
    if (exponent < -4 || exponent >= 16) {
      String mantissa =
          digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
      return sign + mantissa + "e" + (exponent < 0 ? "-" : "+")
          + (Math.abs(exponent) < 10 ? "0" : "") + Math.abs(exponent);
    }
    String plain = new BigDecimal(new BigInteger(digits), digits.length() - 1 - exponent)
        .toPlainString();
    return sign + (plain.contains(".") ? plain : plain + ".0");
  }

  // The fewest significant digits that read back as `d` (> 0), the nearest to it among those.
  // Fast path: a normal double has at most one decimal of 15 digits or fewer that reads back as
  // it (15 digits always survive decimal -> double -> decimal), so Double.toString's digits are
  // the answer when they are that short and read back. Else a binary search on the precision
  // (a precision that reads back stays so with more digits) over the exact value's roundings.
  private static BigDecimal shortest(double d) {
    if (d >= Double.MIN_NORMAL) {
      BigDecimal fast = new BigDecimal(Double.toString(d)).stripTrailingZeros();
      if (fast.precision() <= 15 && fast.doubleValue() == d) return fast;
    }
    BigDecimal exact = new BigDecimal(d);
    int lo = 1;
    int hi = 17; // 17 digits always read back
    while (lo < hi) {
      int mid = (lo + hi) / 2;
      if (readsBack(exact, d, mid) != null) hi = mid;
      else lo = mid + 1;
    }
    return lo == 17 ? exact.round(new MathContext(17, RoundingMode.HALF_EVEN))
                    : readsBack(exact, d, lo);
  }

  // The p-digit decimal nearest `exact` that reads back as `d`, or null. Both neighbours are
  // tried: the nearest alone misses where the double's rounding interval is lopsided (at powers
  // of two, 2^-44 as 5.684341886080802e-14); a tie goes to the even last digit.
  private static BigDecimal readsBack(BigDecimal exact, double d, int p) {
    BigDecimal down = exact.round(new MathContext(p, RoundingMode.DOWN));
    BigDecimal up = exact.round(new MathContext(p, RoundingMode.UP));
    boolean downOk = down.doubleValue() == d;
    boolean upOk = up.doubleValue() == d;
    if (downOk && upOk) {
      int c = exact.subtract(down).compareTo(up.subtract(exact));
      if (c != 0) return c < 0 ? down : up;
      return exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
    }
    return downOk ? down : upOk ? up : null;
  }
}
