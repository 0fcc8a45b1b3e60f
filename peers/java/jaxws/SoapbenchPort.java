// The service endpoint interface: the contract's operations (docs/service.md) as JAX-WS maps
// document/literal wrapped, written by hand to match our WSDL (docs/peers.md
// "JAX-WS"); the server implements it (SoapbenchService) and the client calls it (JaxwsClient).
// getRate's elements are in urn:demo1:exchange, the others in urn:soapbench.
package soapbench.jaxws;

import javax.jws.WebMethod;
import javax.jws.WebParam;
import javax.jws.WebResult;
import javax.jws.WebService;
import javax.xml.datatype.XMLGregorianCalendar;
import javax.xml.ws.RequestWrapper;
import javax.xml.ws.ResponseWrapper;
import soapbench.common.Contract;

@WebService(name = "soapbench", targetNamespace = Contract.NS)
public interface SoapbenchPort {
  @WebMethod(operationName = "add")
  @WebResult(name = "return", targetNamespace = Contract.NS)
  @RequestWrapper(localName = "add", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$Add")
  @ResponseWrapper(localName = "addResponse", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$AddResponse")
  int add(
      @WebParam(name = "a", targetNamespace = Contract.NS) int a,
      @WebParam(name = "b", targetNamespace = Contract.NS) int b);

  @WebMethod(operationName = "concat")
  @WebResult(name = "return", targetNamespace = Contract.NS)
  @RequestWrapper(localName = "concat", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$Concat")
  @ResponseWrapper(localName = "concatResponse", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$ConcatResponse")
  String concat(
      @WebParam(name = "s1", targetNamespace = Contract.NS) String s1,
      @WebParam(name = "s2", targetNamespace = Contract.NS) String s2,
      @WebParam(name = "s3", targetNamespace = Contract.NS) String s3);

  @WebMethod(operationName = "echoArray")
  @WebResult(name = "return", targetNamespace = Contract.NS)
  @RequestWrapper(localName = "echoArray", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$EchoArray")
  @ResponseWrapper(localName = "echoArrayResponse", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$EchoArrayResponse")
  Types.IntArray echoArray(
      @WebParam(name = "a", targetNamespace = Contract.NS) Types.IntArray a,
      @WebParam(name = "b", targetNamespace = Contract.NS) Types.IntArray b);

  @WebMethod(operationName = "boolean")
  @WebResult(name = "return", targetNamespace = Contract.NS)
  @RequestWrapper(localName = "boolean", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$IsTrue")
  @ResponseWrapper(localName = "booleanResponse", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$IsTrueResponse")
  boolean isTrue();

  @WebMethod(operationName = "now")
  @WebResult(name = "return", targetNamespace = Contract.NS)
  @RequestWrapper(localName = "now", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$Now")
  @ResponseWrapper(localName = "nowResponse", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$NowResponse")
  XMLGregorianCalendar now();

  @WebMethod(operationName = "complex")
  @WebResult(name = "return", targetNamespace = Contract.NS)
  @RequestWrapper(localName = "complex", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$Complex")
  @ResponseWrapper(localName = "complexResponse", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$ComplexResponse")
  Types.PersonArray complex(
      @WebParam(name = "obj", targetNamespace = Contract.NS) Types.PersonInArray obj);

  @WebMethod(operationName = "fail")
  @RequestWrapper(localName = "fail", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$Fail")
  @ResponseWrapper(localName = "failResponse", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$FailResponse")
  void fail();

  @WebMethod(operationName = "getRate")
  @WebResult(name = "return", targetNamespace = Contract.EXCHANGE_NS)
  @RequestWrapper(localName = "getRate", targetNamespace = Contract.EXCHANGE_NS,
      className = "soapbench.jaxws.Wrappers$GetRate")
  @ResponseWrapper(localName = "getRateResponse", targetNamespace = Contract.EXCHANGE_NS,
      className = "soapbench.jaxws.Wrappers$GetRateResponse")
  double getRate(
      @WebParam(name = "country1", targetNamespace = Contract.EXCHANGE_NS) String country1,
      @WebParam(name = "country2", targetNamespace = Contract.EXCHANGE_NS) String country2);

  @WebMethod(operationName = "respond")
  @WebResult(name = "return", targetNamespace = Contract.NS)
  @RequestWrapper(localName = "respond", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$Respond")
  @ResponseWrapper(localName = "respondResponse", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$RespondResponse")
  Types.Document respond(
      @WebParam(name = "wordcount", targetNamespace = Contract.NS) int wordcount,
      @WebParam(name = "delay", targetNamespace = Contract.NS) int delay);

  @WebMethod(operationName = "sendString")
  @RequestWrapper(localName = "sendString", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$SendString")
  @ResponseWrapper(localName = "sendStringResponse", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$SendStringResponse")
  void sendString(@WebParam(name = "s", targetNamespace = Contract.NS) String s);

  @WebMethod(operationName = "receiveString")
  @WebResult(name = "return", targetNamespace = Contract.NS)
  @RequestWrapper(localName = "receiveString", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$ReceiveString")
  @ResponseWrapper(localName = "receiveStringResponse", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$ReceiveStringResponse")
  String receiveString(@WebParam(name = "length", targetNamespace = Contract.NS) int length);

  @WebMethod(operationName = "sendInt")
  @RequestWrapper(localName = "sendInt", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$SendInt")
  @ResponseWrapper(localName = "sendIntResponse", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$SendIntResponse")
  void sendInt(@WebParam(name = "i", targetNamespace = Contract.NS) int i);

  @WebMethod(operationName = "getChain")
  @WebResult(name = "return", targetNamespace = Contract.NS)
  @RequestWrapper(localName = "getChain", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$GetChain")
  @ResponseWrapper(localName = "getChainResponse", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$GetChainResponse")
  Types.ChainStepArray getChain();

  @WebMethod(operationName = "echoInts")
  @WebResult(name = "return", targetNamespace = Contract.NS)
  @RequestWrapper(localName = "echoInts", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$EchoInts")
  @ResponseWrapper(localName = "echoIntsResponse", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$EchoIntsResponse")
  Types.IntArray echoInts(
      @WebParam(name = "values", targetNamespace = Contract.NS) Types.IntArray values);

  @WebMethod(operationName = "echoDoubles")
  @WebResult(name = "return", targetNamespace = Contract.NS)
  @RequestWrapper(localName = "echoDoubles", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$EchoDoubles")
  @ResponseWrapper(localName = "echoDoublesResponse", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$EchoDoublesResponse")
  Types.DoubleArray echoDoubles(
      @WebParam(name = "values", targetNamespace = Contract.NS) Types.DoubleArray values);

  @WebMethod(operationName = "echoStrings")
  @WebResult(name = "return", targetNamespace = Contract.NS)
  @RequestWrapper(localName = "echoStrings", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$EchoStrings")
  @ResponseWrapper(localName = "echoStringsResponse", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$EchoStringsResponse")
  Types.StringArray echoStrings(
      @WebParam(name = "values", targetNamespace = Contract.NS) Types.StringArray values);

  @WebMethod(operationName = "echoBase64")
  @WebResult(name = "return", targetNamespace = Contract.NS)
  @RequestWrapper(localName = "echoBase64", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$EchoBase64")
  @ResponseWrapper(localName = "echoBase64Response", targetNamespace = Contract.NS,
      className = "soapbench.jaxws.Wrappers$EchoBase64Response")
  byte[] echoBase64(@WebParam(name = "data", targetNamespace = Contract.NS) byte[] data);
}
