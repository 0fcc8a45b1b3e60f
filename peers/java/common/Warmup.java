// JIT warm-up before a JVM server says it is serving (docs/peers.md "Java stacks"): the
// corpus's seed calls of one family POSTed to the server itself over HTTP, round robin, until
// `calls` have been answered; the time per call of the first and the last 100 is printed on
// stderr, so the warm-up is reported apart from the timed rows, which start after it.
package soapbench.common;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

public final class Warmup {
  private Warmup() {}

  // The seed calls of the round trips (harness/roundtrip_calls.h's default calls).
  private static final String[] CALLS = {
    "getRate.call.xml", "add.call.xml", "concat.call.xml", "echoArray.call.xml",
    "complex.call.xml", "respond.2500B.call.xml", "respond.7500B.call.xml", "getChain.call.xml"
  };

  // POSTs the calls to `url` until `calls` are answered; says how long it took on stderr.
  public static void run(String name, String url, String corpus, String family, int calls)
      throws IOException {
    if (calls <= 0) return;
    List<byte[]> bodies = new ArrayList<>();
    for (String c : CALLS) {
      Path p = Paths.get(corpus, family, c);
      if (Files.exists(p)) bodies.add(Files.readAllBytes(p));
    }
    if (bodies.isEmpty()) throw new IOException("no seed calls in " + Paths.get(corpus, family));
    long start = System.nanoTime();
    long first = 0;
    long lastStart = 0;
    for (int i = 0; i < calls; ++i) {
      if (i == calls - 100) lastStart = System.nanoTime();
      post(url, bodies.get(i % bodies.size()), family.startsWith("soap12"));
      if (i == 99) first = System.nanoTime() - start;
    }
    long end = System.nanoTime();
    System.err.printf("%s: warm-up: %d calls in %.2f s (first 100: %.0f us/call, last 100: %.0f"
        + " us/call)%n", name, calls, (end - start) / 1e9, first / 100 / 1e3,
        calls >= 200 ? (end - lastStart) / 100 / 1e3 : 0.0);
  }

  private static void post(String url, byte[] body, boolean soap12) throws IOException {
    HttpURLConnection c = (HttpURLConnection) new URL(url).openConnection(Proxy.NO_PROXY);
    c.setDoOutput(true);
    c.setRequestMethod("POST");
    c.setRequestProperty("Content-Type",
        soap12 ? "application/soap+xml; charset=utf-8" : "text/xml; charset=utf-8");
    c.setRequestProperty("SOAPAction", "\"\"");
    try (OutputStream out = c.getOutputStream()) {
      out.write(body);
    }
    c.getResponseCode();
    InputStream in = c.getErrorStream() != null ? c.getErrorStream() : c.getInputStream();
    try (in) {
      in.readAllBytes();
    }
  }
}
