// The operations' request and response wrapper elements (document/literal wrapped), named by
// SoapbenchPort's @RequestWrapper/@ResponseWrapper: what wsimport generates from a WSDL. Written
// out because Debian's jaxws-rt cannot make them at run time (its WrapperBeanGenerator needs the
// RI's repackaged ASM, com.sun.xml.ws.org.objectweb.asm, which no Debian package ships).
// The `boolean` operation's wrappers are IsTrue* (a Java keyword). One field per element, the
// result named `return`.
package soapbench.jaxws;

import javax.xml.bind.annotation.XmlAccessType;
import javax.xml.bind.annotation.XmlAccessorType;
import javax.xml.bind.annotation.XmlElement;
import javax.xml.bind.annotation.XmlRootElement;
import javax.xml.bind.annotation.XmlSchemaType;
import javax.xml.bind.annotation.XmlType;
import javax.xml.datatype.XMLGregorianCalendar;
import soapbench.common.Contract;

public final class Wrappers {
  private Wrappers() {}

  @XmlRootElement(name = "add", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {"a", "b"})
  public static class Add {
    @XmlElement(name = "a", namespace = Contract.NS)
    public int a;
    @XmlElement(name = "b", namespace = Contract.NS)
    public int b;
  }

  @XmlRootElement(name = "addResponse", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {"_return"})
  public static class AddResponse {
    @XmlElement(name = "return", namespace = Contract.NS)
    public int _return;
  }

  @XmlRootElement(name = "concat", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {"s1", "s2", "s3"})
  public static class Concat {
    @XmlElement(name = "s1", namespace = Contract.NS)
    public String s1;
    @XmlElement(name = "s2", namespace = Contract.NS)
    public String s2;
    @XmlElement(name = "s3", namespace = Contract.NS)
    public String s3;
  }

  @XmlRootElement(name = "concatResponse", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {"_return"})
  public static class ConcatResponse {
    @XmlElement(name = "return", namespace = Contract.NS)
    public String _return;
  }

  @XmlRootElement(name = "echoArray", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {"a", "b"})
  public static class EchoArray {
    @XmlElement(name = "a", namespace = Contract.NS)
    public Types.IntArray a;
    @XmlElement(name = "b", namespace = Contract.NS)
    public Types.IntArray b;
  }

  @XmlRootElement(name = "echoArrayResponse", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {"_return"})
  public static class EchoArrayResponse {
    @XmlElement(name = "return", namespace = Contract.NS)
    public Types.IntArray _return;
  }

  @XmlRootElement(name = "boolean", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {})
  public static class IsTrue {}

  @XmlRootElement(name = "booleanResponse", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {"_return"})
  public static class IsTrueResponse {
    @XmlElement(name = "return", namespace = Contract.NS)
    public boolean _return;
  }

  @XmlRootElement(name = "now", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {})
  public static class Now {}

  @XmlRootElement(name = "nowResponse", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {"_return"})
  public static class NowResponse {
    @XmlElement(name = "return", namespace = Contract.NS)
    @XmlSchemaType(name = "dateTime")
    public XMLGregorianCalendar _return;
  }

  @XmlRootElement(name = "complex", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {"obj"})
  public static class Complex {
    @XmlElement(name = "obj", namespace = Contract.NS)
    public Types.PersonInArray obj;
  }

  @XmlRootElement(name = "complexResponse", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {"_return"})
  public static class ComplexResponse {
    @XmlElement(name = "return", namespace = Contract.NS)
    public Types.PersonArray _return;
  }

  @XmlRootElement(name = "fail", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {})
  public static class Fail {}

  @XmlRootElement(name = "failResponse", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {})
  public static class FailResponse {}

  @XmlRootElement(name = "getRate", namespace = Contract.EXCHANGE_NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {"country1", "country2"})
  public static class GetRate {
    @XmlElement(name = "country1", namespace = Contract.EXCHANGE_NS)
    public String country1;
    @XmlElement(name = "country2", namespace = Contract.EXCHANGE_NS)
    public String country2;
  }

  @XmlRootElement(name = "getRateResponse", namespace = Contract.EXCHANGE_NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {"_return"})
  public static class GetRateResponse {
    @XmlElement(name = "return", namespace = Contract.EXCHANGE_NS)
    public double _return;
  }

  @XmlRootElement(name = "respond", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {"wordcount", "delay"})
  public static class Respond {
    @XmlElement(name = "wordcount", namespace = Contract.NS)
    public int wordcount;
    @XmlElement(name = "delay", namespace = Contract.NS)
    public int delay;
  }

  @XmlRootElement(name = "respondResponse", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {"_return"})
  public static class RespondResponse {
    @XmlElement(name = "return", namespace = Contract.NS)
    public Types.Document _return;
  }

  @XmlRootElement(name = "sendString", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {"s"})
  public static class SendString {
    @XmlElement(name = "s", namespace = Contract.NS)
    public String s;
  }

  @XmlRootElement(name = "sendStringResponse", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {})
  public static class SendStringResponse {}

  @XmlRootElement(name = "receiveString", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {"length"})
  public static class ReceiveString {
    @XmlElement(name = "length", namespace = Contract.NS)
    public int length;
  }

  @XmlRootElement(name = "receiveStringResponse", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {"_return"})
  public static class ReceiveStringResponse {
    @XmlElement(name = "return", namespace = Contract.NS)
    public String _return;
  }

  @XmlRootElement(name = "sendInt", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {"i"})
  public static class SendInt {
    @XmlElement(name = "i", namespace = Contract.NS)
    public int i;
  }

  @XmlRootElement(name = "sendIntResponse", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {})
  public static class SendIntResponse {}

  @XmlRootElement(name = "getChain", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {})
  public static class GetChain {}

  @XmlRootElement(name = "getChainResponse", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {"_return"})
  public static class GetChainResponse {
    @XmlElement(name = "return", namespace = Contract.NS)
    public Types.ChainStepArray _return;
  }

  @XmlRootElement(name = "echoInts", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {"values"})
  public static class EchoInts {
    @XmlElement(name = "values", namespace = Contract.NS)
    public Types.IntArray values;
  }

  @XmlRootElement(name = "echoIntsResponse", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {"_return"})
  public static class EchoIntsResponse {
    @XmlElement(name = "return", namespace = Contract.NS)
    public Types.IntArray _return;
  }

  @XmlRootElement(name = "echoDoubles", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {"values"})
  public static class EchoDoubles {
    @XmlElement(name = "values", namespace = Contract.NS)
    public Types.DoubleArray values;
  }

  @XmlRootElement(name = "echoDoublesResponse", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {"_return"})
  public static class EchoDoublesResponse {
    @XmlElement(name = "return", namespace = Contract.NS)
    public Types.DoubleArray _return;
  }

  @XmlRootElement(name = "echoStrings", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {"values"})
  public static class EchoStrings {
    @XmlElement(name = "values", namespace = Contract.NS)
    public Types.StringArray values;
  }

  @XmlRootElement(name = "echoStringsResponse", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {"_return"})
  public static class EchoStringsResponse {
    @XmlElement(name = "return", namespace = Contract.NS)
    public Types.StringArray _return;
  }

  @XmlRootElement(name = "echoBase64", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {"data"})
  public static class EchoBase64 {
    @XmlElement(name = "data", namespace = Contract.NS)
    public byte[] data;
  }

  @XmlRootElement(name = "echoBase64Response", namespace = Contract.NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "", propOrder = {"_return"})
  public static class EchoBase64Response {
    @XmlElement(name = "return", namespace = Contract.NS)
    public byte[] _return;
  }
}
