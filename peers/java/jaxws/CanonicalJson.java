// The contract's canonical JSON (docs/service.md "Canonical JSON"), as `soapbench call` prints it:
// Python's json.dumps(value, ensure_ascii=False, separators=(",", ":")), so a double is written
// as Python's repr (shortest round-trip digits, exponent below 1e-4 and from 1e16), dateTime and
// base64 as {"$dateTime":...} and {"$base64":...}; JAXB beans by their fields, in order.
package soapbench.jaxws;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Base64;
import java.util.List;
import javax.xml.bind.annotation.XmlType;
import javax.xml.datatype.XMLGregorianCalendar;

final class CanonicalJson {
  private CanonicalJson() {}

  // The response message for `method`.
  static String response(String method, Object result) {
    StringBuilder out = new StringBuilder("{\"kind\":\"response\",\"method\":");
    string(out, method);
    out.append(",\"result\":");
    value(out, result);
    return out.append('}').toString();
  }

  // The fault message.
  static String fault(int code, String message) {
    StringBuilder out = new StringBuilder("{\"kind\":\"fault\",\"code\":").append(code);
    out.append(",\"message\":");
    string(out, message);
    return out.append('}').toString();
  }

  static void value(StringBuilder out, Object v) {
    if (v == null) {
      out.append("null");
    } else if (v instanceof String) {
      string(out, (String) v);
    } else if (v instanceof Integer || v instanceof Boolean) {
      out.append(v);
    } else if (v instanceof Double) {
      out.append(pythonRepr((Double) v));
    } else if (v instanceof XMLGregorianCalendar) {
      XMLGregorianCalendar c = (XMLGregorianCalendar) v;
      out.append(String.format("{\"$dateTime\":\"%04d-%02d-%02dT%02d:%02d:%02d\"}", c.getYear(),
          c.getMonth(), c.getDay(), c.getHour(), c.getMinute(), c.getSecond()));
    } else if (v instanceof byte[]) {
      out.append("{\"$base64\":\"").append(Base64.getEncoder().encodeToString((byte[]) v));
      out.append("\"}");
    } else if (v instanceof List) {
      out.append('[');
      List<?> list = (List<?>) v;
      for (int i = 0; i < list.size(); ++i) {
        if (i > 0) out.append(',');
        value(out, list.get(i));
      }
      out.append(']');
    } else {
      bean(out, v);
    }
  }

  // An array bean (its one field `item`) as a list, a struct bean as an object of its fields in
  // its @XmlType's order (the contract's).
  private static void bean(StringBuilder out, Object v) {
    Class<?> type = v.getClass();
    try {
      String[] order = type.getAnnotation(XmlType.class).propOrder();
      if (order.length == 0 || order[0].isEmpty()) {
        value(out, type.getField("item").get(v));
        return;
      }
      out.append('{');
      for (int i = 0; i < order.length; ++i) {
        if (i > 0) out.append(',');
        string(out, order[i]);
        out.append(':');
        value(out, type.getField(order[i]).get(v));
      }
      out.append('}');
    } catch (ReflectiveOperationException | NullPointerException e) {
      throw new IllegalStateException("not a contract type: " + type, e);
    }
  }

  static void string(StringBuilder out, String s) {
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

  // Python's repr(float): the shortest digits that read back as `d`; positional for decimal
  // exponents -4..15 (with ".0" when whole), else d.ddde+XX.
  static String pythonRepr(double d) {
    if (Double.isNaN(d)) return "NaN";
    if (Double.isInfinite(d)) return d > 0 ? "Infinity" : "-Infinity";
    if (d == 0) return (1 / d < 0) ? "-0.0" : "0.0";
    BigDecimal exact = new BigDecimal(d);
    BigDecimal shortest = exact;
    for (int p = 1; p <= 17; ++p) {
      BigDecimal r = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
      if (r.doubleValue() == d) {
        shortest = r;
        break;
      }
    }
    String digits = shortest.unscaledValue().abs().toString().replaceAll("0+$", "");
    if (digits.isEmpty()) digits = "0";
    int exponent = shortest.precision() - shortest.scale() - 1; // d.ddd x 10^exponent
    String sign = d < 0 ? "-" : "";
    if (exponent < -4 || exponent >= 16) {
      String mantissa =
          digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
      return sign + mantissa + "e" + (exponent < 0 ? "-" : "+")
          + String.format("%02d", Math.abs(exponent));
    }
    String plain = new BigDecimal(new java.math.BigInteger(digits), digits.length() - 1 - exponent)
        .toPlainString();
    return sign + (plain.contains(".") ? plain : plain + ".0");
  }
}
