// getRate in namespace urn:demo1:exchange (the classic exchange-rate service), deployed as its
// own Axis service, dispatched by the body element's namespace.
package soapbench.axis;

import org.apache.axis.AxisFault;
import soapbench.common.Contract;

public class Exchange {
  public double getRate(String country1, String country2) throws AxisFault {
    AxisFaults.notNil("country1", country1);
    AxisFaults.notNil("country2", country2);
    try {
      return Contract.rate(country1, country2);
    } catch (Contract.Fault f) {
      throw AxisFaults.of(f);
    }
  }
}
