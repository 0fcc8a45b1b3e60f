// jaxws_server: the soapbench contract on the JAX-WS RI 2.3 (Debian's libjaxws-java), published
// with Endpoint.publish on the JDK's built-in HTTP server (com.sun.net.httpserver, a pool of 64
// threads as axis_server has), document/literal wrapped at /soap, SOAP 1.1 or (--family
// soap12-doc-literal) SOAP 1.2; the RI serves its own WSDL at /soap?wsdl. Requests are checked
// against the service's schema (the RI's SchemaValidationFeature), so a malformed value is a
// Client fault rather than JAXB's silent 0. Prints one "serving" line, stops on SIGTERM.
// docs/peers.md "JAX-WS".
package soapbench.jaxws;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import com.sun.xml.ws.developer.SchemaValidationFeature;
import com.sun.xml.ws.util.RuntimeVersion;
import javax.xml.ws.Endpoint;
import javax.xml.ws.soap.SOAPBinding;
import soapbench.common.PeerOptions;
import soapbench.common.Warmup;

public final class JaxwsServer {
  private static final String NAME = "jaxws_server";
  private static final int THREADS = 64; // the HTTP server's handler threads
  private static final int BACKLOG = 64; // the listening socket's backlog

  public static void main(String[] args) throws Exception {
    // The RI writes a Java stack trace into every fault's detail unless told not to: the
    // contract's faults carry their own detail, and a trace is no answer to a client.
    System.setProperty("com.sun.xml.ws.fault.SOAPFaultBuilder.disableCaptureStackTrace", "true");
    // No JMX monitoring (Debian's gmbal lacks the glassfish-pfl classes it loads; a benchmark
    // wants none).
    System.setProperty("com.sun.xml.ws.monitoring.endpoint", "false");
    // TCP_NODELAY on the JDK HTTP server's connections: it writes the headers and the body
    // apart, and without it Nagle's algorithm holds the body until the client's delayed ACK
    // (40 ms per call here).
    System.setProperty("sun.net.httpserver.nodelay", "true");
    // SAAJ's factory named by its current property (else a deprecation warning per lookup).
    System.setProperty("javax.xml.soap.SAAJMetaFactory",
        "com.sun.xml.messaging.saaj.soap.SAAJMetaFactoryImpl");
    String family = "soap11-doc-literal";
    int warmup = 0;
    boolean validate = true;
    List<String> rest = new ArrayList<>();
    for (int i = 0; i < args.length; ++i) {
      if (args[i].equals("--family") && i + 1 < args.length) family = args[++i];
      else if (args[i].equals("--warmup") && i + 1 < args.length)
        warmup = Integer.parseInt(args[++i]);
      else if (args[i].equals("--no-validation")) validate = false;
      else rest.add(args[i]);
    }
    PeerOptions o = PeerOptions.parse(NAME,
        NAME + ": the soapbench contract on the JAX-WS RI 2.3 (Endpoint.publish, JDK HTTP server)"
            + "\n\n"
            + "  --family F      soap11-doc-literal (default) or soap12-doc-literal, at /soap\n"
            + "  --warmup N      before the serving line, answer N of the corpus's seed calls\n"
            + "                  (JIT warm-up; its time is printed on stderr)\n"
            + "  --no-validation requests are not checked against the service's schema (the\n"
            + "                  RI's default: JAXB then reads a malformed int as 0, no fault)",
        rest.toArray(new String[0]));
    boolean soap12 = family.equals("soap12-doc-literal");
    if (!soap12 && !family.equals("soap11-doc-literal")) {
      System.err.println(NAME + ": serves soap11-doc-literal or soap12-doc-literal, not " + family);
      System.exit(2);
    }
    SoapbenchService service =
        new SoapbenchService(soap12, Paths.get(o.corpus, family, "getChain.response.xml"));
    HttpServer server = HttpServer.create(new InetSocketAddress(o.address, o.port), BACKLOG);
    ExecutorService threads = Executors.newFixedThreadPool(THREADS);
    server.setExecutor(threads);
    Endpoint endpoint = Endpoint.create(
        soap12 ? SOAPBinding.SOAP12HTTP_BINDING : SOAPBinding.SOAP11HTTP_BINDING, service,
        new SchemaValidationFeature(validate, false));
    endpoint.publish(server.createContext("/soap"));
    server.start();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      endpoint.stop();
      server.stop(0);
      threads.shutdownNow();
    }));
    String host = server.getAddress().getAddress().getHostAddress();
    int port = server.getAddress().getPort();
    String base = "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    Warmup.run(NAME, base + "/soap", o.corpus, family, warmup);
    PeerOptions.printServing(NAME, host, port,
        RuntimeVersion.VERSION.toString().split(" svn-revision")[0] + ", JDK HTTP server, "
            + family + (validate ? "" : ", no schema validation"));
    Thread.currentThread().join();
  }
}
