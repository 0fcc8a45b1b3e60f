// axis_server: the soapbench contract on Apache Axis 1.4's own standalone HTTP server
// (SimpleAxisServer), SOAP 1.1 rpc/encoded (soapbench.wsdd) or rpc/literal
// (soapbench-literal.wsdd, --family soap11-rpc-literal), one family per server as gsoap_server,
// the services dispatched by the body element's namespace, so any path works (soapbench's client
// posts to /soap). Prints one "serving" line, stops on SIGTERM.
// docs/peers.md "Java stacks".
package soapbench.axis;

import java.io.InputStream;
import java.net.ServerSocket;
import org.apache.axis.configuration.FileProvider;
import org.apache.axis.transport.http.SimpleAxisServer;
import soapbench.common.PeerOptions;

public final class AxisServer {
  private static final String NAME = "axis_server";
  // The deployment descriptor of each family this server deploys (resources beside this class).
  private static final java.util.Map<String, String> DESCRIPTORS = java.util.Map.of(
      "soap11-rpc-encoded", "soapbench.wsdd", "soap11-rpc-literal", "soapbench-literal.wsdd");

  public static void main(String[] args) throws Exception {
    String family = "soap11-rpc-encoded";
    int warmup = 0;
    boolean asPackaged = false;
    java.util.List<String> rest = new java.util.ArrayList<>();
    for (int i = 0; i < args.length; ++i) {
      if (args[i].equals("--family") && i + 1 < args.length) family = args[++i];
      else if (args[i].equals("--warmup") && i + 1 < args.length)
        warmup = Integer.parseInt(args[++i]);
      else if (args[i].equals("--as-packaged")) asPackaged = true;
      else rest.add(args[i]);
    }
    PeerOptions o = PeerOptions.parse(NAME,
        NAME + ": the soapbench contract on Apache Axis 1.4 (SimpleAxisServer)\n\n"
            + "  --family F      soap11-rpc-encoded (default) or soap11-rpc-literal\n"
            + "  --warmup N      before the serving line, answer N of the corpus's seed calls\n"
            + "                  (JIT warm-up; its time is printed on stderr)\n"
            + "  --as-packaged   leave out the fix of AXIS-2909 (concurrent calls may get a\n"
            + "                  ConcurrentModificationException fault: OverloadsFix.java)",
        rest.toArray(new String[0]));
    String wsdd = DESCRIPTORS.get(family);
    if (wsdd == null) {
      System.err.println(NAME + ": unknown --family " + family + " (" + DESCRIPTORS.keySet() + ")");
      System.exit(2);
    }
    ChainPassthrough.setDocument(o.chainDocument(NAME, family));
    SimpleAxisServer server = new SimpleAxisServer(64);
    ServerSocket socket = o.listen(64);
    server.setServerSocket(socket);
    try (InputStream config = AxisServer.class.getResourceAsStream(wsdd)) {
      server.setMyConfig(new FileProvider(config));
      server.getAxisServer(); // reads the descriptor now, not on the first call
    }
    if (!asPackaged) OverloadsFix.apply(server.getAxisServer());
    Runtime.getRuntime().addShutdownHook(new Thread(server::stop));
    server.start(false);
    String host = socket.getInetAddress().getHostAddress();
    String base = "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":"
        + socket.getLocalPort();
    soapbench.common.Warmup.run(NAME, base + "/soap", o.corpus, family, warmup);
    PeerOptions.printServing(NAME, socket.getInetAddress().getHostAddress(),
        socket.getLocalPort(), org.apache.axis.Version.getVersion().split("\n")[0].replace(" version:", "")
            + ", SimpleAxisServer, " + family + (asPackaged ? ", as packaged" : ", AXIS-2909 fixed"));
    Thread.currentThread().join();
  }
}
