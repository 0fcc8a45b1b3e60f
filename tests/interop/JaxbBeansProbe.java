// jaxws_client's beans through the common canonical-JSON writer (JaxbBeans.plain as its hook),
// checked by tests/interop/test_canonical_json.py against Python's json.dumps: each input line is
// `TYPE HEX` (a class of peers/java/jaxws/Types.java and the UTF-8 XML of one, hex-encoded), read
// by JAXB as the client's Dispatch reads an answer; the output line is the bean's canonical JSON
// ("!" and the exception when refused).
package soapbench.probe;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import javax.xml.bind.JAXBContext;
import javax.xml.bind.JAXBException;
import javax.xml.bind.Unmarshaller;
import javax.xml.transform.stream.StreamSource;
import soapbench.common.CanonicalJson;
import soapbench.jaxws.JaxbBeans;
import soapbench.jaxws.Types;

public final class JaxbBeansProbe {
  private JaxbBeansProbe() {}

  public static void main(String[] args) throws IOException, JAXBException {
    CanonicalJson.utf8Stdout();
    Unmarshaller u = JAXBContext.newInstance(Types.class.getClasses()).createUnmarshaller();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String[] f = line.split(" ");
      try {
        Class<?> type = Class.forName(Types.class.getName() + "$" + f[0]);
        Object bean = u.unmarshal(new StreamSource(new ByteArrayInputStream(bytes(f[1]))), type)
            .getValue();
        StringBuilder out = new StringBuilder();
        CanonicalJson.value(out, bean, JaxbBeans::plain);
        System.out.println(out);
      } catch (ReflectiveOperationException | JAXBException | RuntimeException e) {
        System.out.println("!" + e);
      }
    }
    System.out.flush();
  }

  private static byte[] bytes(String hex) {
    byte[] b = new byte[hex.length() / 2];
    for (int i = 0; i < b.length; ++i)
      b[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
    return b;
  }
}
