#!/usr/bin/python3
"""The gSOAP peer (peers/gsoap) against soapbench, every SOAP family.

Usage: /usr/bin/python3 tests/interop/test_gsoap.py SOAPBENCH GSOAP_SERVER GSOAP_CLIENT
(or env SOAPBENCH_EXE, GSOAP_SERVER_EXE, GSOAP_CLIENT_EXE)

Cells, each checked against the contract's canonical JSON (docs/service.md):
- `soapbench call` -> gsoap_server (one server per family), and
- gsoap_client -> `soapbench serve`,
for representative operations (UnitTest) and for every operation (AllOperationsTest); every
corpus call of each family posted to gsoap_server decodes (`soapbench decode`) to what
`soapbench serve` answers to the same bytes (CorpusTest); a request gSOAP cannot read gets
gSOAP's own Client fault. Servers listen on 127.0.0.1 port 0 and are stopped by PID.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import unittest
import urllib.error
import urllib.request

SOURCE_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
CORPUS_DIR = os.path.join(SOURCE_DIR, 'corpus')
sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
from wsdl.test_wsdl import START_TIMEOUT, _read_line, stop_server  # noqa: E402

EXES = {}   # soapbench, server, client
STATE = {}  # procs: [Popen], urls: {name: base URL}, stderr: file

# family -> the `soapbench call` options that speak it
FAMILIES = {
    'soap11-rpc-encoded': ['--protocol', 'soap11', '--style', 'rpc-encoded'],
    'soap11-rpc-literal': ['--protocol', 'soap11', '--style', 'rpc-literal'],
    'soap11-doc-literal': ['--protocol', 'soap11', '--style', 'doc-literal'],
    'soap12-doc-literal': ['--protocol', 'soap12'],
}

PEOPLE = ('[{"id":1,"name":"Ann <&>","weight":61.5,"birthdate":"1990-01-02 03:04:05",'
          '"children":[{"id":2,"name":"Bo","weight":3.25,"birthdate":"2020-05-06T07:08:09",'
          '"children":[]}]}]')
PEOPLE_OUT = ('[{"id":1,"name":"Ann <&>","weight":61.5,"birthdate":{"$dateTime":"1990-01-02T03:04:05"},'
              '"children":[{"id":2,"name":"Bo","weight":3.25,'
              '"birthdate":{"$dateTime":"2020-05-06T07:08:09"},"children":[]}]}]')

# (operation, args, expected result as canonical JSON; None: what `soapbench serve` answers)
REPRESENTATIVE = [
    ('add', ['2', '3'], '5'),
    ('getRate', ['"USA"', '"japan"'], '1.25'),
    ('echoArray', ['[1,2]', '[3]'], '[1,2,3]'),
    ('echoInts', ['[1,-2,2147483647]'], '[1,-2,2147483647]'),
    ('complex', [PEOPLE], PEOPLE_OUT),
]
EVERY_OTHER = [
    ('concat', ['"a"', '"b"', '"c"'], '"abc"'),
    ('concat', ['"<&> é 日本"', '"x"'], '"<&> é 日本x"'),
    ('boolean', [], 'true'),
    ('respond', ['10', '0'], None),
    ('sendString', ['"hello"'], 'null'),
    ('receiveString', ['5'], '"abcde"'),
    ('sendInt', ['7'], 'null'),
    ('getChain', [], None),
    ('echoDoubles', ['[1.5,-0.25,1e+16]'], '[1.5,-0.25,1e+16]'),
    ('echoStrings', ['["a","é ü"]'], '["a","é ü"]'),
    ('echoBase64', ['"aGVsbG8="'], '{"$base64":"aGVsbG8="}'),
]
FAULT = '{"kind":"fault","code":4,"message":"division by zero"}'


def setUpModule():
    names = ('soapbench', 'server', 'client')
    env = ('SOAPBENCH_EXE', 'GSOAP_SERVER_EXE', 'GSOAP_CLIENT_EXE')
    for i, (name, var) in enumerate(zip(names, env)):
        EXES[name] = sys.argv[i + 1] if len(sys.argv) > i + 1 else os.environ.get(var)
    if not all(EXES.values()):
        raise unittest.SkipTest('needs soapbench, gsoap_server and gsoap_client (argv or env)')
    STATE.update(procs=[], urls={}, stderr=tempfile.TemporaryFile())
    start('soapbench', [EXES['soapbench'], 'serve', '--threads', '1'])
    for family in FAMILIES:
        start(family, [EXES['server'], '--family', family])


def tearDownModule():
    for proc in STATE.get('procs', []):
        stop_server(proc)
    if 'stderr' in STATE:
        STATE['stderr'].close()


def start(name, command):
    """Starts a server on 127.0.0.1, port 0; its base URL goes to STATE['urls'][name]."""
    proc = subprocess.Popen(command + ['--address', '127.0.0.1', '--port', '0'],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=STATE['stderr'])
    STATE['procs'].append(proc)
    match = re.search(r'serving (http://[0-9.]+:[0-9]+)', _read_line(proc, START_TIMEOUT) or '')
    if match is None:
        STATE['stderr'].seek(0)
        raise RuntimeError('%s did not start: %s' % (name, STATE['stderr'].read().decode()))
    STATE['urls'][name] = match.group(1)


def run(command):
    """stdout of a client command (exit 0: a response, 2: a fault); fails on anything else."""
    proc = subprocess.run(command, capture_output=True, timeout=60)
    if proc.returncode not in (0, 2):
        raise AssertionError('%s exited %d: %s' % (' '.join(command[:6]), proc.returncode,
                                                   proc.stderr.decode('utf-8', 'replace')))
    return proc.stdout.decode('utf-8').strip()


def soapbench_call(url, family, op, args):
    return run([EXES['soapbench'], 'call', '--url', url, *FAMILIES[family], op, *args])


def gsoap_call(url, family, op, args):
    return run([EXES['client'], '--url', url, '--family', family, op, *args])


def response(op, result):
    return '{"kind":"response","method":"%s","result":%s}' % (op, result)


class CellsMixin:
    """Both cells for a list of (operation, args, expected) in every family."""

    def check_cells(self, cases):
        reference = STATE['urls']['soapbench']
        for family in FAMILIES:
            for op, args, result in cases:
                with self.subTest(family=family, op=op):
                    expected = (response(op, result) if result is not None
                                else soapbench_call(reference, family, op, args))
                    self.assertEqual(soapbench_call(STATE['urls'][family], family, op, args),
                                     expected, 'soapbench call -> gsoap_server')
                    self.assertEqual(gsoap_call(reference, family, op, args), expected,
                                     'gsoap_client -> soapbench serve')


class UnitTest(CellsMixin, unittest.TestCase):
    """Representative operations of each family, both cells."""

    def test_representative(self):
        self.check_cells(REPRESENTATIVE)

    def test_fail(self):
        for family in FAMILIES:
            with self.subTest(family=family):
                self.assertEqual(soapbench_call(STATE['urls'][family], family, 'fail', []), FAULT)
                self.assertEqual(gsoap_call(STATE['urls']['soapbench'], family, 'fail', []), FAULT)

    def test_malformed_request_gets_gsoaps_fault(self):
        body = (b'<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">'
                b'<soap:Body><add xmlns="urn:soapbench"><a>2</a><b>two</b></add></soap:Body>'
                b'</soap:Envelope>')
        status, answer = post(STATE['urls']['soap11-doc-literal'], body, 'text/xml')
        self.assertEqual(status, 500)
        self.assertIn(b'>SOAP-ENV:Client</faultcode>', answer)
        self.assertIn(b'Validation constraint violation', answer)

    def test_now(self):
        for family in FAMILIES:
            with self.subTest(family=family):
                got = soapbench_call(STATE['urls'][family], family, 'now', [])
                self.assertRegex(got, r'^\{"kind":"response","method":"now","result":'
                                      r'\{"\$dateTime":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d"\}\}$')


class AllOperationsTest(CellsMixin, unittest.TestCase):
    """Every other operation of the contract, both cells, every family."""

    def test_every_operation(self):
        self.check_cells(EVERY_OTHER)


def post(url, body, content_type):
    """(HTTP status, body) of a POST to url/soap."""
    request = urllib.request.Request(url + '/soap', data=body,
                                     headers={'Content-Type': content_type})
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(request, timeout=60) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def decode(files):
    """`soapbench decode` of each file, one canonical JSON line each."""
    lines = run([EXES['soapbench'], 'decode', '--parser', 'pugixml/dom', *files]).split('\n')
    return lines


# Corpus calls gSOAP answers differently from soapbench serve, each a documented finding
# (docs/peers.md "gSOAP"): gSOAP 2.8.124 leaves the ';' of a numeric character reference to a
# character past U+FFFF (&#x1F600;) in the string it reads.
KNOWN_FINDINGS = {'concat.charrefs.call.xml'}


class CorpusTest(unittest.TestCase):
    """Every corpus call of each family, posted as is to gsoap_server and to soapbench serve."""

    def test_corpus_calls(self):
        with open(os.path.join(CORPUS_DIR, 'manifest.json'), encoding='utf-8') as f:
            entries = json.load(f)['entries']
        for family in FAMILIES:
            calls = [e for e in entries if e.get('family') == family
                     and e.get('direction') == 'call' and 'seed' in e.get('sets', [])
                     and e['operation'] != 'now']
            with self.subTest(family=family), tempfile.TemporaryDirectory() as tmp:
                files = []
                for i, e in enumerate(calls):
                    with open(os.path.join(CORPUS_DIR, e['path']), 'rb') as f:
                        body = f.read()
                    ctype = 'application/soap+xml' if family.startswith('soap12') else 'text/xml'
                    for server in (family, 'soapbench'):
                        path = os.path.join(tmp, '%s.%d.xml' % (server, i))
                        with open(path, 'wb') as out:
                            out.write(post(STATE['urls'][server], body, ctype)[1])
                        files.append(path)
                lines = decode(files)
                self.assertEqual(len(lines), len(files))
                for i, e in enumerate(calls):
                    if os.path.basename(e['path']) in KNOWN_FINDINGS:
                        continue
                    self.assertEqual(lines[2 * i], lines[2 * i + 1], e['path'])


if __name__ == '__main__':
    unittest.main(argv=sys.argv[:1], verbosity=2)
