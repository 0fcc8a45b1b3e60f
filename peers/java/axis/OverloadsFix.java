// AXIS-2909 in the Axis 1.4 that Debian ships (fixed upstream in 2015, after the last release):
// JavaServiceDesc.getOperationsByQName sorts the service's shared list of an operation's
// overloads on every call, and since Java 8 ArrayList.sort counts as a modification, so two calls
// dispatched at once can throw ConcurrentModificationException, which Axis answers as a
// Server.userException fault (tools/load_bench saw 1-2 in 1,500 calls at 64 connections).
// Upstream's fix sorts a copy; here, without changing Axis's jar, each shared list becomes one
// whose sort and copy are synchronized (docs/peers.md "Java stacks": the finding, and
// axis_server --as-packaged to see it).
package soapbench.axis;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import javax.xml.namespace.QName;
import org.apache.axis.AxisEngine;
import org.apache.axis.MessageContext;
import org.apache.axis.description.JavaServiceDesc;
import org.apache.axis.description.ServiceDesc;

final class OverloadsFix {
  private OverloadsFix() {}

  // JavaServiceDesc's two maps of name -> ArrayList of OperationDesc that the dispatch sorts.
  private static final String[] MAPS = {"qname2OperationsMap", "name2OperationsMap"};

  // An overloads list whose in-place sort cannot overlap another sort or a copy of it.
  static final class SortLockedList extends ArrayList<Object> {
    SortLockedList(Collection<?> items) {
      super(items);
    }

    @Override
    public synchronized void sort(Comparator<? super Object> c) {
      super.sort(c);
    }

    @Override
    public synchronized Object[] toArray() {
      return super.toArray();
    }

    @Override
    public synchronized <T> T[] toArray(T[] a) {
      return super.toArray(a);
    }
  }

  // Initializes every deployed service's description (as its first call would) and swaps its
  // overloads lists; returns how many lists were swapped.
  static int apply(AxisEngine engine) throws Exception {
    int swapped = 0;
    for (Iterator<?> it = engine.getConfig().getDeployedServices(); it.hasNext(); ) {
      String name = ((ServiceDesc) it.next()).getName();
      ServiceDesc desc = engine.getService(name).getInitializedServiceDesc(new MessageContext(engine));
      if (!(desc instanceof JavaServiceDesc)) continue;
      desc.getOperationsByQName(new QName("", "")); // builds the QName map, as a call would
      for (String map : MAPS) swapped += swap(desc, map);
    }
    return swapped;
  }

  @SuppressWarnings("unchecked")
  private static int swap(ServiceDesc desc, String name) throws ReflectiveOperationException {
    Field field = JavaServiceDesc.class.getDeclaredField(name);
    field.setAccessible(true);
    Map<Object, Object> map = (Map<Object, Object>) field.get(desc);
    if (map == null) return 0;
    for (Map.Entry<Object, Object> e : map.entrySet()) {
      e.setValue(new SortLockedList((Collection<?>) e.getValue()));
    }
    return map.size();
  }
}
