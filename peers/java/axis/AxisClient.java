// axis_client: one call (or --repeat N) of the soapbench service through Apache Axis 1.4's client
// (org.apache.axis.client.Service and Call, each operation described as the stubs Axis's
// WSDL2Java generates describe it: Operations.java), SOAP 1.1 rpc/encoded or rpc/literal,
// printing each answer as canonical JSON (docs/service.md) like `soapbench call` and
// gsoap_client: the JVM client of the interop matrix (docs/peers.md "Java stacks").
// Exit status: 0, 2 when the last answer was a fault, 1 on an error (said on stderr).
package soapbench.axis;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.json.Json;
import javax.json.JsonException;
import javax.json.JsonValue;
import javax.xml.namespace.QName;
import org.apache.axis.AxisFault;
import org.apache.axis.Constants;
import org.apache.axis.client.Call;
import org.apache.axis.client.Service;
import org.apache.axis.description.FieldDesc;
import org.apache.axis.description.TypeDesc;
import org.apache.axis.encoding.TypeMappingImpl;
import org.apache.axis.encoding.ser.BeanDeserializerFactory;
import org.apache.axis.encoding.ser.BeanSerializerFactory;
import org.w3c.dom.Element;
import soapbench.common.CanonicalJson;
import soapbench.common.Contract;

public final class AxisClient {
  private static final String NAME = "axis_client";
  private static final String USAGE = NAME
      + ": one call of the soapbench service through Apache Axis 1.4's client; canonical JSON out\n"
      + "Usage: " + NAME + " --url URL [--family F] [--repeat N] [--timeout-ms N] METHOD [ARGS...]"
      + " [--then METHOD [ARGS...]]...\n\n"
      + "  --url URL       server base URL, http://host:port (SOAP goes to URL/soap)\n"
      + "  --family F      soap11-rpc-encoded (default) or soap11-rpc-literal\n"
      + "  --repeat N      make the call N times (one output line per call)\n"
      + "  --timeout-ms N  Axis's call timeout (default 30000)\n"
      + "  --then          another call follows, made in the same JVM (its answer on the next line;\n"
      + "                  a call it cannot make is a {\"kind\":\"error\",...} line and exit 1)\n\n"
      + "ARGS: the operation's parameters as JSON values, typed by the contract: 2, 1.5, \"text\",\n"
      + "[1,2], {\"id\":1,...}; a dateTime or base64 param takes its text form.\n";

  public static void main(String[] args) {
    CanonicalJson.utf8Stdout();
    String url = null;
    String family = "soap11-rpc-encoded";
    int repeat = 1;
    int timeoutMs = 30000;
    List<List<String>> calls = new ArrayList<>(); // METHOD ARGS... per call, --then between
    calls.add(new ArrayList<>());
    for (int i = 0; i < args.length; ++i) {
      boolean value = i + 1 < args.length;
      if (args[i].equals("--help") || args[i].equals("-h")) {
        System.out.print(USAGE);
        return;
      } else if (args[i].equals("--url") && value) url = args[++i];
      else if (args[i].equals("--family") && value) family = args[++i];
      else if (args[i].equals("--repeat") && value) repeat = Integer.parseInt(args[++i]);
      else if (args[i].equals("--timeout-ms") && value) timeoutMs = Integer.parseInt(args[++i]);
      else if (args[i].equals("--then")) calls.add(new ArrayList<>());
      else if (args[i].startsWith("--")) fail("unknown option or missing value: " + args[i]);
      else calls.get(calls.size() - 1).add(args[i]);
    }
    if (url == null || calls.stream().anyMatch(List::isEmpty))
      fail("--url and METHOD (before and after every --then) are required (see --help)");
    if (!family.equals("soap11-rpc-encoded") && !family.equals("soap11-rpc-literal"))
      fail("unknown --family " + family + " (soap11-rpc-encoded, soap11-rpc-literal)");
    String endpoint = url + "/soap";
    boolean literal = family.endsWith("literal");
    if (calls.size() > 1) System.exit(runBatch(endpoint, literal, calls, timeoutMs));
    List<String> rest = calls.get(0);
    List<JsonValue> json = new ArrayList<>();
    try {
      for (String a : rest.subList(1, rest.size())) json.add(parse(a));
    } catch (JsonException e) {
      fail("call " + rest.get(0) + ": " + e.getMessage());
    }
    System.exit(run(endpoint, literal, rest.get(0), json, repeat, timeoutMs));
  }

  private static void fail(String why) {
    System.err.println(NAME + ": " + why);
    System.exit(1);
  }

  private static JsonValue parse(String text) {
    return Json.createReader(new StringReader(text)).readValue();
  }

  // One call: the operation's row and its params typed by the contract.
  private static final class Request {
    final String method; // the operation
    final String[] row; // its row of Operations' table
    final Object[] values; // its params as Java values

    // IllegalArgumentException (its message says why) for an unknown operation or bad args.
    Request(String method, List<JsonValue> args) {
      this.method = method;
      row = Operations.find(method);
      if (row == null) throw new IllegalArgumentException("not an operation of the contract");
      String[] params = Operations.params(row);
      int n = args.size();
      if (n > params.length || n < params.length - (method.equals("concat") ? 1 : 0))
        throw new IllegalArgumentException("takes " + params.length + " arguments, got " + n);
      values = new Object[n];
      try {
        for (int i = 0; i < n; ++i) {
          String[] p = params[i].split(":");
          values[i] = Operations.argument(args.get(i), p[1], p[0]);
        }
      } catch (ArithmeticException e) {
        throw new IllegalArgumentException(e.getMessage());
      }
    }
  }

  // The calls of the command line; the exit status (2 when the last answer was a fault).
  private static int run(String endpoint, boolean literal, String method, List<JsonValue> args,
      int repeat, int timeoutMs) {
    Request r = null;
    try {
      r = new Request(method, args);
    } catch (IllegalArgumentException e) {
      fail("call " + method + ": " + e.getMessage());
    }
    int status = 0;
    try {
      Call call = newCall(endpoint, r.row, r.values.length, literal, timeoutMs);
      for (int i = 0; i < repeat; ++i) {
        String line = answer(call, r);
        status = line.startsWith("{\"kind\":\"fault\"") ? 2 : 0;
        System.out.println(line);
      }
    } catch (Exception e) {
      System.out.flush();
      System.err.println(NAME + ": call " + method + " at " + endpoint + ": " + e);
      return 1;
    }
    System.out.flush();
    return status;
  }

  // Calls joined by --then, in one JVM (as the interop matrix runs a JVM client: once per
  // client -> server pair): one line out per call, its answer's canonical JSON or, for a call it
  // could not make, {"kind":"error","message":WHY} (also on stderr). Exit 1 after such a call.
  private static int runBatch(String endpoint, boolean literal, List<List<String>> calls,
      int timeoutMs) {
    int status = 0;
    for (List<String> c : calls) {
      String out;
      try {
        List<JsonValue> json = new ArrayList<>();
        for (String a : c.subList(1, c.size())) json.add(parse(a));
        Request r = new Request(c.get(0), json);
        out = answer(newCall(endpoint, r.row, r.values.length, literal, timeoutMs), r);
      } catch (Exception e) {
        System.err.println(NAME + ": call " + c.get(0) + ": " + e);
        StringBuilder line = new StringBuilder("{\"kind\":\"error\",\"message\":");
        CanonicalJson.string(line, e.toString());
        out = line.append('}').toString();
        status = 1;
      }
      System.out.println(out);
    }
    System.out.flush();
    return status;
  }

  // The answer's canonical JSON: a response or a fault; an exception when there is none.
  private static String answer(Call call, Request r) throws Exception {
    try {
      Object result = plain(call.invoke(r.values)); // its beans already Maps
      return CanonicalJson.response(r.method, result, CanonicalJson.NO_BEANS);
    } catch (AxisFault f) {
      if (f.detail instanceof java.io.IOException) throw f; // no answer: an error
      return CanonicalJson.fault(code(f), f.getFaultString());
    }
  }

  // A Call at `endpoint` for the operation of `row` with `nparams` params, its beans registered
  // for the family's encoding (rpc/literal: no encoding style).
  private static Call newCall(String endpoint, String[] row, int nparams, boolean literal,
      int timeoutMs) throws Exception {
    Service service = new Service();
    Call call = (Call) service.createCall();
    // As axis_server's dotNetSoapEncFix (a service option, which a client has no service to
    // hold: Axis reads this static instead): strings in arrays as xsd:string, not
    // soapenc:string, which gSOAP refuses in its arrays of strings.
    TypeMappingImpl.dotnet_soapenc_bugfix = true;
    call.setTargetEndpointAddress(new java.net.URL(endpoint));
    call.setTimeout(timeoutMs);
    call.setOperation(Operations.describe(row, nparams, literal));
    call.setEncodingStyle(literal ? "" : Constants.URI_SOAP11_ENC);
    call.setSOAPActionURI("");
    call.setOperationName(new QName(row[1], row[0]));
    for (String bean : new String[] {"Person", "PersonIn", "Document", "Paragraph", "ChainStep"}) {
      Object[] s = Operations.scalar(bean);
      Class<?> cls = (Class<?>) s[2];
      QName q = (QName) s[1];
      call.registerTypeMapping(cls, q, new BeanSerializerFactory(cls, q),
          new BeanDeserializerFactory(cls, q), false);
    }
    return call;
  }

  // A contract fault's code from detail/ns1:fault/code; 0 when the fault carries none.
  private static int code(AxisFault f) {
    Element[] details = f.getFaultDetails();
    for (Element d : details == null ? new Element[0] : details) {
      if (!"fault".equals(d.getLocalName()) || !Contract.NS.equals(d.getNamespaceURI())) continue;
      org.w3c.dom.NodeList codes = d.getElementsByTagName("code");
      if (codes.getLength() > 0) return Integer.parseInt(codes.item(0).getTextContent().trim());
    }
    return 0;
  }

  // A result with its beans as LinkedHashMaps in their TypeDesc's member order (the contract's).
  static Object plain(Object v) throws ReflectiveOperationException {
    if (v == null || v.getClass().isArray() && v.getClass().getComponentType().isPrimitive())
      return v;
    if (v instanceof Object[]) {
      Object[] in = (Object[]) v;
      Object[] out = new Object[in.length];
      for (int i = 0; i < in.length; ++i) out[i] = plain(in[i]);
      return out;
    }
    TypeDesc desc = TypeDesc.getTypeDescForClass(v.getClass());
    if (desc == null) return v;
    Map<String, Object> out = new LinkedHashMap<>();
    for (FieldDesc f : desc.getFields()) {
      String name = f.getFieldName();
      String getter = "get" + Character.toUpperCase(name.charAt(0)) + name.substring(1);
      out.put(name, plain(v.getClass().getMethod(getter).invoke(v)));
    }
    return out;
  }
}
