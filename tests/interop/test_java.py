#!/usr/bin/python3
"""The JVM peer servers (peers/java) answering our client, checked against `soapbench serve`.

Usage: /usr/bin/python3 tests/interop/test_java.py SOAPBENCH AXIS_SERVER AXIS_CLIENT
       [unittest args]

Two axis_servers (Apache Axis 1.4: soap11-rpc-encoded, and soap11-rpc-literal from its second
deployment descriptor) and one `soapbench serve` for the whole file (a JVM start is about a
second): every operation of the contract is called on both with `soapbench call` in both styles
and the answers must be equal (`now` by its shape); `fail` is the contract's fault; getChain's
body is the corpus's document unchanged; every hostile XML file of the corpus gets a fault or an
HTTP error and the server keeps serving; SIGTERM stops it. axis_client (Axis's client) makes
the same calls against `soapbench serve` in both styles and prints what `soapbench call` prints;
a bad argument or an unknown operation is exit 1 with one line.
"""

import glob
import gzip
import json
import os
import re
import socket
import subprocess
import time
import sys
import unittest
import urllib.error
import urllib.request

SOURCE_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
from wsdl.test_wsdl import _read_line, stop_server  # noqa: E402

START_TIMEOUT = 60  # a JVM on a loaded 2-core machine
CALL_TIMEOUT = 30
STYLES = {'soap11-rpc-encoded': ['--protocol', 'soap11', '--style', 'rpc-encoded'],
          'soap11-rpc-literal': ['--protocol', 'soap11', '--style', 'rpc-literal']}
ENCODED = STYLES['soap11-rpc-encoded']
# One call per operation of the contract, as `soapbench call` arguments.
CALLS = [
    ['add', '2', '3'], ['concat', '"a"', '"b"'], ['concat', '"x"', '"y"', '"z"'],
    ['echoArray', '[1,2,3]', '[4,5]'], ['boolean'], ['fail'], ['getRate', '"USA"', '"japan"'],
    ['respond', '25', '0'], ['sendString', '"hello"'], ['receiveString', '40'], ['sendInt', '7'],
    ['getChain'], ['echoInts', '[1,-2,2147483647]'], ['echoDoubles', '[1.5,0.1,-0.0,1e-05]'],
    ['echoStrings', '["a","<&>","\\u00e9\\u4e2d"]'], ['echoBase64', '"AAEC/w=="'],
    ['complex', json.dumps([{'id': 1, 'name': 'A', 'weight': 61.5,
                             'birthdate': '1975-02-14 08:30:00',
                             'children': [{'id': 2, 'name': 'B', 'weight': 3.25,
                                           'birthdate': '2001-01-01T00:00:00',
                                           'children': []}]}])],
    ['getRate', '"USA"', '"mars"'],  # the contract's invalid-params fault
]
# Hostile files Axis accepts and answers as calls (docs/peers.md "Java stacks": a 1 MiB
# attribute value, an encoding declaration that differs from the HTTP charset).
AXIS_ACCEPTS = {'large-attribute.xml.gz', 'wrong-encoding-latin1-decl.xml',
                'wrong-encoding-utf16-decl.xml'}
# Hostile files SimpleAxisServer never answers (the connection stays open until the client gives
# up; other connections are served): an empty or whitespace-only body, and the 100,000-deep
# nesting (a StackOverflowError in Axis's NodeImpl.setDirty, printed on stderr).
AXIS_NO_ANSWER = {'deep-nesting-soap.xml.gz', 'truncated-empty.xml',
                  'truncated-whitespace-only.xml'}
HOSTILE_TIMEOUT = 5  # seconds a hostile request Axis is known not to answer is waited for
# Seconds any other hostile request may take (a 1 MiB attribute took Axis 3.8-5 s at load 18).
HOSTILE_ANSWER_TIMEOUT = 30
# No proxy for 127.0.0.1, whatever the environment says.
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))
SERVERS = {}  # name -> (process, base URL)


def start(name, argv):
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
    line = _read_line(proc, START_TIMEOUT) or ''
    match = re.search(r'serving (http://127\.0\.0\.1:[0-9]+)', line)
    if not match:
        stop_server(proc)
        raise AssertionError('%s printed %r' % (argv[0], line))
    SERVERS[name] = (proc, match.group(1))


def setUpModule():
    if len(sys.argv) < 3:
        raise unittest.SkipTest('needs SOAPBENCH and AXIS_SERVER')
    try:
        start('soapbench', [sys.argv[1], 'serve', '--address', '127.0.0.1', '--port', '0'])
        start('axis', [sys.argv[2], '--address', '127.0.0.1', '--port', '0',
                       '--corpus', os.path.join(SOURCE_DIR, 'corpus')])
        start('axis-literal', [sys.argv[2], '--family', 'soap11-rpc-literal', '--address',
                               '127.0.0.1', '--port', '0',
                               '--corpus', os.path.join(SOURCE_DIR, 'corpus')])
    except BaseException:
        tearDownModule()
        raise


def tearDownModule():
    for proc, _ in SERVERS.values():
        stop_server(proc)


def call(server, *args, family='soap11-rpc-encoded'):
    """`soapbench call`'s answer as JSON (exit 0: a response, 2: a fault)."""
    proc = subprocess.run([sys.argv[1], 'call', '--url', SERVERS[server][1], *STYLES[family],
                           *args], capture_output=True, timeout=CALL_TIMEOUT)
    if proc.returncode not in (0, 2):
        raise AssertionError('soapbench call %s exited %d: %s' % (
            args[0], proc.returncode, proc.stderr.decode('utf-8', 'replace')))
    return json.loads(proc.stdout.decode('utf-8'))


def axis_client(server, family, *args):
    """(exit status, stdout, stderr) of axis_client calling `server` in `family`."""
    proc = subprocess.run([sys.argv[3], '--url', SERVERS[server][1], '--family', family, *args],
                          capture_output=True, timeout=CALL_TIMEOUT)
    return proc.returncode, proc.stdout.decode('utf-8'), proc.stderr.decode('utf-8', 'replace')


def post(server, body):
    """(HTTP status, body) of POSTing `body` to the server's /soap."""
    request = urllib.request.Request(SERVERS[server][1] + '/soap', data=body, headers={
        'Content-Type': 'text/xml; charset=utf-8', 'SOAPAction': '""'})
    try:
        with OPENER.open(request, timeout=CALL_TIMEOUT) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def post_raw(server, body, timeout=HOSTILE_TIMEOUT):
    """(HTTP status or 0 when none came within `timeout` seconds, body) of POSTing `body` with
    Connection: close over a raw socket."""
    host, port = SERVERS[server][1][len('http://'):].split(':')
    head = ('POST /soap HTTP/1.1\r\nHost: %s:%s\r\nContent-Type: text/xml; charset=utf-8\r\n'
            'SOAPAction: ""\r\nContent-Length: %d\r\nConnection: close\r\n\r\n'
            % (host, port, len(body))).encode()
    data = b''
    deadline = time.monotonic() + timeout
    with socket.create_connection((host, int(port)), timeout=timeout) as s:
        s.sendall(head + body)
        while True:
            s.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                return 0, data
            if not chunk:
                break
            data += chunk
    status = int(data.split(b' ', 2)[1]) if data.startswith(b'HTTP/') else 0
    return status, data.partition(b'\r\n\r\n')[2]


class AxisTest(unittest.TestCase):
    def test_every_operation_as_soapbench_answers(self):
        for args in CALLS:
            with self.subTest(call=args[0]):
                self.assertEqual(call('axis', *args), call('soapbench', *args))

    def test_fault_and_now(self):
        self.assertEqual(call('axis', 'fail'),
                         {'kind': 'fault', 'code': 4, 'message': 'division by zero'})
        now = call('axis', 'now')
        self.assertRegex(now['result']['$dateTime'], r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$')

    def test_rpc_literal_every_operation_as_soapbench_answers(self):
        for args in CALLS:
            with self.subTest(call=args[0]):
                self.assertEqual(call('axis-literal', *args, family='soap11-rpc-literal'),
                                 call('soapbench', *args, family='soap11-rpc-literal'))
        now = call('axis-literal', 'now', family='soap11-rpc-literal')
        self.assertRegex(now['result']['$dateTime'], r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$')

    def test_rpc_literal_is_literal(self):
        """No xsi:type, no encodingStyle, no multiRef; arrays wrapped, items named item."""
        family = os.path.join(SOURCE_DIR, 'corpus', 'soap11-rpc-literal')
        with open(os.path.join(family, 'echoArray.call.xml'), 'rb') as f:
            status, body = post('axis-literal', f.read())
        self.assertEqual(status, 200, body)
        for absent in (b'xsi:type', b'encodingStyle', b'multiRef', b'href='):
            self.assertNotIn(absent, body)
        self.assertRegex(body, rb'<return[^>]*><item>1</item><item>2</item>')

    def test_get_chain_document_unchanged(self):
        for server, name in (('axis', 'soap11-rpc-encoded'), ('axis-literal', 'soap11-rpc-literal')):
            family = os.path.join(SOURCE_DIR, 'corpus', name)
            with open(os.path.join(family, 'getChain.call.xml'), 'rb') as f:
                status, body = post(server, f.read())
            with open(os.path.join(family, 'getChain.response.xml'), 'rb') as f:
                self.assertEqual((status, body), (200, f.read()), name)

    def test_hostile_requests_get_faults(self):
        """Each hostile file, to both deployments: a SOAP Fault with HTTP 500 (or one of the
        known findings), and the server keeps serving."""
        files = sorted(glob.glob(os.path.join(SOURCE_DIR, 'corpus', 'hostile', 'xml', '*')))
        self.assertGreater(len(files), 100)
        for server in ('axis', 'axis-literal'):
            accepted, unanswered = set(), set()
            for path in files:
                name = os.path.basename(path)
                opener = gzip.open if path.endswith('.gz') else open
                with opener(path, 'rb') as f:
                    status, body = post_raw(server, f.read(), HOSTILE_TIMEOUT
                                            if name in AXIS_NO_ANSWER else HOSTILE_ANSWER_TIMEOUT)
                if status == 0:
                    unanswered.add(name)
                    continue
                if status == 200 and b'Fault>' not in body:
                    accepted.add(name)
                    continue
                with self.subTest(server=server, file=name):
                    self.assertEqual(status, 500, body[:300])
                    self.assertIn(b'Fault>', body)
            self.assertEqual(accepted, AXIS_ACCEPTS, server)
            self.assertEqual(unanswered, AXIS_NO_ANSWER, server)
            family = 'soap11-rpc-literal' if server == 'axis-literal' else 'soap11-rpc-encoded'
            self.assertEqual(call(server, 'add', '2', '3', family=family)['result'], 5)


class AxisClientTest(unittest.TestCase):
    """axis_client against `soapbench serve`: every operation in both rpc styles answered as
    `soapbench call` answers it (the interop matrix runs it against every server)."""

    def test_every_operation_as_soapbench_call_prints_it(self):
        for family in STYLES:
            for args in CALLS:
                with self.subTest(family=family, call=args[0]):
                    status, out, err = axis_client('soapbench', family, *args)
                    expected = call('soapbench', *args, family=family)
                    self.assertEqual(status, 2 if expected['kind'] == 'fault' else 0, err)
                    self.assertEqual(json.loads(out), expected)

    def test_then_one_jvm_many_calls(self):
        """Calls joined by --then (how the interop matrix runs a JVM client): a line out per
        call, in order; a call it cannot make is an error line and exit 1, the others still
        answered."""
        status, out, err = axis_client('axis-literal', 'soap11-rpc-literal', 'add', '2', '3',
                                       '--then', 'nosuch', '--then', 'fail', '--then',
                                       'echoArray', '[1]', '[2,3]')
        lines = [json.loads(line) for line in out.splitlines()]
        self.assertEqual(status, 1, err)
        self.assertEqual(len(lines), 4, lines)
        self.assertEqual(lines[0], {'kind': 'response', 'method': 'add', 'result': 5})
        self.assertEqual(lines[1]['kind'], 'error')
        self.assertIn('not an operation', lines[1]['message'])
        self.assertEqual(lines[2]['code'], 4)
        self.assertEqual(lines[3]['result'], [1, 2, 3])

    def test_now_and_errors(self):
        status, out, _err = axis_client('axis-literal', 'soap11-rpc-literal', 'now')
        self.assertEqual(status, 0)
        self.assertRegex(json.loads(out)['result']['$dateTime'],
                         r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$')
        for args, why in ((['add', '"two"', '3'], 'a is not a int'),
                          (['nosuch'], 'not an operation of the contract'),
                          (['add', '1'], 'takes 2 arguments, got 1')):
            status, out, err = axis_client('soapbench', 'soap11-rpc-encoded', *args)
            self.assertEqual((status, out), (1, ''), err)
            self.assertIn(why, err)
            self.assertEqual(len(err.strip().splitlines()), 1, err)


if __name__ == '__main__':
    unittest.main(argv=sys.argv[:1] + sys.argv[4:])
