// What every JVM peer server takes on its command line (as the scripting servers do):
// --address, --port (0: any free port, printed on the one "serving" line), --corpus (getChain's
// document), --help; and the corpus's pre-serialized getChain response.
package soapbench.common;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

public final class PeerOptions {
  public String address = "127.0.0.1"; // listen address
  public int port = 0; // listen port, 0: any free one
  public String corpus; // the corpus folder (getChain's document)

  // Parses `args`; prints `usage` and exits 0 on --help, exits 2 on a bad option.
  public static PeerOptions parse(String name, String usage, String[] args) {
    PeerOptions o = new PeerOptions();
    String env = System.getenv("SOAPBENCH_CORPUS");
    o.corpus = env != null ? env : System.getProperty("soapbench.corpus", "corpus");
    for (int i = 0; i < args.length; ++i) {
      String a = args[i];
      boolean hasValue = i + 1 < args.length;
      if (a.equals("--help") || a.equals("-h")) {
        System.out.print(usage + "\n\n"
            + "  --address ADDR  listen address (default 127.0.0.1)\n"
            + "  --port N        port, 0: any free one (printed on the \"serving\" line)\n"
            + "  --corpus DIR    corpus directory, for getChain's document (default:\n"
            + "                  $SOAPBENCH_CORPUS or the source tree's corpus/)\n");
        System.exit(0);
      } else if (a.equals("--address") && hasValue) {
        o.address = args[++i];
      } else if (a.equals("--port") && hasValue) {
        o.port = Integer.parseInt(args[++i]);
      } else if (a.equals("--corpus") && hasValue) {
        o.corpus = args[++i];
      } else {
        System.err.println(name + ": unknown option or missing value: " + a + " (see --help)");
        System.exit(2);
      }
    }
    return o;
  }

  // A listening socket on address:port, bound here so that port 0 can be printed.
  public ServerSocket listen(int backlog) throws IOException {
    ServerSocket s = new ServerSocket();
    s.setReuseAddress(true);
    s.bind(new InetSocketAddress(address, port), backlog);
    return s;
  }

  // The one "serving" line, flushed: NAME: serving http://HOST:PORT (WHAT).
  public static void printServing(String name, String host, int port, String what) {
    if (host.contains(":")) host = "[" + host + "]";
    System.out.println(name + ": serving http://" + host + ":" + port + " (" + what + ")");
    System.out.flush();
  }

  // The corpus's getChain response for `family`, or null (said on stderr): getChain then faults.
  public byte[] chainDocument(String name, String family) {
    Path path = Paths.get(corpus, family, "getChain.response.xml");
    try {
      return Files.readAllBytes(path);
    } catch (IOException e) {
      System.err.println(name + ": cannot read " + path + ": " + e + "; getChain answers a fault");
      return null;
    }
  }
}
