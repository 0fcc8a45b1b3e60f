// jvm_decode_bench's rows as Google Benchmark JSON (docs/results.md): one iteration entry per
// repetition, µs per message, the warm-up as counters beside it (never mixed into the time), an
// error entry for a decoder whose answer was wrong.
package soapbench.decode;

import java.net.InetAddress;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

final class GbenchJson {
  private GbenchJson() {}

  static String write(JvmDecodeBench.Options o, List<JvmDecodeBench.Row> rows, long sink) {
    StringBuilder b = new StringBuilder("{\n  \"context\": {\n");
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (java.io.IOException e) {
      host = "unknown";
    }
    field(b, "date", OffsetDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME), true);
    field(b, "host_name", host, true);
    field(b, "executable", "jvm_decode_bench", true);
    field(b, "bench_set", "jvm", true);
    field(b, "num_cpus", Runtime.getRuntime().availableProcessors(), true);
    field(b, "jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"), true);
    field(b, "library_build_type", "release", true);
    field(b, "message", o.file, true);
    field(b, "warmup_messages", o.warmup, true);
    field(b, "sink", sink, false);
    b.append("  },\n  \"benchmarks\": [");
    String family = o.file.substring(0, o.file.indexOf('/'));
    String file = o.file.substring(o.file.indexOf('/') + 1).replaceFirst("\\.xml$", "");
    boolean first = true;
    for (JvmDecodeBench.Row r : rows) {
      String name = "jvm/" + r.decoder.name() + "/" + family + "/" + file;
      if (r.error != null) {
        b.append(first ? "\n" : ",\n").append("    {");
        first = false;
        field(b, "name", name, true);
        field(b, "run_name", name, true);
        field(b, "run_type", "iteration", true);
        field(b, "error_occurred", true, true);
        field(b, "error_message", r.error, false);
        b.append("}");
        continue;
      }
      for (int i = 0; i < r.reps.size(); ++i) {
        double[] t = r.reps.get(i);
        b.append(first ? "\n" : ",\n").append("    {");
        first = false;
        field(b, "name", name, true);
        field(b, "run_name", name, true);
        field(b, "run_type", "iteration", true);
        field(b, "repetitions", r.reps.size(), true);
        field(b, "repetition_index", i, true);
        field(b, "threads", 1, true);
        field(b, "iterations", o.messages, true);
        field(b, "real_time", t[0] / o.messages / 1e3, true);
        field(b, "cpu_time", t[1] / o.messages / 1e3, true);
        field(b, "time_unit", "us", true);
        field(b, "warmup_ns_per_message", r.warmupNsPerMessage, true);
        field(b, "first_message_ns", r.firstNs, false);
        b.append("}");
      }
    }
    return b.append("\n  ]\n}\n").toString();
  }

  private static void field(StringBuilder b, String key, Object value, boolean comma) {
    Call.quote(b, key);
    b.append(": ");
    if (value instanceof String) Call.quote(b, (String) value);
    else b.append(value);
    if (comma) b.append(", ");
  }
}
