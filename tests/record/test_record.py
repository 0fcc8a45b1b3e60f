#!/usr/bin/python3
"""`soapbench record` and `soapbench load --replay` with real peers (issue 29, parts 2 and 3).

Usage: /usr/bin/python3 tests/record/test_record.py SOAPBENCH GSOAP_SERVER GSOAP_CLIENT
       XMLRPC_C_SERVER XMLRPC_C_CLIENT

- GsoapTest: the gSOAP client's calls to the gSOAP server (rpc/encoded and doc/literal, a fault,
  a 1 MB answer, keep-alive --repeat) recorded through the proxy, answers unchanged; the folder's
  manifest; `compare` on it (every message compared, exit 0); `load --replay` against the gSOAP
  server with zero errors (closed loop, both orders, and open loop at the recorded rate); a
  recorded answer edited -> the replay counts wrong answers.
- XmlrpcCTest: the xmlrpc-c client and server recorded the same way, then `compare`.
- ProxyTest: upstream down -> 502 naming it; an upstream that closes mid-response -> 502 saying
  so, the client's connection kept; a chunked request body; --max-messages stops keeping but
  not forwarding; a non-empty --out refused.
Every process listens on 127.0.0.1 port 0 and is stopped by PID.
"""

import http.client
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import unittest

SOURCE_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
sys.dont_write_bytecode = True
from wsdl.test_wsdl import START_TIMEOUT, _read_line, stop_server  # noqa: E402

EXES = {}


def setUpModule():
    names = ('soapbench', 'gsoap_server', 'gsoap_client', 'xmlrpc_c_server', 'xmlrpc_c_client')
    for i, name in enumerate(names):
        EXES[name] = sys.argv[i + 1] if len(sys.argv) > i + 1 else os.environ.get(name.upper())
    if not EXES['soapbench']:
        raise unittest.SkipTest('needs soapbench (argv)')


def stop(proc):
    stop_server(proc)
    proc.stderr.close()


def start(command, pattern=r'(http://[0-9.]+:[0-9]+)'):
    """A server started on 127.0.0.1 port 0: (process, the URL its first line names)."""
    proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    line = _read_line(proc, START_TIMEOUT) or ''
    match = re.search(pattern, line)
    if match is None:
        stop_server(proc)
        raise RuntimeError('%s did not start: %r %s' % (command[0], line, proc.stderr.read()))
    return proc, match.group(1)


class Recorder:
    """`soapbench record` into a new folder, in a with-block; .stderr holds its output."""

    def __init__(self, upstream, out, *extra):
        self.command = [EXES['soapbench'], 'record', '--listen', '127.0.0.1:0', '--upstream',
                        upstream, '--out', out, *extra]

    def __enter__(self):
        self.proc, self.url = start(self.command, r'recording (http://[0-9.]+:[0-9]+)')
        return self

    def __exit__(self, *exc):
        stop_server(self.proc)
        self.stderr = self.proc.stderr.read().decode()
        self.proc.stderr.close()
        self.returncode = self.proc.returncode


def run(command, codes=(0,), timeout=120):
    proc = subprocess.run(command, capture_output=True, timeout=timeout)
    if proc.returncode not in codes:
        raise AssertionError('%s exited %d: %s' % (' '.join(command[:8]), proc.returncode,
                                                   proc.stderr.decode('utf-8', 'replace')))
    return proc


def manifest(folder):
    with open(os.path.join(folder, 'manifest.json'), encoding='utf-8') as f:
        return json.load(f)


def post(url, body, headers=None, chunked=False):
    """(status, body) of one POST over http.client, on a connection kept for `conn` reuse."""
    host, port = url.split('//')[1].split(':')
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    conn.request('POST', '/soap', body=body if not chunked else iter([body[:7], body[7:]]),
                 headers=headers or {}, encode_chunked=chunked)
    r = conn.getresponse()
    data = r.read()
    return conn, r.status, data


@unittest.skipUnless(os.environ.get('GSOAP') != '0', 'gSOAP')
class GsoapTest(unittest.TestCase):
    CALLS = [('getRate', ['"USA"', '"japan"']), ('add', ['2', '3']), ('echoInts', ['[1,-2,3]']),
             ('concat', ['"<&> é"', '"x"']), ('respond', ['100000', '0']),
             ('fail', [])]

    @classmethod
    def setUpClass(cls):
        if not EXES['gsoap_server'] or not EXES['gsoap_client']:
            raise unittest.SkipTest('needs gsoap_server and gsoap_client')
        cls.tmp = tempfile.TemporaryDirectory()
        cls.servers = {}
        for family in ('soap11-rpc-encoded', 'soap11-doc-literal'):
            cls.servers[family] = start([EXES['gsoap_server'], '--family', family,
                                         '--address', '127.0.0.1', '--port', '0'])

    @classmethod
    def tearDownClass(cls):
        for proc, _ in cls.servers.values():
            stop(proc)
        cls.tmp.cleanup()

    def record(self, family):
        """Records CALLS (and a keep-alive --repeat) through the proxy; the folder."""
        out = os.path.join(self.tmp.name, family)
        if os.path.exists(out):
            return out
        upstream = self.servers[family][1]
        with Recorder(upstream, out) as rec:
            for op, args in self.CALLS:
                direct = run([EXES['gsoap_client'], '--url', upstream, '--family', family, op,
                              *args], codes=(0, 2)).stdout
                proxied = run([EXES['gsoap_client'], '--url', rec.url, '--family', family, op,
                               *args], codes=(0, 2)).stdout
                self.assertEqual(proxied, direct, op)
            repeated = run([EXES['gsoap_client'], '--url', rec.url, '--family', family,
                            '--repeat', '3', 'add', '1', '1']).stdout.decode().splitlines()
            self.assertEqual(len(repeated), 3)
        self.assertEqual(rec.returncode, 0, rec.stderr)
        return out

    def test_manifest(self):
        for family in self.servers:
            with self.subTest(family=family):
                m = manifest(self.record(family))
                self.assertEqual(m['generator'], 'soapbench record')
                entries = m['entries']
                self.assertEqual(len(entries), 2 * (len(self.CALLS) + 3))
                calls = [e for e in entries if e['direction'] == 'call']
                self.assertEqual([e['operation'] for e in calls[:len(self.CALLS)]],
                                 [op for op, _ in self.CALLS])
                for e in entries:
                    self.assertEqual(e['family'], family)
                    with open(os.path.join(self.record(family), e['path']), 'rb') as f:
                        self.assertEqual(len(f.read()), e['bytes'])
                answers = {e['operation']: e for e in entries if e['direction'] == 'response'}
                self.assertEqual(answers['fail']['status'], 500)
                self.assertEqual(answers['getRate']['status'], 200)
                self.assertGreater(answers['respond']['bytes'], 100000)
                self.assertTrue(all(e['target'] == '/soap' and 'text/xml' in e['content_type']
                                    for e in calls))

    def test_compare(self):
        out = self.record('soap11-rpc-encoded')
        proc = run([EXES['soapbench'], 'compare', out, '--iterations', '1', '--json', '-'])
        text = proc.stdout.decode()
        for e in manifest(out)['entries']:
            self.assertIn(os.path.splitext(e['path'])[0], text)
        # Every adapter agreed, or is named with its reason ("not timed: FILE: ADAPTER ...").
        for line in proc.stderr.decode().splitlines():
            if 'not timed' in line:
                self.assertRegex(line, r'not timed: .+: .+ at \w+: .+')

    def test_replay_zero_errors(self):
        for family in self.servers:
            out, url = self.record(family), self.servers[family][1]
            for extra in (['--connections', '1,4'], ['--connections', '4', '--order', 'round-robin'],
                          ['--replay-rate', '50', '--connections', '2']):
                with self.subTest(family=family, extra=extra):
                    proc = run([EXES['soapbench'], 'load', '--replay', out, '--url', url,
                                '--duration', '1', '--warmup', '0.1', '--decode-every', '1',
                                '--json', os.path.join(self.tmp.name, 'r.json'), *extra])
                    self.assertIn('(0 judged by status alone)', proc.stderr.decode())
                    with open(os.path.join(self.tmp.name, 'r.json')) as f:
                        for point in json.load(f)['points']:
                            self.assertGreater(point['calls'], 0)

    def test_replay_counts_a_wrong_answer(self):
        out = os.path.join(self.tmp.name, 'edited')
        subprocess.run(['cp', '-r', self.record('soap11-rpc-encoded'), out], check=True)
        entry = next(e for e in manifest(out)['entries']
                     if e['direction'] == 'response' and e['operation'] == 'getRate')
        path = os.path.join(out, entry['path'])
        with open(path, encoding='utf-8') as f:
            text = f.read()
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text.replace('1.25', '2.5'))
        proc = run([EXES['soapbench'], 'load', '--replay', out, '--url',
                    self.servers['soap11-rpc-encoded'][1], '--duration', '0.3', '--warmup', '0',
                    '--decode-every', '1'], codes=(2,))
        self.assertIn('wrong_answer', proc.stderr.decode() + proc.stdout.decode())


class XmlrpcCTest(unittest.TestCase):
    def test_record_and_compare(self):
        if not EXES['xmlrpc_c_server'] or not EXES['xmlrpc_c_client']:
            self.skipTest('needs xmlrpc_c_server and xmlrpc_c_client')
        server, url = start([EXES['xmlrpc_c_server'], '--address', '127.0.0.1', '--port', '0'])
        try:
            with tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, 'rec')
                with Recorder(url, out) as rec:
                    for op, args in (('getRate', ['"USA"', '"japan"']), ('add', ['2', '3']),
                                     ('echoBase64', ['"aGVsbG8="'])):
                        got = run([EXES['xmlrpc_c_client'], '--url', rec.url, op, *args])
                        want = run([EXES['xmlrpc_c_client'], '--url', url, op, *args])
                        self.assertEqual(got.stdout, want.stdout)
                entries = manifest(out)['entries']
                self.assertEqual(len(entries), 6)
                self.assertTrue(all(e['family'] == 'xmlrpc' for e in entries))
                self.assertEqual([e['operation'] for e in entries if e['direction'] == 'response'],
                                 ['getRate', 'add', 'echoBase64'])
                run([EXES['soapbench'], 'compare', out, '--iterations', '1', '--json', '-'])
                proc = run([EXES['soapbench'], 'load', '--replay', out, '--url', url,
                            '--duration', '0.3', '--warmup', '0', '--decode-every', '1'])
                self.assertIn('0 errors', proc.stderr.decode())
        finally:
            stop(server)


class ClosingUpstream:
    """An HTTP upstream that reads a request, sends half an answer and closes."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(('127.0.0.1', 0))
        self.sock.listen(8)
        self.url = 'http://127.0.0.1:%d' % self.sock.getsockname()[1]
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            conn.recv(65536)
            conn.sendall(b'HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: 1000\r\n'
                         b'\r\n<?xml version="1.0"?><Envelope>')
            conn.close()

    def close(self):
        self.sock.close()


class ProxyTest(unittest.TestCase):
    BODY = open(os.path.join(SOURCE_DIR, 'corpus', 'soap11-rpc-encoded', 'getRate.call.xml'),
                'rb').read()

    def test_upstream_down_is_502(self):
        with socket.socket() as s:
            s.bind(('127.0.0.1', 0))
            port = s.getsockname()[1]  # closed once the with-block ends: nothing listens there
        with tempfile.TemporaryDirectory() as tmp:
            with Recorder('http://127.0.0.1:%d' % port, os.path.join(tmp, 'r')) as rec:
                conn, status, body = post(rec.url, self.BODY)
                self.assertEqual(status, 502)
                self.assertRegex(body.decode(), r'upstream http://127\.0\.0\.1:%d: connect: '
                                 r'Connection refused' % port)
                conn.close()
            self.assertEqual(manifest(os.path.join(tmp, 'r'))['entries'], [])

    def test_upstream_closes_mid_response(self):
        upstream = ClosingUpstream()
        try:
            with tempfile.TemporaryDirectory() as tmp:
                with Recorder(upstream.url, os.path.join(tmp, 'r')) as rec:
                    conn, status, body = post(rec.url, self.BODY)
                    self.assertEqual(status, 502)
                    self.assertIn('closed the connection mid-response', body.decode())
                    conn.request('POST', '/soap', body=self.BODY)  # the same connection
                    self.assertEqual(conn.getresponse().status, 502)
                    conn.close()
                self.assertIn('2 answered 502/504 by the proxy', rec.stderr)
        finally:
            upstream.close()

    def test_chunked_bound_and_keep_alive(self):
        server, url = start([EXES['soapbench'], 'serve', '--threads', '1'],
                            r'serving (http://[0-9.]+:[0-9]+)')
        try:
            with tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, 'r')
                headers = {'Content-Type': 'text/xml; charset=utf-8',
                           'SOAPAction': '"urn:demo1:exchange#getRate"'}
                with Recorder(url, out, '--max-messages', '4') as rec:
                    conn, status, body = post(rec.url, self.BODY, headers, chunked=True)
                    self.assertEqual(status, 200, body)
                    self.assertIn(b'getRateResponse', body)
                    for _ in range(3):  # kept alive; the third exchange passes the bound
                        conn.request('POST', '/soap', body=self.BODY, headers=headers)
                        r = conn.getresponse()
                        self.assertEqual(r.status, 200)
                        r.read()
                    conn.close()
                entries = manifest(out)['entries']
                self.assertEqual(len(entries), 4)
                self.assertEqual(entries[0]['bytes'], len(self.BODY))
                self.assertEqual(entries[0]['soap_action'], '"urn:demo1:exchange#getRate"')
                self.assertIn('4 forwarded', rec.stderr)
                # A folder with something in it is refused.
                proc = run([EXES['soapbench'], 'record', '--upstream', url, '--out', out],
                           codes=(1,))
                self.assertIn('not empty', proc.stderr.decode())
        finally:
            stop(server)


if __name__ == '__main__':
    unittest.main(argv=[sys.argv[0]] + [a for a in sys.argv[6:]], verbosity=2)
