// Axis's RPC provider, with what its parameter deserializers throw (a NumberFormatException for
// an int written "two", a wrong type) answered as the contract's invalid-params fault
// (-32602, Client) instead of Axis's Server.userException, which carries no contract code.
// Deployed as the services' pivot handler (provider="Handler" in soapbench.wsdd).
package soapbench.axis;

import org.apache.axis.AxisFault;
import org.apache.axis.MessageContext;
import org.apache.axis.message.SOAPEnvelope;
import org.apache.axis.providers.java.RPCProvider;
import soapbench.common.Contract;

public class ContractProvider extends RPCProvider {
  @Override
  public void processMessage(MessageContext mc, SOAPEnvelope req, SOAPEnvelope res, Object obj)
      throws Exception {
    try {
      super.processMessage(mc, req, res, obj);
    } catch (AxisFault f) {
      throw f;
    } catch (RuntimeException e) {
      throw AxisFaults.of(new Contract.Fault(Contract.INVALID_PARAMS, "invalid params: " + e));
    }
  }
}
