// Canonical JSON of a decoded message (docs/service.md "Canonical JSON"), as `soapbench call`
// prints it, for the JVM clients: int, double (always a '.' or an exponent), bool, string
// (escaping only '"', '\' and control characters), null, dateTime {"$dateTime":"…"} (UTC, whole
// seconds), base64 {"$base64":"…"}, arrays as lists, structs as objects (a LinkedHashMap, members
// in the contract's order: the client turns its beans into one).
package soapbench.common;

import java.lang.reflect.Array;
import java.text.SimpleDateFormat;
import java.util.Base64;
import java.util.Calendar;
import java.util.Map;
import java.util.TimeZone;

public final class CanonicalJson {
  private CanonicalJson() {}

  // {"kind":"response","method":M,"result":V}
  public static String response(String method, Object result) {
    StringBuilder out = new StringBuilder("{\"kind\":\"response\",\"method\":");
    string(out, method);
    out.append(",\"result\":");
    value(out, result);
    return out.append('}').toString();
  }

  // {"kind":"fault","code":C,"message":S}
  public static String fault(int code, String message) {
    StringBuilder out = new StringBuilder("{\"kind\":\"fault\",\"code\":").append(code);
    out.append(",\"message\":");
    string(out, message == null ? "" : message);
    return out.append('}').toString();
  }

  public static void value(StringBuilder out, Object v) {
    if (v == null) {
      out.append("null");
    } else if (v instanceof Integer || v instanceof Long || v instanceof Short) {
      out.append(v);
    } else if (v instanceof Double || v instanceof Float) {
      out.append(number(((Number) v).doubleValue()));
    } else if (v instanceof Boolean) {
      out.append(v);
    } else if (v instanceof String) {
      string(out, (String) v);
    } else if (v instanceof Calendar) {
      SimpleDateFormat f = new SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ss");
      f.setTimeZone(TimeZone.getTimeZone("UTC"));
      out.append("{\"$dateTime\":");
      string(out, f.format(((Calendar) v).getTime()));
      out.append('}');
    } else if (v instanceof byte[]) {
      out.append("{\"$base64\":");
      string(out, Base64.getEncoder().encodeToString((byte[]) v));
      out.append('}');
    } else if (v.getClass().isArray()) {
      out.append('[');
      for (int i = 0; i < Array.getLength(v); ++i) {
        if (i > 0) out.append(',');
        value(out, Array.get(v, i));
      }
      out.append(']');
    } else if (v instanceof Map) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        if (!first) out.append(',');
        first = false;
        string(out, e.getKey().toString());
        out.append(':');
        value(out, e.getValue());
      }
      out.append('}');
    } else {
      throw new IllegalArgumentException("no canonical JSON for a " + v.getClass().getName());
    }
  }

  // Python's repr(float) where Java's Double.toString agrees with it on the value: always a '.'
  // or an exponent; exponents as Python writes them (1e-05, 1e+16); NaN and the infinities as
  // json.dumps writes them.
  static String number(double d) {
    if (Double.isNaN(d)) return "NaN";
    if (Double.isInfinite(d)) return d > 0 ? "Infinity" : "-Infinity";
    String s = Double.toString(d);
    int e = s.indexOf('E');
    if (e < 0) return s;
    String mantissa = s.substring(0, e);
    if (mantissa.endsWith(".0")) mantissa = mantissa.substring(0, mantissa.length() - 2);
    int exp = Integer.parseInt(s.substring(e + 1));
    return mantissa + "e" + (exp < 0 ? "-" : "+") + (Math.abs(exp) < 10 ? "0" : "")
        + Math.abs(exp);
  }

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
          if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
          else out.append(c);
      }
    }
    out.append('"');
  }
}
