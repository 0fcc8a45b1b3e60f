// xsd:dateTime as the contract writes it: "YYYY-MM-DDThh:mm:ssZ", whole seconds in UTC. Axis's
// own CalendarSerializer always writes milliseconds (".000Z"), which the contract has no form
// for (canonical dateTimes have no fractions; soapbench's decoders refuse them).
package soapbench.axis;

import java.text.SimpleDateFormat;
import java.util.Calendar;
import java.util.Date;
import java.util.TimeZone;
import javax.xml.namespace.QName;
import org.apache.axis.encoding.SerializationContext;
import org.apache.axis.encoding.ser.BaseSerializerFactory;
import org.apache.axis.encoding.ser.CalendarSerializer;

public class SecondsCalendarSerializer extends CalendarSerializer {
  @Override
  public String getValueAsString(Object value, SerializationContext context) {
    Date d = value instanceof Date ? (Date) value : ((Calendar) value).getTime();
    SimpleDateFormat f = new SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ss'Z'");
    f.setTimeZone(TimeZone.getTimeZone("UTC"));
    return f.format(d);
  }

  // The factory the deployment descriptor names for xsd:dateTime.
  public static class Factory extends BaseSerializerFactory {
    public Factory(Class javaType, QName xmlType) {
      super(SecondsCalendarSerializer.class, xmlType, javaType);
    }
  }
}
