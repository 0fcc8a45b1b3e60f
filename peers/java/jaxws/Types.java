// The contract's arrays and structs (docs/service.md) as JAXB beans, in document/literal's form:
// an array is a wrapper element holding one `item` per value, a struct one child per member in
// the contract's order, every element qualified in urn:soapbench. What wsimport would generate
// from our WSDL, written by hand (docs/peers.md "JAX-WS").
package soapbench.jaxws;

import java.util.ArrayList;
import java.util.List;
import javax.xml.bind.annotation.XmlAccessType;
import javax.xml.bind.annotation.XmlAccessorType;
import javax.xml.bind.annotation.XmlElement;
import javax.xml.bind.annotation.XmlSchemaType;
import javax.xml.bind.annotation.XmlType;
import javax.xml.datatype.XMLGregorianCalendar;
import soapbench.common.Contract;

public final class Types {
  private Types() {}

  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "IntArray", namespace = Contract.NS)
  public static class IntArray {
    @XmlElement(name = "item", namespace = Contract.NS)
    public List<Integer> item = new ArrayList<>(); // the values
  }

  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "DoubleArray", namespace = Contract.NS)
  public static class DoubleArray {
    @XmlElement(name = "item", namespace = Contract.NS)
    public List<Double> item = new ArrayList<>(); // the values
  }

  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "StringArray", namespace = Contract.NS)
  public static class StringArray {
    @XmlElement(name = "item", namespace = Contract.NS, nillable = true)
    public List<String> item = new ArrayList<>(); // the values
  }

  // What `complex` accepts: the birthdate is a dateTime or its text (dateTimeOrString).
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "PersonIn", namespace = Contract.NS,
      propOrder = {"id", "name", "weight", "birthdate", "children"})
  public static class PersonIn {
    @XmlElement(namespace = Contract.NS) public int id; // the person's id
    @XmlElement(namespace = Contract.NS) public String name; // full name
    @XmlElement(namespace = Contract.NS) public double weight; // kg
    @XmlElement(namespace = Contract.NS) public String birthdate; // as sent
    @XmlElement(namespace = Contract.NS) public PersonInArray children; // may be absent
  }

  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "PersonInArray", namespace = Contract.NS)
  public static class PersonInArray {
    @XmlElement(name = "item", namespace = Contract.NS)
    public List<PersonIn> item = new ArrayList<>(); // the people
  }

  // What `complex` answers: the birthdate typed.
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "Person", namespace = Contract.NS,
      propOrder = {"id", "name", "weight", "birthdate", "children"})
  public static class Person {
    @XmlElement(namespace = Contract.NS) public int id; // the person's id
    @XmlElement(namespace = Contract.NS) public String name; // full name
    @XmlElement(namespace = Contract.NS) public double weight; // kg
    @XmlElement(namespace = Contract.NS) @XmlSchemaType(name = "dateTime")
    public XMLGregorianCalendar birthdate; // no time zone, whole seconds
    @XmlElement(namespace = Contract.NS) public PersonArray children; // may be absent
  }

  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "PersonArray", namespace = Contract.NS)
  public static class PersonArray {
    @XmlElement(name = "item", namespace = Contract.NS)
    public List<Person> item = new ArrayList<>(); // the people
  }

  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "Paragraph", namespace = Contract.NS, propOrder = {"words"})
  public static class Paragraph {
    @XmlElement(namespace = Contract.NS) public String words; // space-separated words
  }

  // respond's answer: five paragraphs.
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "Document", namespace = Contract.NS, propOrder = {"e1", "e2", "e3", "e4", "e5"})
  public static class Document {
    @XmlElement(namespace = Contract.NS) public Paragraph e1; // first paragraph
    @XmlElement(namespace = Contract.NS) public Paragraph e2; // second
    @XmlElement(namespace = Contract.NS) public Paragraph e3; // third
    @XmlElement(namespace = Contract.NS) public Paragraph e4; // fourth
    @XmlElement(namespace = Contract.NS) public Paragraph e5; // fifth
  }

  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "ChainStep", namespace = Contract.NS,
      propOrder = {"step", "name", "host", "start", "duration", "status", "args"})
  public static class ChainStep {
    @XmlElement(namespace = Contract.NS) public int step; // position in the chain
    @XmlElement(namespace = Contract.NS) public String name; // step name
    @XmlElement(namespace = Contract.NS) public String host; // where it ran
    @XmlElement(namespace = Contract.NS) @XmlSchemaType(name = "dateTime")
    public XMLGregorianCalendar start; // when it started
    @XmlElement(namespace = Contract.NS) public double duration; // seconds
    @XmlElement(namespace = Contract.NS) public String status; // ok, failed, retry...
    @XmlElement(namespace = Contract.NS) public StringArray args; // its arguments
  }

  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "ChainStepArray", namespace = Contract.NS)
  public static class ChainStepArray {
    @XmlElement(name = "item", namespace = Contract.NS)
    public List<ChainStep> item = new ArrayList<>(); // the steps
  }
}
