// XPP3 (the XML Pull Parser the 2001 note measured), namespace-aware, one MXParser reused.
package soapbench.decode;

import java.io.ByteArrayInputStream;
import org.xmlpull.mxp1.MXParser;
import org.xmlpull.v1.XmlPullParser;

public final class Xpp3Decoder implements Decoder {
  private final MXParser parser = new MXParser(); // reset by every setInput

  public Xpp3Decoder() throws Exception {
    parser.setFeature(XmlPullParser.FEATURE_PROCESS_NAMESPACES, true);
  }

  @Override
  public String name() {
    return "xpp3-pull";
  }

  @Override
  public Call decode(byte[] message) throws Exception {
    parser.setInput(new ByteArrayInputStream(message), "UTF-8");
    Call call = new Call();
    int depth = 0; // 1 Envelope, 2 Body, 3 the method, 4 a parameter
    String type = null;
    for (int e = parser.next(); e != XmlPullParser.END_DOCUMENT; e = parser.next()) {
      if (e == XmlPullParser.START_TAG) {
        ++depth;
        if (depth == 3 && call.method == null) call.method = parser.getName();
        if (depth == 4) {
          type = null;
          for (int i = 0; i < parser.getAttributeCount(); ++i) {
            if (Decoder.isXsi(parser.getAttributeNamespace(i))
                && parser.getAttributeName(i).equals("type")) type = parser.getAttributeValue(i);
          }
          call.addParam(type, parser.nextText()); // leaves the parser on the END_TAG
          --depth;
        }
      } else if (e == XmlPullParser.END_TAG) {
        --depth;
      }
    }
    if (call.method == null) throw new IllegalArgumentException("no call in the body");
    return call;
  }
}
