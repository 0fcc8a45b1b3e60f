// The JVM clients' canonical-JSON writer (peers/java/common/CanonicalJson.java) on values the test
// sends (tests/interop/test_canonical_json.py checks each line against Python's json.dumps):
// one value per input line, one output line each, so the writer is checked on its own, without a
// SOAP stack between. A line is `V VALUE` (the value), `R METHOD VALUE` (a response message) or
// `F CODE MESSAGE` (a fault); VALUE in prefix form, tokens separated by one space:
//   n | i INT | l LONG | h SHORT | b 0|1 | d HEX16 (a double's bits) | g HEX8 (a float's bits)
//   s UTF16HEX (a string's UTF-16 units, 4 hex digits each; "-" when empty)
//   c MILLIS ZONE (a GregorianCalendar in ZONE) | x LEXICAL (an XMLGregorianCalendar)
//   y HEX (byte[]; "-" when empty) | L N VALUE... (ArrayList) | A N VALUE... (Object[])
//   I N INT... (int[]) | D N HEX16... (double[]) | M N (KEY VALUE)... (LinkedHashMap)
//   o (an Object: no canonical JSON)
// A line the writer refuses prints "!" and the exception.
package soapbench.probe;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.GregorianCalendar;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import javax.xml.datatype.DatatypeConfigurationException;
import javax.xml.datatype.DatatypeFactory;
import soapbench.common.CanonicalJson;

public final class CanonicalJsonProbe {
  private CanonicalJsonProbe() {}

  public static void main(String[] args) throws IOException, DatatypeConfigurationException {
    CanonicalJson.utf8Stdout();
    DatatypeFactory xml = DatatypeFactory.newInstance();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      Iterator<String> t = List.of(line.split(" ")).iterator();
      try {
        System.out.println(message(t, xml));
      } catch (RuntimeException e) {
        System.out.println("!" + e);
      }
    }
    System.out.flush();
  }

  private static String message(Iterator<String> t, DatatypeFactory xml) {
    String kind = t.next();
    switch (kind) {
      case "V": {
        StringBuilder out = new StringBuilder();
        CanonicalJson.value(out, value(t, xml), CanonicalJson.NO_BEANS);
        return out.toString();
      }
      case "R": {
        String method = (String) value(t, xml);
        return CanonicalJson.response(method, value(t, xml), CanonicalJson.NO_BEANS);
      }
      case "F": {
        int code = Integer.parseInt(t.next());
        return CanonicalJson.fault(code, (String) value(t, xml));
      }
      default:
        throw new IllegalArgumentException("unknown line kind " + kind);
    }
  }

  // The next value of the prefix form.
  private static Object value(Iterator<String> t, DatatypeFactory xml) {
    String type = t.next();
    switch (type) {
      case "n": return null;
      case "o": return new Object();
      case "i": return Integer.valueOf(t.next());
      case "l": return Long.valueOf(t.next());
      case "h": return Short.valueOf(t.next());
      case "b": return t.next().equals("1");
      case "d": return Double.longBitsToDouble(Long.parseUnsignedLong(t.next(), 16));
      case "g": return Float.intBitsToFloat(Integer.parseUnsignedInt(t.next(), 16));
      case "s": return string(t.next());
      case "c": {
        long millis = Long.parseLong(t.next());
        Calendar c = new GregorianCalendar(TimeZone.getTimeZone(t.next()));
        c.setTimeInMillis(millis);
        return c;
      }
      case "x": return xml.newXMLGregorianCalendar(t.next());
      case "y": return bytes(t.next());
      case "L": case "A": {
        List<Object> items = new ArrayList<>();
        for (int n = Integer.parseInt(t.next()); n > 0; --n) items.add(value(t, xml));
        return type.equals("L") ? items : items.toArray();
      }
      case "I": {
        int[] items = new int[Integer.parseInt(t.next())];
        for (int i = 0; i < items.length; ++i) items[i] = Integer.parseInt(t.next());
        return items;
      }
      case "D": {
        double[] items = new double[Integer.parseInt(t.next())];
        for (int i = 0; i < items.length; ++i)
          items[i] = Double.longBitsToDouble(Long.parseUnsignedLong(t.next(), 16));
        return items;
      }
      case "M": {
        Map<Object, Object> members = new LinkedHashMap<>();
        for (int n = Integer.parseInt(t.next()); n > 0; --n)
          members.put(value(t, xml), value(t, xml));
        return members;
      }
      default:
        throw new IllegalArgumentException("unknown value type " + type);
    }
  }

  private static String string(String hex) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; !hex.equals("-") && i < hex.length(); i += 4)
      s.append((char) Integer.parseInt(hex.substring(i, i + 4), 16));
    return s.toString();
  }

  private static byte[] bytes(String hex) {
    if (hex.equals("-")) return new byte[0];
    byte[] b = new byte[hex.length() / 2];
    for (int i = 0; i < b.length; ++i)
      b[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
    return b;
  }
}
