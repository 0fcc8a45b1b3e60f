// jaxws_client: one call (or --repeat N) of the soapbench service through the JAX-WS RI's
// client runtime (a JAXB Dispatch of the operations' wrapper beans), printing each answer as
// canonical JSON (docs/service.md) like `soapbench call` and gsoap_client: exit 0 on a
// response, 2 when the last answer was a fault, 1 on an error. Calls joined by --then are made
// in one run, one line each (an error as {"kind":"error",...}, exit 1): `soapbench interop`
// starts the JVM once per pair of stacks, not once per call. docs/peers.md
// "JAX-WS".
package soapbench.jaxws;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.namespace.QName;
import javax.xml.soap.Detail;
import javax.xml.soap.SOAPFault;
import javax.xml.bind.JAXBContext;
import javax.xml.bind.JAXBException;
import javax.xml.ws.Dispatch;
import javax.xml.ws.Service;
import javax.xml.ws.WebServiceException;
import javax.xml.ws.soap.SOAPBinding;
import javax.xml.ws.soap.SOAPFaultException;
import org.w3c.dom.Node;
import soapbench.common.CanonicalJson;
import soapbench.common.Contract;

public final class JaxwsClient {
  private static final String NAME = "jaxws_client";
  private static final String USAGE = NAME + ": call the soapbench service through the JAX-WS RI"
      + " 2.3 (a JAXB Dispatch)\n\n"
      + "usage: " + NAME + " --url URL [--family F] [--repeat N] METHOD [ARGS...]"
      + " [--then METHOD [ARGS...]]...\n\n"
      + "  --url URL       the server's base URL (the call goes to URL/soap)\n"
      + "  --family F      soap11-doc-literal (default) or soap12-doc-literal\n"
      + "  --repeat N      make the call N times (one answer line each)\n"
      + "  --timeout-ms N  connect and read timeout (default 30000)\n"
      + "  --then          another call follows (its answer on the next line)\n\n"
      + "ARGS: the operation's parameters as JSON values, typed by the contract.";

  public static void main(String[] argv) {
    CanonicalJson.utf8Stdout();
    System.setProperty("com.sun.xml.ws.monitoring.client", "false");
    System.setProperty("javax.xml.soap.SAAJMetaFactory",
        "com.sun.xml.messaging.saaj.soap.SAAJMetaFactoryImpl");
    String url = null;
    String family = "soap11-doc-literal";
    int repeat = 1;
    int timeoutMs = 30000;
    List<List<String>> calls = new ArrayList<>(); // METHOD ARGS... of each call
    calls.add(new ArrayList<>());
    try {
      for (int i = 0; i < argv.length; ++i) {
        String a = argv[i];
        boolean hasValue = i + 1 < argv.length;
        if (a.equals("--help") || a.equals("-h")) {
          System.out.println(USAGE);
          return;
        } else if (a.equals("--url") && hasValue) url = argv[++i];
        else if (a.equals("--family") && hasValue) family = argv[++i];
        else if (a.equals("--repeat") && hasValue) repeat = Integer.parseInt(argv[++i]);
        else if (a.equals("--timeout-ms") && hasValue) timeoutMs = Integer.parseInt(argv[++i]);
        else if (a.equals("--then")) calls.add(new ArrayList<>());
        else if (a.startsWith("--")) throw new IllegalArgumentException("unknown option " + a);
        else calls.get(calls.size() - 1).add(a);
      }
      if (url == null) throw new IllegalArgumentException("need --url");
      for (List<String> c : calls) {
        if (c.isEmpty()) throw new IllegalArgumentException("need a METHOD for every call");
      }
      if (!family.equals("soap11-doc-literal") && !family.equals("soap12-doc-literal"))
        throw new IllegalArgumentException("family " + family + " is not document/literal");
    } catch (IllegalArgumentException e) {
      System.err.println(NAME + ": " + e.getMessage() + " (see --help)");
      System.exit(1);
    }
    Dispatch<Object> d = null;
    try {
      d = dispatch(url + "/soap", family.startsWith("soap12"), timeoutMs);
    } catch (JAXBException | WebServiceException e) {
      System.err.println(NAME + ": " + e);
      System.exit(1);
    }
    int last = 0; // the last answer's status
    boolean failed = false; // a call of the batch failed
    for (List<String> c : calls) {
      String method = c.get(0);
      CallArgs args = new CallArgs(method, c.subList(1, c.size()).toArray(new String[0]));
      for (int i = 0; i < repeat; ++i) {
        last = call(d, method, args, calls.size() > 1);
        failed |= last == 1;
      }
    }
    System.out.flush();
    System.exit(failed ? 1 : last);
  }

  // One call: its answer printed; 0 (a response), 2 (a fault) or 1 (an error: said on stderr,
  // and as an error line when `batch`, else the program ends).
  private static int call(Dispatch<Object> d, String method, CallArgs args, boolean batch) {
    try {
      Object response = d.invoke(request(method, args));
      System.out.println(
          CanonicalJson.response(method, result(method, response), JaxbBeans::plain));
      return 0;
    } catch (SOAPFaultException e) {
      System.out.println(fault(e.getFault()));
      return 2;
    } catch (IllegalArgumentException | WebServiceException e) {
      System.err.println(NAME + ": call " + method + ": " + e);
      if (!batch) System.exit(1);
      StringBuilder line = new StringBuilder("{\"kind\":\"error\",\"message\":");
      CanonicalJson.string(line, e.toString());
      System.out.println(line.append('}'));
      return 1;
    }
  }

  // A JAXB Dispatch of the wrapper beans at `address`, in SOAP 1.1 or 1.2. Not a port proxy of
  // SoapbenchPort: the RI makes those from a WSDL only, and the servers called here need not
  // serve one.
  private static Dispatch<Object> dispatch(String address, boolean soap12, int timeoutMs)
      throws JAXBException {
    QName portName = new QName(Contract.NS, "soapbenchPort");
    Service s = Service.create(new QName(Contract.NS, "soapbench"));
    s.addPort(portName, soap12 ? SOAPBinding.SOAP12HTTP_BINDING : SOAPBinding.SOAP11HTTP_BINDING,
        address);
    Dispatch<Object> d = s.createDispatch(
        portName, JAXBContext.newInstance(Wrappers.class.getClasses()), Service.Mode.PAYLOAD);
    Map<String, Object> context = d.getRequestContext();
    context.put("com.sun.xml.ws.connect.timeout", timeoutMs);
    context.put("com.sun.xml.ws.request.timeout", timeoutMs);
    return d;
  }

  // METHOD's request wrapper with ARGS typed by the contract.
  private static Object request(String method, CallArgs a) {
    switch (method) {
      case "add": {
        Wrappers.Add w = new Wrappers.Add();
        w.a = a.integer(0);
        w.b = a.integer(1);
        return w;
      }
      case "concat": {
        Wrappers.Concat w = new Wrappers.Concat();
        w.s1 = a.string(0);
        w.s2 = a.string(1);
        w.s3 = a.count() > 2 ? a.string(2) : null; // optional: absent, not nil
        return w;
      }
      case "echoArray": {
        Wrappers.EchoArray w = new Wrappers.EchoArray();
        w.a = a.ints(0);
        w.b = a.ints(1);
        return w;
      }
      case "boolean": return new Wrappers.IsTrue();
      case "now": return new Wrappers.Now();
      case "complex": {
        Wrappers.Complex w = new Wrappers.Complex();
        w.obj = a.people(0);
        return w;
      }
      case "fail": return new Wrappers.Fail();
      case "getRate": {
        Wrappers.GetRate w = new Wrappers.GetRate();
        w.country1 = a.string(0);
        w.country2 = a.string(1);
        return w;
      }
      case "respond": {
        Wrappers.Respond w = new Wrappers.Respond();
        w.wordcount = a.integer(0);
        w.delay = a.integer(1);
        return w;
      }
      case "sendString": {
        Wrappers.SendString w = new Wrappers.SendString();
        w.s = a.string(0);
        return w;
      }
      case "receiveString": {
        Wrappers.ReceiveString w = new Wrappers.ReceiveString();
        w.length = a.integer(0);
        return w;
      }
      case "sendInt": {
        Wrappers.SendInt w = new Wrappers.SendInt();
        w.i = a.integer(0);
        return w;
      }
      case "getChain": return new Wrappers.GetChain();
      case "echoInts": {
        Wrappers.EchoInts w = new Wrappers.EchoInts();
        w.values = a.ints(0);
        return w;
      }
      case "echoDoubles": {
        Wrappers.EchoDoubles w = new Wrappers.EchoDoubles();
        w.values = a.doubles(0);
        return w;
      }
      case "echoStrings": {
        Wrappers.EchoStrings w = new Wrappers.EchoStrings();
        w.values = a.strings(0);
        return w;
      }
      case "echoBase64": {
        Wrappers.EchoBase64 w = new Wrappers.EchoBase64();
        w.data = a.base64(0);
        return w;
      }
      default:
        throw new IllegalArgumentException(
            method + " is not an operation of the contract (docs/service.md)");
    }
  }

  // The response wrapper's `return` (null for a void operation's empty wrapper).
  private static Object result(String method, Object response) {
    if (response == null) throw new WebServiceException(method + ": an empty response body");
    String expected = method.equals("boolean") ? "IsTrueResponse"
        : Character.toUpperCase(method.charAt(0)) + method.substring(1) + "Response";
    if (!response.getClass().getSimpleName().equals(expected))
      throw new WebServiceException(method + ": answered with " + response.getClass().getName());
    try {
      return response.getClass().getField("_return").get(response);
    } catch (NoSuchFieldException e) {
      return null;
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  // The fault's canonical JSON: code from detail/fault/code (0 when absent), the message.
  private static String fault(SOAPFault f) {
    int code = 0;
    Detail d = f.getDetail();
    for (Node n = d == null ? null : d.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (!"fault".equals(n.getLocalName())) continue;
      for (Node c = n.getFirstChild(); c != null; c = c.getNextSibling()) {
        if ("code".equals(c.getLocalName())) code = Integer.parseInt(c.getTextContent().trim());
      }
    }
    return CanonicalJson.fault(code, f.getFaultString());
  }
}
