// getChain's answer: the corpus's pre-serialized soap11-rpc-encoded document, unchanged, put in
// place of the response Axis made (after Axis parsed and dispatched the call), as a handler in the
// service's response flow.
package soapbench.axis;

import org.apache.axis.AxisFault;
import org.apache.axis.Message;
import org.apache.axis.MessageContext;
import org.apache.axis.handlers.BasicHandler;

public class ChainPassthrough extends BasicHandler {
  private static volatile byte[] document; // the stored response, or null (getChain faults)

  static void setDocument(byte[] bytes) {
    document = bytes;
  }

  static byte[] document() {
    return document;
  }

  @Override
  public void invoke(MessageContext mc) throws AxisFault {
    if (mc.getOperation() == null || !"getChain".equals(mc.getOperation().getName())) return;
    byte[] doc = document;
    if (doc != null) mc.setResponseMessage(new Message(doc));
  }
}
