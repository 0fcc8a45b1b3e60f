// The corpus manifest's canonical JSON of one file (corpus/manifest.json, written by
// tools/corpusgen in a fixed layout: one `"path": ...` line per entry, its `"canonical": "..."`
// line after it). Read with a pattern because Debian packages no JSON library for Java.
package soapbench.decode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

final class Manifest {
  private Manifest() {}

  // The canonical JSON of `file`; throws when the manifest has no entry or no canonical for it.
  static String canonical(Path corpus, String file) throws IOException {
    String text = new String(Files.readAllBytes(corpus.resolve("manifest.json")), StandardCharsets.UTF_8);
    int at = text.indexOf("\"path\": \"" + file + "\"");
    if (at < 0) throw new IOException(corpus.resolve("manifest.json") + " has no entry " + file);
    int next = text.indexOf("\"path\":", at + 1);
    String entry = text.substring(at, next < 0 ? text.length() : next);
    Matcher m = Pattern.compile("\"canonical\": \"((?:[^\"\\\\]|\\\\.)*)\"").matcher(entry);
    if (!m.find()) throw new IOException("the manifest's entry " + file + " has no canonical JSON");
    return unescape(m.group(1));
  }

  // A JSON string's body without its escapes.
  static String unescape(String s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length(); ++i) {
      char c = s.charAt(i);
      if (c != '\\') {
        b.append(c);
        continue;
      }
      char e = s.charAt(++i);
      switch (e) {
        case 'n': b.append('\n'); break;
        case 't': b.append('\t'); break;
        case 'r': b.append('\r'); break;
        case 'b': b.append('\b'); break;
        case 'f': b.append('\f'); break;
        case 'u':
          b.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
          i += 4;
          break;
        default: b.append(e);
      }
    }
    return b.toString();
  }
}
