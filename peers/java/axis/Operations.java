// The contract's operations (docs/service.md) as axis_client's stub describes them to Axis: each
// an OperationDesc with its params' and result's XML types, Java classes and, in rpc/literal, the
// arrays' item element (`item`), as the stubs Axis's WSDL2Java generates build them; and a JSON
// argument turned into the Java value of its contract type.
package soapbench.axis;

import java.lang.reflect.Array;
import java.text.ParsePosition;
import java.text.SimpleDateFormat;
import java.util.Base64;
import java.util.Calendar;
import java.util.Date;
import java.util.TimeZone;
import javax.json.JsonArray;
import javax.json.JsonNumber;
import javax.json.JsonObject;
import javax.json.JsonString;
import javax.json.JsonValue;
import javax.xml.namespace.QName;
import org.apache.axis.Constants;
import org.apache.axis.constants.Style;
import org.apache.axis.constants.Use;
import org.apache.axis.description.OperationDesc;
import org.apache.axis.description.ParameterDesc;
import soapbench.common.Contract;

final class Operations {
  private Operations() {}

  // name, namespace, result type, params "name:type ..." (types as docs/service.md names them).
  private static final String[][] TABLE = {
    {"add", Contract.NS, "int", "a:int b:int"},
    {"concat", Contract.NS, "string", "s1:string s2:string s3:string"},
    {"echoArray", Contract.NS, "int[]", "a:int[] b:int[]"},
    {"boolean", Contract.NS, "bool", ""},
    {"now", Contract.NS, "dateTime", ""},
    {"complex", Contract.NS, "Person[]", "obj:PersonIn[]"},
    {"fail", Contract.NS, "void", ""},
    {"getRate", Contract.EXCHANGE_NS, "double", "country1:string country2:string"},
    {"respond", Contract.NS, "Document", "wordcount:int delay:int"},
    {"sendString", Contract.NS, "void", "s:string"},
    {"receiveString", Contract.NS, "string", "length:int"},
    {"sendInt", Contract.NS, "void", "i:int"},
    {"getChain", Contract.NS, "ChainStep[]", ""},
    {"echoInts", Contract.NS, "int[]", "values:int[]"},
    {"echoDoubles", Contract.NS, "double[]", "values:double[]"},
    {"echoStrings", Contract.NS, "string[]", "values:string[]"},
    {"echoBase64", Contract.NS, "base64", "data:base64"},
  };

  // The contract's scalar types: XML type and Java class.
  private static final Object[][] SCALARS = {
    {"int", Constants.XSD_INT, int.class}, {"double", Constants.XSD_DOUBLE, double.class},
    {"bool", Constants.XSD_BOOLEAN, boolean.class}, {"string", Constants.XSD_STRING, String.class},
    {"dateTime", Constants.XSD_DATETIME, Calendar.class},
    {"base64", Constants.XSD_BASE64, byte[].class},
    {"Person", new QName(Contract.NS, "Person"), Beans.Person.class},
    {"PersonIn", new QName(Contract.NS, "PersonIn"), Beans.PersonIn.class},
    {"Document", new QName(Contract.NS, "Document"), Beans.Document.class},
    {"Paragraph", new QName(Contract.NS, "Paragraph"), Beans.Paragraph.class},
    {"ChainStep", new QName(Contract.NS, "ChainStep"), Beans.ChainStep.class},
  };

  static final QName ITEM = new QName("", "item"); // a literal array's item element

  // The contract's row of `name`, or null.
  static String[] find(String name) {
    for (String[] row : TABLE) {
      if (row[0].equals(name)) return row;
    }
    return null;
  }

  // The params' names and types of a row, "name:type" each.
  static String[] params(String[] row) {
    return row[3].isEmpty() ? new String[0] : row[3].split(" ");
  }

  static Object[] scalar(String type) {
    for (Object[] s : SCALARS) {
      if (s[0].equals(type)) return s;
    }
    throw new IllegalArgumentException("no such type " + type);
  }

  // The XML type of `type`: an array is soapenc:Array (encoded) or ns:ArrayOf<Item> (literal).
  static QName xmlType(String type, boolean literal) {
    if (!type.endsWith("[]")) return (QName) scalar(type)[1];
    if (!literal) return Constants.SOAP_ARRAY;
    String item = type.substring(0, type.length() - 2);
    return new QName(Contract.NS, "ArrayOf" + Character.toUpperCase(item.charAt(0))
        + item.substring(1));
  }

  static Class<?> javaClass(String type) {
    if (!type.endsWith("[]")) return (Class<?>) scalar(type)[2];
    return Array.newInstance(javaClass(type.substring(0, type.length() - 2)), 0).getClass();
  }

  // The OperationDesc of `row` with `nparams` params, rpc style, encoded or literal.
  static OperationDesc describe(String[] row, int nparams, boolean literal) {
    OperationDesc op = new OperationDesc();
    op.setName(row[0]);
    op.setElementQName(new QName(row[1], row[0]));
    op.setStyle(Style.RPC);
    op.setUse(literal ? Use.LITERAL : Use.ENCODED);
    String[] params = params(row);
    for (int i = 0; i < nparams; ++i) {
      String[] p = params[i].split(":");
      ParameterDesc d = new ParameterDesc(new QName("", p[0]), ParameterDesc.IN,
          xmlType(p[1], literal), javaClass(p[1]), false, false);
      if (literal && p[1].endsWith("[]")) d.setItemQName(ITEM);
      op.addParameter(d);
    }
    if (row[2].equals("void")) {
      op.setReturnType(Constants.XSD_ANYTYPE);
      op.setReturnClass(void.class);
    } else {
      op.setReturnQName(new QName("", "return"));
      op.setReturnType(xmlType(row[2], literal));
      op.setReturnClass(javaClass(row[2]));
      if (literal && row[2].endsWith("[]")) op.getReturnParamDesc().setItemQName(ITEM);
    }
    return op;
  }

  // A JSON argument (JSON-P's JsonValue) as the Java value of contract type `type`;
  // IllegalArgumentException when it is not one.
  static Object argument(JsonValue json, String type, String where) {
    if (json == null || json == JsonValue.NULL) return null;
    if (type.endsWith("[]")) {
      if (!(json instanceof JsonArray)) throw wrong(where, type, json);
      JsonArray items = (JsonArray) json;
      String item = type.substring(0, type.length() - 2);
      Object out = Array.newInstance(javaClass(item), items.size());
      for (int i = 0; i < items.size(); ++i) {
        Array.set(out, i, argument(items.get(i), item, where + "[" + i + "]"));
      }
      return out;
    }
    switch (type) {
      case "int":
        if (!(json instanceof JsonNumber)) throw wrong(where, type, json);
        return ((JsonNumber) json).intValueExact();
      case "double":
        if (!(json instanceof JsonNumber)) throw wrong(where, type, json);
        return ((JsonNumber) json).doubleValue();
      case "bool":
        if (json != JsonValue.TRUE && json != JsonValue.FALSE) throw wrong(where, type, json);
        return json == JsonValue.TRUE;
      case "string":
        return text(json, where, type);
      case "dateTime":
        return dateTime(text(json, where, type), where);
      case "base64":
        return Base64.getDecoder().decode(text(json, where, type));
      case "PersonIn":
        return personIn(json, where);
      default:
        throw new IllegalArgumentException(where + ": " + type + " is not a param type");
    }
  }

  private static String text(JsonValue json, String where, String type) {
    if (!(json instanceof JsonString)) throw wrong(where, type, json);
    return ((JsonString) json).getString();
  }

  private static Beans.PersonIn personIn(JsonValue json, String where) {
    if (!(json instanceof JsonObject)) throw wrong(where, "PersonIn", json);
    JsonObject o = (JsonObject) json;
    Beans.PersonIn p = new Beans.PersonIn();
    p.setId((int) argument(o.get("id"), "int", where + ".id"));
    p.setName((String) argument(o.get("name"), "string", where + ".name"));
    p.setWeight((double) argument(o.get("weight"), "double", where + ".weight"));
    // dateTimeOrString: sent as the string it is
    p.setBirthdate(argument(o.get("birthdate"), "string", where + ".birthdate"));
    p.setChildren((Beans.PersonIn[]) argument(o.get("children"), "PersonIn[]", where + ".children"));
    return p;
  }

  private static Calendar dateTime(String json, String where) {
    SimpleDateFormat f = new SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ss");
    f.setLenient(false);
    f.setTimeZone(TimeZone.getTimeZone("UTC"));
    ParsePosition pos = new ParsePosition(0);
    Date d = f.parse(json, pos);
    if (d == null || pos.getIndex() != json.length()) throw wrong(where, "dateTime", json);
    Calendar c = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
    c.setTime(d);
    return c;
  }

  private static IllegalArgumentException wrong(String where, String type, Object json) {
    return new IllegalArgumentException(where + " is not a " + type + ": " + json);
  }
}
