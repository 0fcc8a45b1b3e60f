// A call's ARGS (JSON values, as `soapbench call` takes them: docs/service.md) typed by the
// contract into SoapbenchPort's parameter types, read with Debian's javax.json (libjsonp-java).
// A dateTime or base64 value may be its text or its canonical JSON ({"$dateTime":...}).
package soapbench.jaxws;

import java.io.StringReader;
import java.math.BigDecimal;
import java.util.Base64;
import javax.json.Json;
import javax.json.JsonArray;
import javax.json.JsonNumber;
import javax.json.JsonObject;
import javax.json.JsonString;
import javax.json.JsonValue;
import javax.json.stream.JsonParser;
import javax.json.stream.JsonParsingException;

final class CallArgs {
  private final String[] args; // the ARGS as given
  private final String method; // for messages

  CallArgs(String method, String[] args) {
    this.method = method;
    this.args = args;
  }

  int count() {
    return args.length;
  }

  // ARGS[i] as JSON; a missing one or bad JSON is an IllegalArgumentException.
  JsonValue json(int i) {
    if (i >= args.length)
      throw new IllegalArgumentException(method + " takes at least " + (i + 1) + " arguments");
    try (javax.json.JsonReader r = Json.createReader(new StringReader(args[i]))) {
      return r.readValue();
    } catch (JsonParsingException e) {
      throw new IllegalArgumentException("argument " + (i + 1) + " is not JSON: " + args[i]);
    }
  }

  int integer(int i) {
    return toInt(json(i));
  }

  String string(int i) {
    return toText(json(i));
  }

  Types.IntArray ints(int i) {
    Types.IntArray a = new Types.IntArray();
    for (JsonValue v : array(json(i))) a.item.add(toInt(v));
    return a;
  }

  // Read with the streaming parser, whose number text keeps -0.0's sign (a BigDecimal does not).
  Types.DoubleArray doubles(int i) {
    array(json(i)); // an array, else the error
    Types.DoubleArray a = new Types.DoubleArray();
    try (JsonParser p = Json.createParser(new StringReader(args[i]))) {
      while (p.hasNext()) {
        JsonParser.Event e = p.next();
        if (e == JsonParser.Event.VALUE_NUMBER) a.item.add(Double.parseDouble(p.getString()));
        else if (e != JsonParser.Event.START_ARRAY && e != JsonParser.Event.END_ARRAY)
          throw new IllegalArgumentException("not a number in " + args[i]);
      }
    }
    return a;
  }

  Types.StringArray strings(int i) {
    Types.StringArray a = new Types.StringArray();
    for (JsonValue v : array(json(i))) a.item.add(v == JsonValue.NULL ? null : toText(v));
    return a;
  }

  byte[] base64(int i) {
    JsonValue v = json(i);
    if (v instanceof JsonObject) v = ((JsonObject) v).get("$base64");
    return Base64.getDecoder().decode(toText(v));
  }

  Types.PersonInArray people(int i) {
    return people(json(i));
  }

  private static Types.PersonInArray people(JsonValue v) {
    Types.PersonInArray a = new Types.PersonInArray();
    for (JsonValue item : array(v)) {
      if (!(item instanceof JsonObject))
        throw new IllegalArgumentException("not a Person: " + item);
      JsonObject o = (JsonObject) item;
      Types.PersonIn p = new Types.PersonIn();
      p.id = toInt(o.get("id"));
      p.name = toText(o.get("name"));
      p.weight = toNumber(o.get("weight")).doubleValue();
      JsonValue b = o.get("birthdate");
      if (b instanceof JsonObject) b = ((JsonObject) b).get("$dateTime");
      p.birthdate = b == null || b == JsonValue.NULL ? null : toText(b);
      JsonValue children = o.get("children");
      p.children = children == null || children == JsonValue.NULL ? null : people(children);
      a.item.add(p);
    }
    return a;
  }

  private static JsonArray array(JsonValue v) {
    if (!(v instanceof JsonArray)) throw new IllegalArgumentException("not an array: " + v);
    return (JsonArray) v;
  }

  private static BigDecimal toNumber(JsonValue v) {
    if (!(v instanceof JsonNumber)) throw new IllegalArgumentException("not a number: " + v);
    return ((JsonNumber) v).bigDecimalValue();
  }

  private static int toInt(JsonValue v) {
    try {
      return toNumber(v).intValueExact();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("not a 32-bit int: " + v);
    }
  }

  private static String toText(JsonValue v) {
    if (!(v instanceof JsonString)) throw new IllegalArgumentException("not a string: " + v);
    return ((JsonString) v).getString();
  }
}
