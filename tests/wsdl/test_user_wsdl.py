#!/usr/bin/python3
"""`--wsdl` with WSDLs written by others gives the typed values their messages carry.

- gSOAP: soapcpp2 (the peer's own build tool, peers/gsoap) writes the WSDL of the peer service in
  each style; the corpus messages of that style decode with it to the manifest's values (gSOAP's
  rpc/literal WSDL gives scalar results as element="ns:return", an element it never declares:
  those six operations are refused, naming it, and the other eleven still match).
- SOAP::Lite: the three example WSDLs Debian's libsoap-lite-perl ships in its documentation
  (rpc/encoded, rpc/literal, document/literal), with the calls and answers a real SOAP::Lite
  client and server exchange (tests/wsdl/soaplite_hello.pl).
- A published service: CDYNE's Weather WSDL as npm's strong-soap ships it
  (example/wsdls/weather.wsdl, unpacked by tools/setup.sh into its npm cache), with messages zeep
  builds from the same WSDL.
- `wsdl --check` on a WSDL that types nothing exits 1.
Usage: test_user_wsdl.py SOAPBENCH [unittest args]; SB_SOAPCPP2, SB_GSOAP_IMPORT, SOAPBENCH_SUITES_DIR
from the environment (CMake sets them).
"""
import datetime
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SOAPBENCH = None
SOAPLITE_EXAMPLES = "/usr/share/doc/libsoap-lite-perl/examples/WSDL"
NPM_CACHE = os.environ.get("SOAPBENCH_SUITES_DIR", "/var/cache/soapbench/npm")
WEATHER = os.path.join(NPM_CACHE, "strong-soap", "example", "wsdls",
                       "weather.wsdl")


def decode(paths, wsdl=(), parser="libxml2/sax"):
    """(exit status, [canonical JSON or None per file], stderr) of soapbench decode --wsdl."""
    lines, errors, status = [], [], 0
    for p in paths:
        cmd = [SOAPBENCH, "decode", "--parser", parser] + [a for w in wsdl for a in ("--wsdl", w)]
        r = subprocess.run(cmd + [p], capture_output=True, text=True, timeout=60)
        status = max(status, r.returncode)
        lines.append(r.stdout.strip() or None)
        errors.append(r.stderr.strip())
    return status, lines, errors


def soapcpp2_wsdl(out, style, options):
    """Runs soapcpp2 on the gSOAP peer's binding_<style>.h into the new folder `out`, as
    peers/gsoap/CMakeLists.txt runs it but without -w: the WSDLs and schemas too."""
    soapcpp2 = os.environ.get("SB_SOAPCPP2") or "/usr/bin/soapcpp2"
    imports = os.environ.get("SB_GSOAP_IMPORT") or "/usr/share/gsoap/import"
    os.makedirs(out)
    subprocess.run([soapcpp2, *options, "-x", "-L", "-S", "-d" + out,
                    f"-I{os.path.join(REPO, 'peers', 'gsoap')}:{imports}",
                    os.path.join(REPO, "peers", "gsoap", f"binding_{style}.h")],
                   check=True, capture_output=True, timeout=120)


def manifest():
    with open(os.path.join(REPO, "corpus", "manifest.json"), encoding="utf-8") as f:
        return [e for e in json.load(f)["entries"] if not e.get("hostile")]


class GsoapTest(unittest.TestCase):
    """The WSDLs soapcpp2 writes for the gSOAP peer's three bindings."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="sb-gsoap-wsdl-")
        cls.wsdl = {}
        for style, options in (("doc_literal", []), ("rpc_literal", []), ("rpc_encoded", ["-t"])):
            out = os.path.join(cls.tmp.name, style)
            soapcpp2_wsdl(out, style, options)
            # getRate's namespace (urn:demo1:exchange) gets a WSDL of its own.
            cls.wsdl[style] = [os.path.join(out, "soapbench.wsdl"), os.path.join(out, "ex.wsdl")]

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def check_family(self, style, families, refused=()):
        entries = [e for e in manifest() if e["family"] in families]
        self.assertGreater(len(entries), 20)
        _status, lines, errors = decode([os.path.join(REPO, "corpus", e["path"]) for e in entries],
                                        self.wsdl[style])
        matched = 0
        for e, line, err in zip(entries, lines, errors):
            if e["operation"] in refused:
                self.assertIsNone(line, e["path"])
                self.assertIn(f"operation {e['operation']}", err, e["path"])
                continue
            if "canonical" in e:
                self.assertEqual(line, e["canonical"], f"{e['path']}: {err}")
                matched += 1
        self.assertGreater(matched, 10)

    def test_document_literal(self):
        self.check_family("doc_literal", ("soap11-doc-literal", "soap12-doc-literal"))

    def test_rpc_encoded(self):
        self.check_family("rpc_encoded", ("soap11-rpc-encoded",))

    def test_rpc_literal(self):
        r = subprocess.run([SOAPBENCH, "wsdl", "--check", *self.wsdl["rpc_literal"]],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("refused: add: element {urn:soapbench}return is not declared", r.stdout)
        refused = {line[len("refused: "):].split(":")[0] for line in r.stdout.splitlines()
                   if line.startswith("refused: ")}
        # The operations with a scalar result (element="ns:return"); arrays, structs and void
        # results are typed.
        self.assertEqual(refused, {"add", "concat", "boolean", "now", "receiveString", "getRate"})
        self.check_family("rpc_literal", ("soap11-rpc-literal",), refused)


class SoapLiteTest(unittest.TestCase):
    """Debian's libsoap-lite-perl example WSDLs, with SOAP::Lite's own traffic."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="sb-soaplite-")
        subprocess.run(["perl", os.path.join(HERE, "soaplite_hello.pl"), cls.tmp.name],
                       check=True, capture_output=True, timeout=120)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def exchange(self, style, wsdl_name):
        wsdl = os.path.join(SOAPLITE_EXAMPLES, f"say_hello_{wsdl_name}.wsdl")
        self.assertTrue(os.path.exists(wsdl), f"{wsdl}: install libsoap-lite-perl (tools/setup.sh)")
        paths = [os.path.join(self.tmp.name, f"{style}.{d}.xml") for d in ("call", "response")]
        return decode(paths, [wsdl])

    def test_rpc_encoded(self):
        status, lines, errors = self.exchange("rpcenc", "rpcenc")
        self.assertEqual(status, 0, errors)
        self.assertEqual(lines, ['{"kind":"call","method":"sayHello","params":["Kutter","Martin"]}',
                                 '{"kind":"response","method":"sayHello","result":'
                                 '"Hello Martin Kutter"}'])
        # rpc/encoded carries xsi:type: the same values without the WSDL.
        self.assertEqual(decode([os.path.join(self.tmp.name, "rpcenc.call.xml")])[1], lines[:1])

    # SOAP::Lite writes the wrapper with a default namespace (xmlns="urn:HelloWorld"), so every
    # child is in urn:HelloWorld, where its example schemas (no elementFormDefault) put them in
    # no namespace: its literal traffic does not fit its own WSDLs (XML Schema 1.0 Part 1
    # section 3.3.2; WS-I Basic Profile R2735 for rpc/literal's part accessors). Refused, naming
    # the element and both namespaces, never typed as if it fitted (docs/corpus.md).
    def assert_does_not_fit(self, style, wsdl_name, elements):
        status, lines, errors = self.exchange(style, wsdl_name)
        self.assertEqual(status, 1)
        self.assertEqual(lines, [None] * len(elements))
        for error, element in zip(errors, elements):
            self.assertIn(f"the WSDL does not fit the message: <{element}> is in namespace "
                          "'urn:HelloWorld', its schema puts it in no namespace", error)

    def test_rpc_literal(self):
        self.assert_does_not_fit("rpclit", "rpclit", ["parameters", "parameters"])

    def test_rpc_literal_as_the_example_script_sends_it(self):
        # say_hello_rpclit.pl also wraps the parameters in a soapenc:Array its WSDL does not
        # declare; the qualified accessor is met first.
        self.assert_does_not_fit("rpclit-example", "rpclit", ["parameters", "parameters"])

    def test_document_literal(self):
        self.assert_does_not_fit("doclit", "doclit", ["name", "sayHelloResult"])


class PublishedWsdlTest(unittest.TestCase):
    """CDYNE's Weather service WSDL (npm strong-soap 5.0.10, example/wsdls/weather.wsdl)."""

    def setUp(self):
        self.assertTrue(os.path.exists(WEATHER), f"{WEATHER}: run tools/setup.sh")

    def test_check_lists_the_soap_operations(self):
        r = subprocess.run([SOAPBENCH, "wsdl", "--check", WEATHER], capture_output=True,
                           text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("3 operations typed, 0 refused", r.stdout)
        self.assertIn("binding WeatherHttpGet is not a SOAP binding", r.stdout)

    def test_messages_zeep_builds_decode_to_their_values(self):
        import zeep  # Debian's python3-zeep
        from lxml import etree
        client = zeep.Client(WEATHER)
        with tempfile.TemporaryDirectory(prefix="sb-weather-") as tmp:
            call = os.path.join(tmp, "call.xml")
            with open(call, "wb") as f:
                f.write(etree.tostring(client.create_message(
                    client.service, "GetCityForecastByZIP", ZIP="10001")))
            tns = "{http://ws.cdyne.com/WeatherWS/}"
            element = client.get_element(tns + "GetCityForecastByZIPResponse")
            soap = "{http://schemas.xmlsoap.org/soap/envelope/}"
            env = etree.Element(soap + "Envelope")
            body = etree.SubElement(env, soap + "Body")
            days = [(datetime.datetime(2024, 5, 6), 2, "Partly Cloudy", "-", "70"),
                    (datetime.datetime(2024, 5, 7), 4, "Sunny", "55", "75")]
            element.render(body, element(GetCityForecastByZIPResult={
                "Success": True, "ResponseText": "City Found", "State": "NY",
                "City": "New York", "WeatherStationCity": "White Plains",
                "ForecastResult": {"Forecast": [
                    {"Date": d, "WeatherID": w, "Desciption": text,
                     "Temperatures": {"MorningLow": lo, "DaytimeHigh": hi},
                     "ProbabilityOfPrecipiation": {"Nighttime": "20", "Daytime": "10"}}
                    for d, w, text, lo, hi in days]}}))
            response = os.path.join(tmp, "response.xml")
            with open(response, "wb") as f:
                f.write(etree.tostring(env))
            status, lines, errors = decode([call, response], [WEATHER], parser="expat/sax")
        self.assertEqual(status, 0, errors)
        self.assertEqual(json.loads(lines[0]), {"kind": "call", "method": "GetCityForecastByZIP",
                                                "params": ["10001"]})
        forecast = [{"Date": {"$dateTime": d.isoformat()}, "WeatherID": w, "Desciption": text,
                     "Temperatures": {"MorningLow": lo, "DaytimeHigh": hi},
                     "ProbabilityOfPrecipiation": {"Nighttime": "20", "Daytime": "10"}}
                    for d, w, text, lo, hi in days]
        self.assertEqual(json.loads(lines[1]), {
            "kind": "response", "method": "GetCityForecastByZIP",
            "result": {"Success": True, "ResponseText": "City Found", "State": "NY",
                       "City": "New York", "WeatherStationCity": "White Plains",
                       "ForecastResult": forecast}})


# A SOAP binding with no operation: a WSDL that types nothing.
EMPTY_SOAP_WSDL = """<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"
  xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:t="urn:t" targetNamespace="urn:t">
  <portType name="P"/>
  <binding name="B" type="t:P">
    <soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/></binding>
</definitions>"""


class CheckExitTest(unittest.TestCase):
    """`wsdl --check` exits 1 when it typed nothing: a script checking a WSDL must see it."""

    def test_nothing_typed_fails(self):
        with tempfile.TemporaryDirectory(prefix="sb-wsdl-check-") as tmp:
            path = os.path.join(tmp, "empty.wsdl")
            with open(path, "w", encoding="utf-8") as f:
                f.write(EMPTY_SOAP_WSDL)
            r = subprocess.run([SOAPBENCH, "wsdl", "--check", path], capture_output=True,
                               text=True, timeout=60)
        self.assertIn("0 operations typed, 0 refused", r.stdout)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("soapbench: wsdl: no SOAP operation typed", r.stderr)


if __name__ == "__main__":
    SOAPBENCH = os.path.abspath(sys.argv.pop(1))
    unittest.main()
