// The service's semantics as harness/service.cpp has them (docs/service.md), for the JVM peers:
// getRate's rates, respond's generated document, receiveString's text, the contract's faults.
package soapbench.common;

import java.util.Locale;

public final class Contract {
  private Contract() {}

  public static final String NS = "urn:soapbench"; // the operations' namespace
  public static final String EXCHANGE_NS = "urn:demo1:exchange"; // getRate's namespace

  public static final int DIVISION_BY_ZERO = 4; // fail's fault code
  public static final int INVALID_PARAMS = -32602; // wrong parameters
  public static final int INTERNAL_ERROR = -32603; // a server-side failure

  // A contract fault: code and message, as the service answers them.
  public static final class Fault extends Exception {
    public final int code; // the contract's fault code

    public Fault(int code, String message) {
      super(message);
      this.code = code;
    }

    // Client faults are the caller's (invalid params), the others the server's.
    public boolean isClient() {
      return code == INVALID_PARAMS;
    }
  }

  // Units of `to` per unit of `from` (Service::rate), or a fault.
  public static double rate(String from, String to) throws Fault {
    String f = from.toLowerCase(Locale.ROOT);
    String t = to.toLowerCase(Locale.ROOT);
    if (f.equals(t)) return 1.0;
    String[][] pairs = {
      {"usa", "japan"}, {"usa", "uk"}, {"usa", "germany"}, {"uk", "usa"}, {"japan", "usa"},
      {"germany", "usa"}
    };
    double[] values = {1.25, 0.79, 0.92, 1.27, 0.8, 1.09};
    for (int i = 0; i < pairs.length; ++i) {
      if (f.equals(pairs[i][0]) && t.equals(pairs[i][1])) return values[i];
    }
    throw new Fault(INVALID_PARAMS, "invalid params: no rate from " + from + " to " + to);
  }

  public static int add(int a, int b) throws Fault {
    long sum = (long) a + b;
    if (sum < Integer.MIN_VALUE || sum > Integer.MAX_VALUE)
      throw new Fault(INVALID_PARAMS, "invalid params: add overflows a 32-bit int");
    return (int) sum;
  }

  public static Fault failFault() {
    return new Fault(DIVISION_BY_ZERO, "division by zero");
  }

  private static final String[] WORDS = {
    "soap", "envelope", "parser", "latency", "header", "binding", "message", "schema",
    "element", "encoding", "socket", "request", "response", "fault", "service", "literal",
    "array", "struct", "value", "network", "payload", "stream", "buffer", "token"
  };

  // respond's five paragraphs' words (Service::document: SplitMix64 seeded by wordcount).
  public static String[] document(int words, int delayMs) throws Fault {
    // The bounds of codecs/service_rules.h (kMaxRespondWords: answers within kMaxAnswerBytes).
    if (words < 0 || words > 900_000 || delayMs < 0 || delayMs > 60_000)
      throw new Fault(
          INVALID_PARAMS, "invalid params: respond takes 0..900000 words and 0..60000 ms");
    long state = (long) words * 7919L + 1;
    String[] out = new String[5];
    for (int p = 0; p < 5; ++p) {
      int n = words / 5 + (p < words % 5 ? 1 : 0);
      StringBuilder text = new StringBuilder();
      for (int i = 0; i < n; ++i) {
        if (i > 0) text.append(' ');
        state += 0x9e3779b97f4a7c15L;
        long z = state;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        z = z ^ (z >>> 31);
        text.append(WORDS[(int) Long.remainderUnsigned(z, WORDS.length)]);
      }
      out[p] = text.toString();
    }
    return out;
  }

  // respond's delay, after the document is made (as the C++ server answers after it).
  public static void delay(int delayMs) {
    if (delayMs <= 0) return;
    try {
      Thread.sleep(delayMs);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  // receiveString's answer: `length` letters a..z repeating.
  public static String letters(int length) throws Fault {
    if (length < 0 || length > 8_000_000)  // kMaxLetters of codecs/service_rules.h
      throw new Fault(INVALID_PARAMS, "invalid params: length must be 0..8000000");
    char[] s = new char[length];
    for (int i = 0; i < length; ++i) s[i] = (char) ('a' + i % 26);
    return new String(s);
  }
}
