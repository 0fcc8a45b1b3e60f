// One JVM XML parser decoding a SOAP 1.1 rpc/encoded call into a Call (docs/peers.md "Java
// stacks": JVM deserializers). A decoder keeps its factory or parser between messages, as a
// server would; decode() is called from one thread.
package soapbench.decode;

public interface Decoder {
  // The row's adapter name, e.g. "xpp3-pull".
  String name();

  // The call in `message` (UTF-8 XML); throws on a message that is not one.
  Call decode(byte[] message) throws Exception;

  // The xsi namespaces the corpus uses (1999 and 2001 schema instance).
  static boolean isXsi(String ns) {
    return "http://www.w3.org/1999/XMLSchema-instance".equals(ns)
        || "http://www.w3.org/2001/XMLSchema-instance".equals(ns);
  }
}
