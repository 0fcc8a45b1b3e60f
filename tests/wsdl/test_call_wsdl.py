#!/usr/bin/python3
"""`soapbench call --wsdl FILE [--url URL] OPERATION [ARGS...]`: a user's SOAP service, called as
its WSDL 1.1 says (binding, SOAPAction, address, types).

- OwnServiceTest: `soapbench serve`'s own WSDL (GET /soap?wsdl) gives the same canonical JSON as
  the built-in `soapbench call` for the same calls; a recording proxy in front of the server shows
  the request is the binding's (SOAP 1.1 doc/literal by default; only the rpc/encoded or the SOAP
  1.2 port kept: that family's envelope, content type and SOAPAction), and the address is the
  WSDL's soap:address unless --url is given.
- ErrorTest: one-line errors, exit 1 like every usage error (a fault exits 2).
- GsoapCallTest: the WSDLs soapcpp2 writes for the gSOAP peer against gsoap_server itself (only
  when the peer is built: argv[2]).
Usage: test_call_wsdl.py SOAPBENCH [GSOAP_SERVER] [unittest args]; SB_SOAPCPP2, SB_GSOAP_IMPORT
from the environment. Servers listen on 127.0.0.1 port 0 and are stopped by PID.
"""
import http.server
import os
import re
import subprocess
import sys
import tempfile
import threading
import unittest
import urllib.error
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
from test_wsdl import START_TIMEOUT, _read_line, stop_server  # noqa: E402
from test_user_wsdl import soapcpp2_wsdl  # noqa: E402

SOAPBENCH = None
GSOAP_SERVER = None

PERSON = ('[{"id":1,"name":"Ann <&>","weight":61.5,"birthdate":"1990-01-02T03:04:05",'
          '"children":[{"id":2,"name":"Bo","weight":3.25,"birthdate":"2020-05-06T07:08:09",'
          '"children":[]}]}]')
# (operation, args, expected canonical JSON)
CALLS = [
    ("add", ["2", "3"], '{"kind":"response","method":"add","result":5}'),
    ("getRate", ['"USA"', '"japan"'], '{"kind":"response","method":"getRate","result":1.25}'),
    ("echoArray", ["[1,2]", "[3]"], '{"kind":"response","method":"echoArray","result":[1,2,3]}'),
    ("concat", ['"a"', '"<&>"', '"c"'], '{"kind":"response","method":"concat","result":"a<&>c"}'),
    ("fail", [], '{"kind":"fault","code":4,"message":"division by zero"}'),
]


def run(*args):
    """(exit status, stdout, stderr) of soapbench."""
    r = subprocess.run([SOAPBENCH, *args], capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout.strip(), r.stderr.strip()


def start(command):
    """(process, base URL) of a server started on 127.0.0.1, port 0."""
    proc = subprocess.Popen(command + ["--address", "127.0.0.1", "--port", "0"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    match = re.search(r"serving (http://[0-9.]+:[0-9]+)", _read_line(proc, START_TIMEOUT) or "")
    if match is None:
        stop_server(proc)
        raise RuntimeError("%s did not start" % command[0])
    return proc, match.group(1)


class Recorder(http.server.ThreadingHTTPServer):
    """A proxy that records each request (path, headers, body) and forwards it to `target`."""

    def __init__(self, target):
        super().__init__(("127.0.0.1", 0), RecordingHandler)
        self.target, self.requests = target, []
        self.url = "http://127.0.0.1:%d" % self.server_address[1]
        threading.Thread(target=self.serve_forever, daemon=True).start()


class RecordingHandler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802 (http.server's name)
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.server.requests.append((self.path, dict(self.headers), body.decode("utf-8")))
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
        req = urllib.request.Request(self.server.target + self.path, body, headers)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                status, rtype, rbody = r.status, r.headers["Content-Type"], r.read()
        except urllib.error.HTTPError as e:  # a SOAP fault comes with 500
            status, rtype, rbody = e.code, e.headers["Content-Type"], e.read()
        self.send_response(status)
        self.send_header("Content-Type", rtype)
        self.send_header("Content-Length", str(len(rbody)))
        self.end_headers()
        self.wfile.write(rbody)

    def log_message(self, *args):
        pass


def keep_binding(wsdl_text, binding, address):
    """Our WSDL with only the binding named `binding` and its port, at `address` (edited as text:
    its QName attribute values need the prefixes an XML round trip would rename)."""
    def drop_other(match):
        return match.group(0) if f'"{binding}"' in match.group(1) or \
            f':{binding}"' in match.group(1) else ""
    text = re.sub(r"<wsdl:binding ([^>]*)>.*?</wsdl:binding>", drop_other, wsdl_text, flags=re.S)
    text = re.sub(r"<wsdl:port ([^>]*)>.*?</wsdl:port>", drop_other, text, flags=re.S)
    return re.sub(r'(:address location=)"[^"]*"', f'\\1"{address}"', text)


class OwnServiceTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="sb-call-wsdl-")
        cls.proc, cls.url = start([SOAPBENCH, "serve", "--threads", "1"])
        with urllib.request.urlopen(cls.url + "/soap?wsdl", timeout=30) as r:
            cls.wsdl_text = r.read().decode("utf-8")
        cls.wsdl = cls.write("service.wsdl", cls.wsdl_text)
        cls.proxy = Recorder(cls.url)

    @classmethod
    def tearDownClass(cls):
        cls.proxy.shutdown()
        cls.proxy.server_close()
        stop_server(cls.proc)
        cls.tmp.cleanup()

    @classmethod
    def write(cls, name, text):
        path = os.path.join(cls.tmp.name, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def call(self, wsdl, op, args, *options):
        """The last request the proxy forwarded and the output of call --wsdl through it."""
        del self.proxy.requests[:]
        status, out, err = run("call", "--wsdl", wsdl, *options, op, *args)
        self.assertEqual(status, 2 if op == "fail" else 0, err)
        self.assertEqual(len(self.proxy.requests), 1)
        return self.proxy.requests[0], out

    def test_same_json_as_builtin_call(self):
        for op, args, expected in CALLS:
            with self.subTest(op=op):
                status, out, err = run("call", "--wsdl", self.wsdl, op, *args)
                self.assertEqual((status, out), (2 if op == "fail" else 0, expected), err)
                _, builtin, _ = run("call", "--url", self.url, "--protocol", "soap11", op, *args)
                self.assertEqual(out, builtin)

    def test_complex_struct_array(self):
        _, builtin, _ = run("call", "--url", self.url, "--protocol", "soap11", "complex", PERSON)
        self.assertIn('"$dateTime":"2020-05-06T07:08:09"', builtin)
        self.assertEqual(run("call", "--wsdl", self.wsdl, "complex", PERSON)[1], builtin)

    def test_default_binding_is_the_first_doc_literal_11(self):
        # The SOAPAction is the WSDL's, whatever it is (ours says NAMESPACE#NAME).
        wsdl = self.write("action.wsdl", self.wsdl_text.replace(
            'soapAction="urn:demo1:exchange#getRate"', 'soapAction="urn:user:rate"'))
        (path, headers, body), out = self.call(wsdl, "getRate", ['"USA"', '"japan"'],
                                               "--url", self.proxy.url + "/soap")
        self.assertEqual(out, CALLS[1][2])
        self.assertEqual(path, "/soap")
        self.assertTrue(headers["Content-Type"].startswith("text/xml"), headers)
        self.assertEqual(headers["SOAPAction"], '"urn:user:rate"')
        self.assertIn('<getRate xmlns="urn:demo1:exchange"><country1>USA</country1>', body)

    def test_rpc_encoded_binding_and_its_address(self):
        wsdl = self.write("encoded.wsdl", keep_binding(
            self.wsdl_text, "SoapBenchRpcEncoded11Binding", self.proxy.url + "/soap"))
        (_, headers, body), out = self.call(wsdl, "echoArray", ["[1,2]", "[3]"])
        self.assertEqual(out, CALLS[2][2])
        self.assertEqual(headers["SOAPAction"], '"urn:soapbench#echoArray"')
        self.assertIn("<ns1:echoArray", body)
        self.assertIn('SOAP-ENC:arrayType="xsd:int[2]"', body)

    def test_soap12_binding(self):
        wsdl = self.write("soap12.wsdl", keep_binding(
            self.wsdl_text, "SoapBenchDocLiteral12Binding", self.proxy.url + "/soap"))
        (_, headers, body), out = self.call(wsdl, "add", ["2", "3"])
        self.assertEqual(out, CALLS[0][2])
        self.assertEqual(headers["Content-Type"],
                         'application/soap+xml; charset=utf-8; action="urn:soapbench#add"')
        self.assertIn("http://www.w3.org/2003/05/soap-envelope", body)

    def test_url_overrides_the_address(self):
        wsdl = self.write("nowhere.wsdl", keep_binding(
            self.wsdl_text, "SoapBenchDocLiteral11Binding", "http://127.0.0.1:9/soap"))
        self.assertEqual(run("call", "--wsdl", wsdl, "--url", self.url + "/soap", "add", "2",
                             "3")[:2], (0, CALLS[0][2]))
        status, _, err = run("call", "--wsdl", wsdl, "add", "2", "3")
        self.assertEqual(status, 1)
        self.assertIn("127.0.0.1:9", err)


# A user's WSDL: `ping` (document/literal wrapped, one int), `pair` (two parts: refused), `sum`
# (its call element sumRequest, n any number of times), in a
# binding of namespace BINDING_NS and style STYLE; a service port only when ADDRESS is given.
USER_WSDL = """<?xml version="1.0"?>
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:s="BINDING_NS"
  xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:user" targetNamespace="urn:user">
 <types><xsd:schema targetNamespace="urn:user" elementFormDefault="qualified">
  <xsd:element name="ping"><xsd:complexType><xsd:sequence>
   <xsd:element name="n" type="xsd:int"/></xsd:sequence></xsd:complexType></xsd:element>
  <xsd:element name="pingResponse"><xsd:complexType><xsd:sequence>
   <xsd:element name="r" type="xsd:int"/></xsd:sequence></xsd:complexType></xsd:element>
  <xsd:element name="sumRequest"><xsd:complexType><xsd:sequence>
   <xsd:element name="n" type="xsd:int" maxOccurs="unbounded"/></xsd:sequence></xsd:complexType>
  </xsd:element>
  <xsd:element name="sumResponse"><xsd:complexType><xsd:sequence>
   <xsd:element name="total" type="xsd:int"/></xsd:sequence></xsd:complexType></xsd:element>
 </xsd:schema></types>
 <message name="pingIn"><part name="p" element="tns:ping"/></message>
 <message name="pingOut"><part name="p" element="tns:pingResponse"/></message>
 <message name="sumIn"><part name="p" element="tns:sumRequest"/></message>
 <message name="sumOut"><part name="p" element="tns:sumResponse"/></message>
 <message name="pairIn"><part name="a" element="tns:ping"/><part name="b" element="tns:ping"/>
 </message>
 <portType name="P">
  <operation name="ping"><input message="tns:pingIn"/><output message="tns:pingOut"/></operation>
  <operation name="pair"><input message="tns:pairIn"/><output message="tns:pingOut"/></operation>
  <operation name="sum"><input message="tns:sumIn"/><output message="tns:sumOut"/></operation>
 </portType>
 <binding name="B" type="tns:P"><s:binding style="STYLE"
   transport="http://schemas.xmlsoap.org/soap/http"/>
  <operation name="ping"><s:operation soapAction="urn:user:ping"/>
   <input><s:body use="literal"/></input><output><s:body use="literal"/></output></operation>
  <operation name="pair"><s:operation soapAction="urn:user:pair"/>
   <input><s:body use="literal"/></input><output><s:body use="literal"/></output></operation>
  <operation name="sum"><s:operation soapAction="urn:user:sum"/>
   <input><s:body use="literal"/></input><output><s:body use="literal"/></output></operation>
 </binding>
 PORT
</definitions>
"""
PORT = '<service name="S"><port name="p" binding="tns:B"><s:address location="ADDRESS"/></port>' \
       '</service>'


class ErrorTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="sb-call-wsdl-errors-")
        cls.doc11 = cls.user_wsdl("doc11.wsdl", "http://schemas.xmlsoap.org/wsdl/soap/",
                                  "document", "")
        cls.rpc12 = cls.user_wsdl("rpc12.wsdl", "http://schemas.xmlsoap.org/wsdl/soap12/", "rpc",
                                  PORT.replace("ADDRESS", "http://127.0.0.1:9/"))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    @classmethod
    def user_wsdl(cls, name, binding_ns, style, port):
        text = USER_WSDL.replace("BINDING_NS", binding_ns).replace("STYLE", style)
        path = os.path.join(cls.tmp.name, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text.replace("PORT", port))
        return path

    def fails(self, *args):
        """stderr of a call that must exit 1 with one line."""
        status, out, err = run("call", *args)
        self.assertEqual((status, out), (1, ""), err)
        self.assertEqual(len(err.splitlines()), 1, err)
        return err

    def test_unknown_operation_lists_the_wsdls(self):
        err = self.fails("--wsdl", self.doc11, "--url", "http://127.0.0.1:9/", "pong", "1")
        self.assertIn("no operation pong in the WSDL (its operations: ping, sum)", err)

    def test_refused_operation_gives_the_readers_reason(self):
        err = self.fails("--wsdl", self.doc11, "--url", "http://127.0.0.1:9/", "pair", "1")
        self.assertIn("pair: the WSDL's operation is outside what soapbench reads: "
                      "a document-style message of 2 parts", err)

    def test_argument_count_and_type(self):
        url = ["--url", "http://127.0.0.1:9/"]
        self.assertIn("ping takes 1 argument, got 2: ping(n: int)",
                      self.fails("--wsdl", self.doc11, *url, "ping", "1", "2"))
        self.assertIn("ping takes 1 argument, got 0", self.fails("--wsdl", self.doc11, *url,
                                                                  "ping"))
        self.assertIn("ping: expected int, got string: ping(n: int)",
                      self.fails("--wsdl", self.doc11, *url, "ping", '"one"'))
        self.assertIn("argument 1 is not JSON", self.fails("--wsdl", self.doc11, *url, "ping",
                                                           "one"))

    def test_no_address_and_no_url(self):
        err = self.fails("--wsdl", self.doc11, "ping", "1")
        self.assertIn("ping: the WSDL gives its binding no soap:address: give --url", err)

    def test_binding_the_encoders_do_not_write(self):
        err = self.fails("--wsdl", self.rpc12, "ping", "1")
        self.assertIn("ping: SOAP 1.2 rpc/literal binding: soapbench writes", err)

    def test_unreadable_wsdl_and_protocol_with_wsdl(self):
        self.assertIn("cannot open", self.fails("--wsdl", os.path.join(self.tmp.name, "none"),
                                                "ping", "1"))
        self.assertIn("--protocol excludes --wsdl",
                      self.fails("--wsdl", self.doc11, "--protocol", "soap11", "ping", "1"))
        self.assertIn("--url is required (or --wsdl FILE)",
                      self.fails("--protocol", "soap11", "add", "1", "2"))

    def test_help_names_wsdl(self):
        status, out, _ = run("call", "--help")
        self.assertEqual(status, 0)
        self.assertIn("--wsdl", out)
        self.assertIn("soap:address", out)


class CannedHandler(http.server.BaseHTTPRequestHandler):
    """Records each request; answers with the server's `answer`."""

    def do_POST(self):  # noqa: N802 (http.server's name)
        body = self.rfile.read(int(self.headers["Content-Length"])).decode("utf-8")
        self.server.requests.append((dict(self.headers), body))
        answer = self.server.answer.encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "text/xml; charset=utf-8")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass


class UserServiceTest(unittest.TestCase):
    """A user's service (here a canned HTTP server) as its WSDL names it: the call element and
    the SOAPAction the WSDL gives, a repeated element one per item, the address from the WSDL."""

    def test_sum(self):
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), CannedHandler)
        server.requests = []
        server.answer = ('<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">'
                         '<soap:Body><sumResponse xmlns="urn:user"><total>6</total></sumResponse>'
                         '</soap:Body></soap:Envelope>')
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            with tempfile.TemporaryDirectory(prefix="sb-call-user-") as tmp:
                address = "http://127.0.0.1:%d/svc/sum" % server.server_address[1]
                path = os.path.join(tmp, "user.wsdl")
                with open(path, "w", encoding="utf-8") as f:
                    f.write(USER_WSDL.replace("BINDING_NS", "http://schemas.xmlsoap.org/wsdl/soap/")
                            .replace("STYLE", "document")
                            .replace("PORT", PORT.replace("ADDRESS", address)))
                status, out, err = run("call", "--wsdl", path, "sum", "[1,2,3]")
        finally:
            server.shutdown()
            server.server_close()
        self.assertEqual((status, out), (0, '{"kind":"response","method":"sum","result":6}'), err)
        headers, body = server.requests[0]
        self.assertEqual(headers["SOAPAction"], '"urn:user:sum"')
        self.assertIn('<sumRequest xmlns="urn:user"><n>1</n><n>2</n><n>3</n></sumRequest>', body)


class GsoapCallTest(unittest.TestCase):
    """gSOAP's generated WSDL (soapcpp2, as tests/wsdl/test_user_wsdl.py) against gsoap_server."""

    STYLES = {"doc_literal": ("soap11-doc-literal", [], ["--style", "doc-literal"]),
              "rpc_literal": ("soap11-rpc-literal", [], ["--style", "rpc-literal"]),
              "rpc_encoded": ("soap11-rpc-encoded", ["-t"], ["--style", "rpc-encoded"])}

    @classmethod
    def setUpClass(cls):
        if not GSOAP_SERVER:
            raise unittest.SkipTest("needs gsoap_server (argv[2]): the gSOAP peer is not built")
        cls.tmp = tempfile.TemporaryDirectory(prefix="sb-call-gsoap-")
        cls.wsdl, cls.servers = {}, {}
        for style, (family, options, _) in cls.STYLES.items():
            out = os.path.join(cls.tmp.name, style)
            soapcpp2_wsdl(out, style, options)
            cls.wsdl[style] = ["--wsdl", os.path.join(out, "soapbench.wsdl"),
                               "--wsdl", os.path.join(out, "ex.wsdl")]
            cls.servers[style] = start([GSOAP_SERVER, "--family", family])

    @classmethod
    def tearDownClass(cls):
        for proc, _url in cls.servers.values():
            stop_server(proc)
        cls.tmp.cleanup()

    def check(self, style, calls):
        url = self.servers[style][1]
        for op, args, expected in calls:
            with self.subTest(style=style, op=op):
                status, out, err = run("call", *self.wsdl[style], "--url", url, op, *args)
                self.assertEqual((status, out), (2 if op == "fail" else 0, expected), err)
                builtin = run("call", "--url", url, "--protocol", "soap11",
                              *self.STYLES[style][2], op, *args)[1]
                self.assertEqual(out, builtin)

    def test_doc_literal(self):
        self.check("doc_literal", CALLS)

    def test_rpc_encoded(self):
        self.check("rpc_encoded", CALLS)

    def test_rpc_literal(self):
        # gSOAP's rpc/literal WSDL gives scalar results an undeclared element (test_user_wsdl.py):
        # those operations are refused with the reason; the others are called.
        self.check("rpc_literal", [c for c in CALLS if c[0] in ("echoArray", "fail")])
        status, _, err = run("call", *self.wsdl["rpc_literal"], "--url",
                             self.servers["rpc_literal"][1], "add", "2", "3")
        self.assertEqual(status, 1)
        self.assertIn("add: the WSDL's operation is outside what soapbench reads: element "
                      "{urn:soapbench}return is not declared", err)


if __name__ == "__main__":
    SOAPBENCH = sys.argv.pop(1) if len(sys.argv) > 1 else os.environ.get("SOAPBENCH_EXE")
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-") and os.path.isfile(sys.argv[1]):
        GSOAP_SERVER = sys.argv.pop(1)
    unittest.main()
