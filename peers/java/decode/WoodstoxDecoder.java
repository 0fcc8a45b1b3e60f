// Woodstox StAX (Debian's woodstox-core): a pull reader per message from one WstxInputFactory.
package soapbench.decode;

import com.ctc.wstx.stax.WstxInputFactory;
import java.io.ByteArrayInputStream;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamReader;

public final class WoodstoxDecoder implements Decoder {
  private final WstxInputFactory factory = new WstxInputFactory(); // namespace-aware by default

  @Override
  public String name() {
    return "woodstox-stax";
  }

  @Override
  public Call decode(byte[] message) throws Exception {
    XMLStreamReader r = factory.createXMLStreamReader(new ByteArrayInputStream(message), "UTF-8");
    Call call = new Call();
    int depth = 0; // 1 Envelope, 2 Body, 3 the method, 4 a parameter
    while (r.hasNext()) {
      int e = r.next();
      if (e == XMLStreamConstants.START_ELEMENT) {
        ++depth;
        if (depth == 3 && call.method == null) call.method = r.getLocalName();
        if (depth == 4) {
          String type = null;
          for (int i = 0; i < r.getAttributeCount(); ++i) {
            if (Decoder.isXsi(r.getAttributeNamespace(i)) && r.getAttributeLocalName(i).equals("type")) {
              type = r.getAttributeValue(i);
            }
          }
          call.addParam(type, r.getElementText()); // leaves the reader on the END_ELEMENT
          --depth;
        }
      } else if (e == XMLStreamConstants.END_ELEMENT) {
        --depth;
      }
    }
    r.close();
    if (call.method == null) throw new IllegalArgumentException("no call in the body");
    return call;
  }
}
