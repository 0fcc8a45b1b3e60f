// The contract's operations (docs/service.md) behind SoapbenchPort, one instance per endpoint;
// semantics through soapbench.common.Contract, as the Axis peer has them. getChain answers the
// corpus's getChain response, read into typed beans at start and written by JAXB on every call
// (JAX-WS has no pass-through of a stored document: docs/peers.md "JAX-WS" says so).
package soapbench.jaxws;

import java.io.IOException;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.jws.WebService;
import javax.xml.bind.JAXBContext;
import javax.xml.bind.JAXBException;
import javax.xml.datatype.DatatypeConfigurationException;
import javax.xml.datatype.DatatypeConstants;
import javax.xml.datatype.DatatypeFactory;
import javax.xml.datatype.XMLGregorianCalendar;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;
import soapbench.common.Contract;

@WebService(endpointInterface = "soapbench.jaxws.SoapbenchPort", targetNamespace = Contract.NS,
    serviceName = "soapbench", portName = "soapbenchPort")
public class SoapbenchService implements SoapbenchPort {
  private static final DatatypeFactory DATATYPES = datatypes();
  // A birthdate's text: ISO 8601 or Python's str(datetime) (a space for the T), UTC or no zone.
  private static final Pattern BIRTHDATE =
      Pattern.compile("(\\d{4})-(\\d\\d)-(\\d\\d)[T ](\\d\\d):(\\d\\d):(\\d\\d)(Z|\\+00:00)?");

  private final boolean soap12; // faults in SOAP 1.2's form
  private final Types.ChainStepArray chain; // getChain's answer, null: not loaded (a fault)

  SoapbenchService(boolean soap12, Path chainResponse) {
    this.soap12 = soap12;
    this.chain = readChain(chainResponse);
  }

  @Override
  public int add(int a, int b) {
    try {
      return Contract.add(a, b);
    } catch (Contract.Fault f) {
      throw Faults.of(f, soap12);
    }
  }

  @Override
  public String concat(String s1, String s2, String s3) {
    if (s1 == null || s2 == null) throw Faults.invalidParams((s1 == null ? "s1" : "s2")
        + " is nil", soap12);
    return s3 == null ? s1 + s2 : s1 + s2 + s3; // s3 is optional
  }

  @Override
  public Types.IntArray echoArray(Types.IntArray a, Types.IntArray b) {
    Types.IntArray out = new Types.IntArray();
    if (a != null) out.item.addAll(a.item);
    if (b != null) out.item.addAll(b.item);
    return out;
  }

  @Override
  public boolean isTrue() {
    return true;
  }

  @Override
  public XMLGregorianCalendar now() {
    return calendar(LocalDateTime.now(ZoneOffset.UTC));
  }

  @Override
  public Types.PersonArray complex(Types.PersonInArray obj) {
    return obj == null ? null : people(obj, "obj");
  }

  @Override
  public void fail() {
    throw Faults.of(Contract.failFault(), soap12);
  }

  @Override
  public double getRate(String country1, String country2) {
    if (country1 == null || country2 == null) throw Faults.invalidParams("country is nil", soap12);
    try {
      return Contract.rate(country1, country2);
    } catch (Contract.Fault f) {
      throw Faults.of(f, soap12);
    }
  }

  @Override
  public Types.Document respond(int wordcount, int delay) {
    String[] words;
    try {
      words = Contract.document(wordcount, delay);
    } catch (Contract.Fault f) {
      throw Faults.of(f, soap12);
    }
    Types.Paragraph[] p = new Types.Paragraph[5];
    for (int i = 0; i < 5; ++i) {
      p[i] = new Types.Paragraph();
      p[i].words = words[i];
    }
    Types.Document d = new Types.Document();
    d.e1 = p[0];
    d.e2 = p[1];
    d.e3 = p[2];
    d.e4 = p[3];
    d.e5 = p[4];
    Contract.delay(delay);
    return d;
  }

  @Override
  public void sendString(String s) {
    if (s == null) throw Faults.invalidParams("s is nil", soap12);
  }

  @Override
  public String receiveString(int length) {
    try {
      return Contract.letters(length);
    } catch (Contract.Fault f) {
      throw Faults.of(f, soap12);
    }
  }

  @Override
  public void sendInt(int i) {}

  @Override
  public Types.ChainStepArray getChain() {
    if (chain == null)
      throw Faults.of(new Contract.Fault(Contract.INTERNAL_ERROR, "getChain document not loaded"),
          soap12);
    return chain;
  }

  @Override
  public Types.IntArray echoInts(Types.IntArray values) {
    return values;
  }

  @Override
  public Types.DoubleArray echoDoubles(Types.DoubleArray values) {
    return values;
  }

  @Override
  public Types.StringArray echoStrings(Types.StringArray values) {
    return values;
  }

  @Override
  public byte[] echoBase64(byte[] data) {
    return data;
  }

  // PersonIn[] to Person[]: birthdates sent as text read as dateTimes (docs/service.md).
  private Types.PersonArray people(Types.PersonInArray in, String where) {
    Types.PersonArray out = new Types.PersonArray();
    for (int i = 0; i < in.item.size(); ++i) {
      String at = where + "[" + i + "]";
      Types.PersonIn p = in.item.get(i);
      Types.Person q = new Types.Person();
      q.id = p.id;
      q.name = p.name;
      q.weight = p.weight;
      q.birthdate = p.birthdate == null ? null : birthdate(p.birthdate, at + ".birthdate");
      q.children = p.children == null ? null : people(p.children, at + ".children");
      out.item.add(q);
    }
    return out;
  }

  private XMLGregorianCalendar birthdate(String text, String where) {
    Matcher m = BIRTHDATE.matcher(text.trim());
    try {
      if (m.matches()) {
        return calendar(LocalDateTime.of(Integer.parseInt(m.group(1)),
            Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
            Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5)),
            Integer.parseInt(m.group(6))));
      }
    } catch (DateTimeException e) {
      // falls through to the fault
    }
    throw Faults.invalidParams(where + ": bad dateTime '" + text + "'", soap12);
  }

  // A dateTime without time zone, in whole seconds (the contract's form).
  private static XMLGregorianCalendar calendar(LocalDateTime t) {
    return DATATYPES.newXMLGregorianCalendar(t.getYear(), t.getMonthValue(), t.getDayOfMonth(),
        t.getHour(), t.getMinute(), t.getSecond(), DatatypeConstants.FIELD_UNDEFINED,
        DatatypeConstants.FIELD_UNDEFINED);
  }

  // The `return` element of the corpus's getChain response, as beans; null (said on stderr)
  // when it cannot be read.
  private static Types.ChainStepArray readChain(Path path) {
    try {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setNamespaceAware(true);
      Node ret = f.newDocumentBuilder().parse(path.toFile())
          .getElementsByTagNameNS(Contract.NS, "return").item(0);
      if (ret == null) throw new IOException("no return element");
      return JAXBContext.newInstance(Types.ChainStepArray.class).createUnmarshaller()
          .unmarshal(ret, Types.ChainStepArray.class).getValue();
    } catch (IOException | SAXException | ParserConfigurationException | JAXBException e) {
      System.err.println("jaxws_server: cannot read " + path + ": " + e
          + "; getChain answers a fault");
      return null;
    }
  }

  private static DatatypeFactory datatypes() {
    try {
      return DatatypeFactory.newInstance();
    } catch (DatatypeConfigurationException e) {
      throw new IllegalStateException(e);
    }
  }
}
