// The contract's structs as Axis beans (docs/service.md): Person, PersonIn, Document, Paragraph,
// ChainStep.
// Each has a static getTypeDesc(), which Axis's BeanSerializer reads for the member order (the
// contract's order is part of the type; bean introspection would sort the members by name).
package soapbench.axis;

import java.util.Calendar;
import javax.xml.namespace.QName;
import org.apache.axis.description.ElementDesc;
import org.apache.axis.description.TypeDesc;

final class Beans {
  private Beans() {}

  static final String XSD = "http://www.w3.org/2001/XMLSchema";

  // A TypeDesc for `cls` (xml type ns:`type`) with unqualified members {name, xsd-or-ns type};
  // an empty type (arrays): the serializer of the member's Java type decides, items named `item`.
  static TypeDesc describe(Class<?> cls, String type, String[][] members) {
    TypeDesc d = new TypeDesc(cls);
    d.setXmlType(new QName(soapbench.common.Contract.NS, type));
    for (String[] m : members) {
      ElementDesc e = new ElementDesc();
      e.setFieldName(m[0]);
      e.setXmlName(new QName("", m[0]));
      String ns = m[1].startsWith("xsd:") ? XSD : soapbench.common.Contract.NS;
      if (!m[1].isEmpty()) e.setXmlType(new QName(ns, m[1].substring(m[1].indexOf(':') + 1)));
      // rpc/literal: an array member is a wrapper holding one `item` per value (encoded
      // arrays name their items `item` anyway).
      else e.setItemQName(new QName("", "item"));
      e.setNillable(true);
      d.addFieldDesc(e);
    }
    return d;
  }

  // Person: id, name, weight, birthdate (dateTime), children.
  public static class Person {
    private int id; // the person's id
    private String name; // the person's name
    private double weight; // kilograms
    private Calendar birthdate; // UTC
    private Person[] children; // in order

    private static final TypeDesc TYPE = describe(Person.class, "Person", new String[][] {
      {"id", "xsd:int"}, {"name", "xsd:string"}, {"weight", "xsd:double"},
      {"birthdate", "xsd:dateTime"}, {"children", ""}
    });

    public static TypeDesc getTypeDesc() { return TYPE; }
    public int getId() { return id; }
    public void setId(int v) { id = v; }
    public String getName() { return name; }
    public void setName(String v) { name = v; }
    public double getWeight() { return weight; }
    public void setWeight(double v) { weight = v; }
    public Calendar getBirthdate() { return birthdate; }
    public void setBirthdate(Calendar v) { birthdate = v; }
    public Person[] getChildren() { return children; }
    public void setChildren(Person[] v) { children = v; }
  }

  // PersonIn: as Person, the birthdate a dateTime or a string (dateTimeOrString).
  public static class PersonIn {
    private int id; // the person's id
    private String name; // the person's name
    private double weight; // kilograms
    private Object birthdate; // a Calendar or a String, as its xsi:type said
    private PersonIn[] children; // in order

    private static final TypeDesc TYPE = describe(PersonIn.class, "PersonIn", new String[][] {
      {"id", "xsd:int"}, {"name", "xsd:string"}, {"weight", "xsd:double"},
      {"birthdate", "xsd:anyType"}, {"children", ""}
    });

    public static TypeDesc getTypeDesc() { return TYPE; }
    public int getId() { return id; }
    public void setId(int v) { id = v; }
    public String getName() { return name; }
    public void setName(String v) { name = v; }
    public double getWeight() { return weight; }
    public void setWeight(double v) { weight = v; }
    public Object getBirthdate() { return birthdate; }
    public void setBirthdate(Object v) { birthdate = v; }
    public PersonIn[] getChildren() { return children; }
    public void setChildren(PersonIn[] v) { children = v; }
  }

  // Paragraph: words.
  public static class Paragraph {
    private String words; // space-separated words

    private static final TypeDesc TYPE =
        describe(Paragraph.class, "Paragraph", new String[][] {{"words", "xsd:string"}});

    public static TypeDesc getTypeDesc() { return TYPE; }
    public String getWords() { return words; }
    public void setWords(String v) { words = v; }
  }

  // ChainStep (getChain's items, read by axis_client): step, name, host, start, duration,
  // status, args.
  public static class ChainStep {
    private int step; // the step's number
    private String name; // its name
    private String host; // where it ran
    private Calendar start; // when it started, UTC
    private double duration; // seconds
    private String status; // how it ended
    private String[] args; // its arguments

    private static final TypeDesc TYPE = describe(ChainStep.class, "ChainStep", new String[][] {
      {"step", "xsd:int"}, {"name", "xsd:string"}, {"host", "xsd:string"},
      {"start", "xsd:dateTime"}, {"duration", "xsd:double"}, {"status", "xsd:string"},
      {"args", ""}
    });

    public static TypeDesc getTypeDesc() { return TYPE; }
    public int getStep() { return step; }
    public void setStep(int v) { step = v; }
    public String getName() { return name; }
    public void setName(String v) { name = v; }
    public String getHost() { return host; }
    public void setHost(String v) { host = v; }
    public Calendar getStart() { return start; }
    public void setStart(Calendar v) { start = v; }
    public double getDuration() { return duration; }
    public void setDuration(double v) { duration = v; }
    public String getStatus() { return status; }
    public void setStatus(String v) { status = v; }
    public String[] getArgs() { return args; }
    public void setArgs(String[] v) { args = v; }
  }

  // Document: e1 … e5, one Paragraph each.
  public static class Document {
    private Paragraph e1, e2, e3, e4, e5; // the five paragraphs

    private static final TypeDesc TYPE = describe(Document.class, "Document", new String[][] {
      {"e1", "ns:Paragraph"}, {"e2", "ns:Paragraph"}, {"e3", "ns:Paragraph"},
      {"e4", "ns:Paragraph"}, {"e5", "ns:Paragraph"}
    });

    public static TypeDesc getTypeDesc() { return TYPE; }
    public Paragraph getE1() { return e1; }
    public void setE1(Paragraph v) { e1 = v; }
    public Paragraph getE2() { return e2; }
    public void setE2(Paragraph v) { e2 = v; }
    public Paragraph getE3() { return e3; }
    public void setE3(Paragraph v) { e3 = v; }
    public Paragraph getE4() { return e4; }
    public void setE4(Paragraph v) { e4 = v; }
    public Paragraph getE5() { return e5; }
    public void setE5(Paragraph v) { e5 = v; }
  }
}
