// axis_dispatch_race: AXIS-2909 (OverloadsFix.java) shown without a network: Axis's engine built
// from axis_server's deployment, then 4 threads dispatch by an operation's QName, as BodyBuilder
// does for every request, and count the ConcurrentModificationExceptions: for 2 seconds with the
// fix, and until the first one (at most 20 s) as packaged (how often the race is lost varies a
// thousandfold from run to run: from 1 to 4,000 in 20 million dispatches here).
// `--as-packaged` leaves Axis as Debian ships it. Prints one line; exit 0 (the caller judges).
// Used by tests/interop/test_java.py; docs/peers.md "Java stacks".
package soapbench.axis;

import java.io.InputStream;
import java.util.ConcurrentModificationException;
import java.util.concurrent.atomic.AtomicLong;
import javax.xml.namespace.QName;
import org.apache.axis.MessageContext;
import org.apache.axis.configuration.FileProvider;
import org.apache.axis.description.ServiceDesc;
import org.apache.axis.server.AxisServer;

public final class DispatchRace {
  private DispatchRace() {}

  public static void main(String[] args) throws Exception {
    boolean asPackaged = args.length > 0 && args[0].equals("--as-packaged");
    final int threads = 4;
    final long deadline = System.nanoTime() + (asPackaged ? 20_000_000_000L : 2_000_000_000L);
    AxisServer engine;
    try (InputStream config = DispatchRace.class.getResourceAsStream("soapbench.wsdd")) {
      engine = new AxisServer(new FileProvider(config));
    }
    int swapped = asPackaged ? 0 : OverloadsFix.apply(engine);
    ServiceDesc desc =
        engine.getService("soapbench").getInitializedServiceDesc(new MessageContext(engine));
    QName add = new QName("urn:soapbench", "add");
    AtomicLong races = new AtomicLong();
    AtomicLong dispatches = new AtomicLong();
    Thread[] pool = new Thread[threads];
    for (int t = 0; t < threads; ++t) {
      pool[t] = new Thread(() -> {
        long n = 0;
        for (; System.nanoTime() < deadline && !(asPackaged && races.get() > 0); ++n) {
          try {
            desc.getOperationsByQName(add);
          } catch (ConcurrentModificationException e) {
            races.incrementAndGet();
          }
        }
        dispatches.addAndGet(n);
      });
      pool[t].start();
    }
    for (Thread t : pool) t.join();
    System.out.printf("axis_dispatch_race: %s, %d lists swapped: %d dispatches on %d threads, "
            + "%d ConcurrentModificationException%n", asPackaged ? "as packaged" : "fixed",
        swapped, dispatches.get(), threads, races.get());
  }
}
