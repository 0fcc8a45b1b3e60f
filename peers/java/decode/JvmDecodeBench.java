// jvm_decode_bench: the JVM's XML parsers decoding the corpus's getRate envelope into typed
// values, the 2001 note's "XPP vs DOM" on the JVM (docs/peers.md "Java stacks"). No JMH in
// Debian, so a timing loop of our own: every decoder is checked against the manifest's canonical
// JSON first, then warmed up (so the JIT has compiled it; the warm-up is reported apart), then
// timed in repetitions of N messages, the decoders interleaved round robin. Output: Google
// Benchmark JSON (jvm/<decoder>/<family>/<file>, µs per message: a level of its own, so the
// report's C++ `classic` rows never mix with JVM times); exit 1 when a decoder's answer is wrong,
// 2 on a bad option.
package soapbench.decode;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

public final class JvmDecodeBench {
  private JvmDecodeBench() {}

  // The command line.
  static final class Options {
    String corpus = System.getProperty("soapbench.corpus", "corpus"); // the corpus folder
    String file = "soap11-rpc-encoded/getRate.call.xml"; // the message, relative to the corpus
    long messages = 100_000; // messages per timed repetition
    int repetitions = 5; // timed repetitions per decoder
    long warmup = 100_000; // messages decoded before timing
    String out; // Google Benchmark JSON file; null: stdout
    String expect; // the canonical JSON to check against; null: the manifest's
  }

  static final String USAGE = "jvm_decode_bench: XPP3, Xerces-J DOM and SAX and Woodstox StAX "
      + "decoding a corpus call on the JVM\n\n"
      + "  --corpus DIR        corpus directory (default: the source tree's corpus/)\n"
      + "  --file PATH         the message, relative to the corpus (default\n"
      + "                      soap11-rpc-encoded/getRate.call.xml)\n"
      + "  --messages N        messages per timed repetition (default 100000)\n"
      + "  --repetitions N     timed repetitions per decoder, interleaved (default 5)\n"
      + "  --warmup N          messages decoded before timing, per decoder (default 100000)\n"
      + "  --out FILE          Google Benchmark JSON to FILE (default: stdout)\n"
      + "  --expect JSON       check against this canonical JSON, not the manifest's\n";

  static Options parse(String[] args) {
    Options o = new Options();
    for (int i = 0; i < args.length; ++i) {
      String a = args[i];
      boolean v = i + 1 < args.length;
      if (a.equals("--help") || a.equals("-h")) {
        System.out.print(USAGE);
        System.exit(0);
      } else if (a.equals("--corpus") && v) o.corpus = args[++i];
      else if (a.equals("--file") && v) o.file = args[++i];
      else if (a.equals("--messages") && v) o.messages = positive(a, args[++i]);
      else if (a.equals("--repetitions") && v) o.repetitions = (int) positive(a, args[++i]);
      else if (a.equals("--warmup") && v) o.warmup = Long.parseLong(args[++i]);
      else if (a.equals("--out") && v) o.out = args[++i];
      else if (a.equals("--expect") && v) o.expect = args[++i];
      else fail("unknown option or missing value: " + a + " (see --help)");
    }
    return o;
  }

  static long positive(String option, String value) {
    try {
      long n = Long.parseLong(value);
      if (n > 0) return n;
    } catch (NumberFormatException e) {
      // reported below
    }
    fail(option + " takes a positive number, not " + value);
    return 0;
  }

  static void fail(String why) {
    System.err.println("jvm_decode_bench: " + why);
    System.exit(2);
  }

  // One decoder's row: its check, warm-up and timed repetitions.
  static final class Row {
    final Decoder decoder; // the parser
    String error; // why its answer is wrong; null: checked
    double warmupNsPerMessage; // the warm-up's mean
    double firstNs; // the first message decoded (cold, before the JIT)
    final List<double[]> reps = new ArrayList<>(); // {real ns, cpu ns} per repetition

    Row(Decoder d) {
      decoder = d;
    }
  }

  static long sink; // what the loop decoded, kept so the JIT cannot drop the work

  // Decodes `message` n times; adds to sink.
  static void loop(Decoder d, byte[] message, long n) throws Exception {
    for (long i = 0; i < n; ++i) sink += d.decode(message).params.size();
  }

  public static void main(String[] args) throws Exception {
    Options o = parse(args);
    byte[] message = Files.readAllBytes(Paths.get(o.corpus, o.file));
    String expected = o.expect != null ? o.expect : Manifest.canonical(Paths.get(o.corpus), o.file);
    List<Row> rows = new ArrayList<>();
    for (Decoder d : new Decoder[] {new Xpp3Decoder(), new XercesDomDecoder(),
                                    new XercesSaxDecoder(), new WoodstoxDecoder()}) {
      rows.add(new Row(d));
    }
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    for (Row r : rows) {
      long t0 = System.nanoTime();
      try {
        String got = r.decoder.decode(message).canonical();
        if (!got.equals(expected)) r.error = "decoded " + got + ", expected " + expected;
      } catch (Exception e) {
        r.error = "decode failed: " + e;
      }
      r.firstNs = System.nanoTime() - t0;
      if (r.error != null) {
        System.err.println("jvm_decode_bench: " + r.decoder.name() + ": " + r.error);
        continue;
      }
      t0 = System.nanoTime();
      loop(r.decoder, message, o.warmup);
      r.warmupNsPerMessage = o.warmup > 0 ? (System.nanoTime() - t0) / (double) o.warmup : 0;
      System.err.printf("jvm_decode_bench: %s warm-up: first message %.0f us, %d messages at %.2f "
          + "us each%n", r.decoder.name(), r.firstNs / 1e3, o.warmup, r.warmupNsPerMessage / 1e3);
    }
    for (int rep = 0; rep < o.repetitions; ++rep) {
      for (Row r : rows) {
        if (r.error != null) continue;
        long c0 = cpu.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        loop(r.decoder, message, o.messages);
        r.reps.add(new double[] {System.nanoTime() - t0, cpu.getCurrentThreadCpuTime() - c0});
      }
    }
    String json = GbenchJson.write(o, rows, sink);
    if (o.out == null) {
      System.out.print(json);
    } else {
      try (PrintStream p = new PrintStream(o.out, StandardCharsets.UTF_8)) {
        p.print(json);
      }
    }
    boolean wrong = rows.stream().anyMatch(r -> r.error != null);
    System.exit(wrong ? 1 : 0);
  }

}
