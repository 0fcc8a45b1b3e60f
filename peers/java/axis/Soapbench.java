// The contract's operations in namespace urn:soapbench as an Axis java:RPC service class
// (deployed by soapbench.wsdd; getRate lives in Exchange, its own namespace). Semantics as
// harness/service.cpp, through soapbench.common.Contract; contract faults become SOAP Faults with
// detail/ns1:fault/code (AxisFaults.of).
package soapbench.axis;

import java.text.ParsePosition;
import java.text.SimpleDateFormat;
import java.util.Calendar;
import java.util.Date;
import java.util.TimeZone;
import org.apache.axis.AxisFault;
import soapbench.common.Contract;

public class Soapbench {
  public int add(int a, int b) throws AxisFault {
    try {
      return Contract.add(a, b);
    } catch (Contract.Fault f) {
      throw AxisFaults.of(f);
    }
  }

  public String concat(String s1, String s2) throws AxisFault {
    return concat(s1, s2, "");
  }

  public String concat(String s1, String s2, String s3) throws AxisFault {
    AxisFaults.notNil("s1", s1);
    AxisFaults.notNil("s2", s2);
    AxisFaults.notNil("s3", s3);
    return s1 + s2 + s3;
  }

  public int[] echoArray(int[] a, int[] b) {
    int na = a == null ? 0 : a.length;
    int nb = b == null ? 0 : b.length;
    int[] out = new int[na + nb];
    if (na > 0) System.arraycopy(a, 0, out, 0, na);
    if (nb > 0) System.arraycopy(b, 0, out, na, nb);
    return out;
  }

  // The operation `boolean` (a Java keyword: the descriptor maps it here).
  public boolean isTrue() {
    return true;
  }

  public Calendar now() {
    Calendar c = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
    c.set(Calendar.MILLISECOND, 0);
    return c;
  }

  public Beans.Person[] complex(Beans.PersonIn[] obj) throws AxisFault {
    return obj == null ? null : people(obj, "obj");
  }

  public void fail() throws AxisFault {
    throw AxisFaults.of(Contract.failFault());
  }

  public Beans.Document respond(int wordcount, int delay) throws AxisFault {
    String[] words;
    try {
      words = Contract.document(wordcount, delay);
    } catch (Contract.Fault f) {
      throw AxisFaults.of(f);
    }
    Beans.Paragraph[] p = new Beans.Paragraph[5];
    for (int i = 0; i < 5; ++i) {
      p[i] = new Beans.Paragraph();
      p[i].setWords(words[i]);
    }
    Beans.Document d = new Beans.Document();
    d.setE1(p[0]);
    d.setE2(p[1]);
    d.setE3(p[2]);
    d.setE4(p[3]);
    d.setE5(p[4]);
    Contract.delay(delay);
    return d;
  }

  public void sendString(String s) throws AxisFault {
    AxisFaults.notNil("s", s);
  }

  public String receiveString(int length) throws AxisFault {
    try {
      return Contract.letters(length);
    } catch (Contract.Fault f) {
      throw AxisFaults.of(f);
    }
  }

  public void sendInt(int i) {}

  // Answered by ChainPassthrough with the stored document; this method runs first (dispatch).
  public void getChain() throws AxisFault {
    if (ChainPassthrough.document() == null)
      throw AxisFaults.of(
          new Contract.Fault(Contract.INTERNAL_ERROR, "getChain document not loaded"));
  }

  public int[] echoInts(int[] values) {
    return values;
  }

  public double[] echoDoubles(double[] values) {
    return values;
  }

  public String[] echoStrings(String[] values) {
    return values;
  }

  public byte[] echoBase64(byte[] data) {
    return data;
  }

  // PersonIn[] to Person[]: birthdates sent as strings read as dateTimes (docs/service.md).
  private static Beans.Person[] people(Beans.PersonIn[] in, String where) throws AxisFault {
    Beans.Person[] out = new Beans.Person[in.length];
    for (int i = 0; i < in.length; ++i) {
      String at = where + "[" + i + "]";
      Beans.PersonIn p = in[i];
      if (p == null) continue;
      Beans.Person q = new Beans.Person();
      q.setId(p.getId());
      q.setName(p.getName());
      q.setWeight(p.getWeight());
      q.setBirthdate(birthdate(p.getBirthdate(), at + ".birthdate"));
      q.setChildren(p.getChildren() == null ? null : people(p.getChildren(), at + ".children"));
      out[i] = q;
    }
    return out;
  }

  // A dateTime (Calendar) or its text in ISO 8601 or Python's str(datetime) form, in UTC.
  private static Calendar birthdate(Object v, String where) throws AxisFault {
    if (v == null || v instanceof Calendar) return (Calendar) v;
    String text = v.toString();
    String iso = text.length() >= 19 && text.charAt(10) == ' '
        ? text.substring(0, 10) + "T" + text.substring(11) : text;
    if (iso.endsWith("Z")) iso = iso.substring(0, iso.length() - 1);
    else if (iso.endsWith("+00:00")) iso = iso.substring(0, iso.length() - 6);
    SimpleDateFormat f = new SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ss");
    f.setLenient(false);
    f.setTimeZone(TimeZone.getTimeZone("UTC"));
    ParsePosition pos = new ParsePosition(0);
    Date d = iso.length() == 19 ? f.parse(iso, pos) : null;
    if (d == null || pos.getIndex() != iso.length())
      throw AxisFaults.of(new Contract.Fault(
          Contract.INVALID_PARAMS, "invalid params: " + where + ": bad dateTime '" + text + "'"));
    Calendar c = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
    c.setTime(d);
    return c;
  }
}
