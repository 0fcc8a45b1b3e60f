// Contract faults as Axis SOAP Faults: faultcode Server or Client, faultstring the message,
// detail/ns1:fault/code the contract's code (docs/service.md), without Axis's own hostname entry.
package soapbench.axis;

import javax.xml.namespace.QName;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.apache.axis.AxisFault;
import org.apache.axis.Constants;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import soapbench.common.Contract;

final class AxisFaults {
  private AxisFaults() {}

  static AxisFault of(Contract.Fault f) {
    QName code = new QName(Constants.URI_SOAP11_ENV, f.isClient() ? "Client" : "Server");
    AxisFault a = new AxisFault(code, f.getMessage(), null, null);
    a.clearFaultDetails();
    a.addFaultDetail(detail(f.code));
    return a;
  }

  // A nil where the contract's service refuses one: invalid params "NAME is nil".
  static void notNil(String name, Object value) throws AxisFault {
    if (value == null)
      throw of(new Contract.Fault(Contract.INVALID_PARAMS, "invalid params: " + name + " is nil"));
  }

  // <ns1:fault xmlns:ns1="urn:soapbench"><code>CODE</code></ns1:fault>
  private static Element detail(int code) {
    try {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setNamespaceAware(true);
      Document d = f.newDocumentBuilder().newDocument();
      Element fault = d.createElementNS(Contract.NS, "ns1:fault");
      Element c = d.createElementNS(null, "code");
      c.setTextContent(Integer.toString(code));
      fault.appendChild(c);
      return fault;
    } catch (ParserConfigurationException e) {
      throw new IllegalStateException(e);
    }
  }
}
