// The getRate envelope decoded into typed values (SOAP 1.1 rpc/encoded: the body's element is
// the method, its children the parameters, each typed by its xsi:type), and the contract's
// canonical JSON of it, compared with the corpus manifest's before any timing.
package soapbench.decode;

import java.util.ArrayList;
import java.util.List;

public final class Call {
  public String method; // the body element's local name
  public final List<Object> params = new ArrayList<>(); // String, Integer or Boolean, in order

  // One parameter's text typed by its xsi:type ("xsd:string", "int", ...; null: string).
  public void addParam(String xsiType, String text) {
    String type = xsiType == null ? "string" : xsiType.substring(xsiType.indexOf(':') + 1);
    switch (type) {
      case "string":
        params.add(text);
        break;
      case "int":
        params.add(Integer.valueOf(text.trim()));
        break;
      case "boolean":
        params.add(text.trim().equals("true") || text.trim().equals("1"));
        break;
      default:
        throw new IllegalArgumentException("unsupported xsi:type " + xsiType);
    }
  }

  // {"kind":"call","method":M,"params":[...]} as codecs/canonical_json.h writes it.
  public String canonical() {
    StringBuilder b = new StringBuilder("{\"kind\":\"call\",\"method\":");
    quote(b, method);
    b.append(",\"params\":[");
    for (int i = 0; i < params.size(); ++i) {
      if (i > 0) b.append(',');
      Object p = params.get(i);
      if (p instanceof String) quote(b, (String) p);
      else b.append(p);
    }
    return b.append("]}").toString();
  }

  // A JSON string: quotes, backslashes and control characters escaped.
  static void quote(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); ++i) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    b.append('"');
  }
}
