// Xerces-J SAX (Debian's xercesImpl): events into a Call, no tree. One SAXParser reused.
package soapbench.decode;

import java.io.ByteArrayInputStream;
import javax.xml.parsers.SAXParser;
import org.apache.xerces.jaxp.SAXParserFactoryImpl;
import org.xml.sax.Attributes;
import org.xml.sax.helpers.DefaultHandler;

public final class XercesSaxDecoder implements Decoder {
  private final SAXParser parser; // Xerces' JAXP parser, namespace-aware

  public XercesSaxDecoder() throws Exception {
    SAXParserFactoryImpl f = new SAXParserFactoryImpl();
    f.setNamespaceAware(true);
    parser = f.newSAXParser();
  }

  @Override
  public String name() {
    return "xerces-sax";
  }

  // Depth-tracking handler: depth 3 is the method, depth 4 a parameter whose text it gathers.
  private static final class Handler extends DefaultHandler {
    final Call call = new Call(); // what the events built
    private int depth = 0; // element depth, Envelope = 1
    private String type; // the current parameter's xsi:type
    private final StringBuilder text = new StringBuilder(); // the current parameter's text

    @Override
    public void startElement(String uri, String local, String qName, Attributes atts) {
      ++depth;
      if (depth == 3 && call.method == null) call.method = local;
      if (depth == 4) {
        type = null;
        for (int i = 0; i < atts.getLength(); ++i) {
          if (Decoder.isXsi(atts.getURI(i)) && atts.getLocalName(i).equals("type")) type = atts.getValue(i);
        }
        text.setLength(0);
      }
    }

    @Override
    public void characters(char[] ch, int start, int length) {
      if (depth == 4) text.append(ch, start, length);
    }

    @Override
    public void endElement(String uri, String local, String qName) {
      if (depth == 4) call.addParam(type, text.toString());
      --depth;
    }
  }

  @Override
  public Call decode(byte[] message) throws Exception {
    Handler h = new Handler();
    parser.parse(new ByteArrayInputStream(message), h);
    if (h.call.method == null) throw new IllegalArgumentException("no call in the body");
    return h.call;
  }
}
