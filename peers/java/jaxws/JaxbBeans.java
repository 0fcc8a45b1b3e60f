// The JAX-WS client's beans (Types.java, JAXB) as the common canonical-JSON writer takes them
// (soapbench.common.CanonicalJson's `plain` hook): a struct bean as a LinkedHashMap of its fields
// in its @XmlType's propOrder (the contract's order), an array bean (its one field `item`) as its
// list. Apart from the writer because JAXB is on the JAX-WS class path only, not on Axis's.
package soapbench.jaxws;

import java.util.LinkedHashMap;
import java.util.Map;
import javax.xml.bind.annotation.XmlType;

public final class JaxbBeans {
  private JaxbBeans() {}

  // `bean` as a Map (struct) or a List (array); IllegalArgumentException for any other type.
  public static Object plain(Object bean) {
    Class<?> type = bean.getClass();
    XmlType xml = type.getAnnotation(XmlType.class);
    if (xml == null) throw new IllegalArgumentException("not a contract type: " + type.getName());
    try {
      String[] order = xml.propOrder();
      if (order.length == 0 || order[0].isEmpty()) return type.getField("item").get(bean);
      Map<String, Object> members = new LinkedHashMap<>();
      for (String name : order) members.put(name, type.getField(name).get(bean));
      return members;
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException("not a contract type: " + type.getName(), e);
    }
  }
}
