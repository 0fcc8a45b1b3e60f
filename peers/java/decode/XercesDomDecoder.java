// Xerces-J DOM (Debian's xercesImpl, not the JDK's internal copy): the whole document built,
// then walked. One DocumentBuilder reused (reset by every parse).
package soapbench.decode;

import java.io.ByteArrayInputStream;
import javax.xml.parsers.DocumentBuilder;
import org.apache.xerces.jaxp.DocumentBuilderFactoryImpl;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

public final class XercesDomDecoder implements Decoder {
  private final DocumentBuilder builder; // Xerces' JAXP builder, namespace-aware

  public XercesDomDecoder() throws Exception {
    DocumentBuilderFactoryImpl f = new DocumentBuilderFactoryImpl();
    f.setNamespaceAware(true);
    builder = f.newDocumentBuilder();
  }

  @Override
  public String name() {
    return "xerces-dom";
  }

  @Override
  public Call decode(byte[] message) throws Exception {
    Document doc = builder.parse(new ByteArrayInputStream(message));
    Element body = firstChild(doc.getDocumentElement());
    Element method = body == null ? null : firstChild(body);
    if (method == null) throw new IllegalArgumentException("no call in the body");
    Call call = new Call();
    call.method = method.getLocalName();
    for (Element p = firstChild(method); p != null; p = nextSibling(p)) {
      String type = p.getAttributeNS("http://www.w3.org/1999/XMLSchema-instance", "type");
      if (type.isEmpty()) type = p.getAttributeNS("http://www.w3.org/2001/XMLSchema-instance", "type");
      call.addParam(type.isEmpty() ? null : type, p.getTextContent());
    }
    return call;
  }

  private static Element firstChild(Node n) {
    Node c = n.getFirstChild();
    while (c != null && c.getNodeType() != Node.ELEMENT_NODE) c = c.getNextSibling();
    return (Element) c;
  }

  private static Element nextSibling(Node n) {
    Node c = n.getNextSibling();
    while (c != null && c.getNodeType() != Node.ELEMENT_NODE) c = c.getNextSibling();
    return (Element) c;
  }
}
