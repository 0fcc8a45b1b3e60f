// Contract faults as SOAP Faults of the endpoint's SOAP version (docs/service.md): 1.1
// faultcode Client/Server, faultstring the message; 1.2 Code Sender/Receiver, Reason in
// xml:lang="en"; both with detail/ns1:fault/code, the contract's code.
package soapbench.jaxws;

import java.util.Locale;
import javax.xml.namespace.QName;
import javax.xml.soap.SOAPConstants;
import javax.xml.soap.SOAPException;
import javax.xml.soap.SOAPFactory;
import javax.xml.soap.SOAPFault;
import javax.xml.ws.soap.SOAPFaultException;
import soapbench.common.Contract;

final class Faults {
  private Faults() {}

  private static final SOAPFactory SOAP11 = factory(SOAPConstants.SOAP_1_1_PROTOCOL);
  private static final SOAPFactory SOAP12 = factory(SOAPConstants.SOAP_1_2_PROTOCOL);

  static SOAPFaultException of(Contract.Fault f, boolean soap12) {
    try {
      SOAPFault fault = (soap12 ? SOAP12 : SOAP11).createFault();
      if (soap12) {
        fault.setFaultCode(
            f.isClient() ? SOAPConstants.SOAP_SENDER_FAULT : SOAPConstants.SOAP_RECEIVER_FAULT);
        fault.addFaultReasonText(f.getMessage(), Locale.ENGLISH);
      } else {
        fault.setFaultCode(new QName(SOAPConstants.URI_NS_SOAP_1_1_ENVELOPE,
            f.isClient() ? "Client" : "Server"));
        fault.setFaultString(f.getMessage());
      }
      fault.addDetail()
          .addDetailEntry(new QName(Contract.NS, "fault", "ns1"))
          .addChildElement(new QName("", "code"))
          .addTextNode(Integer.toString(f.code));
      return new SOAPFaultException(fault);
    } catch (SOAPException e) {
      throw new IllegalStateException(e);
    }
  }

  // The contract's invalid-params fault.
  static SOAPFaultException invalidParams(String why, boolean soap12) {
    return of(new Contract.Fault(Contract.INVALID_PARAMS, "invalid params: " + why), soap12);
  }

  private static SOAPFactory factory(String protocol) {
    try {
      return SOAPFactory.newInstance(protocol);
    } catch (SOAPException e) {
      throw new IllegalStateException(e);
    }
  }
}
