#!/usr/bin/python3
"""`soapbench record` streams large bodies through (issue 29, part 2).

Usage: /usr/bin/python3 tests/record/test_stream.py SOAPBENCH

The upstream is a real HTTP/1.1 server (Python's http.server, in a thread): answers of any size
with a Content-Length, chunked, or ended by its close; an answer cut off in the middle; and an
endpoint that answers with the SHA-256 of the request body it read (Content-Length or chunked).
- A 50 MB answer and a 50 MB request pass through the proxy intact (checked by hash) while the
  proxy's peak RSS stays far below the body's size; the recording keeps neither (they pass
  --max-bytes) and keeps nothing more afterwards, as documented.
- Chunked in and out: a chunked request arrives upstream chunked, a chunked answer reaches the
  client chunked; an answer ended by the upstream's close reaches the client chunked, whole;
  a HEAD answer's length passes without a body.
- A 3 MB exchange within --max-bytes is recorded byte for byte, though it streamed through.
- An upstream that breaks off after more than one piece (64 KB) of its answer: the client's
  connection is closed (the answer's header was out), and the proxy goes on serving.
- An upstream that takes a request and never answers: 504 after --timeout-ms (the proxy's
  watchdog), on a connection that stays open for the next request.
- An https upstream (`soapbench serve --tls`): calls kept alive over one TLS link, a chunked
  request, all answered and recorded.
Every process listens on 127.0.0.1 port 0 and is stopped by PID.
"""

import hashlib
import http.client
import http.server
import json
import os
import random
import socket
import sys
import time
import tempfile
import threading
import unittest

sys.dont_write_bytecode = True
from test_record import EXES, Recorder, manifest, start, stop  # noqa: E402

BIG = 50 * 1000 * 1000


def payload(size, seed=29):
    return random.Random(seed).randbytes(size)


class Upstream(http.server.BaseHTTPRequestHandler):
    """GET /length/N, /chunked/N, /eof/N, /cut/N; HEAD; POST /sha (the body's SHA-256 as JSON)."""
    protocol_version = 'HTTP/1.1'
    bodies = {}

    def log_message(self, *args):
        pass

    def body(self, size):
        if size not in self.bodies:
            self.bodies[size] = payload(size)
        return self.bodies[size]

    def do_GET(self):
        _, kind, size = self.path.split('/')
        data = self.body(int(size))
        if kind == 'eof':  # no length: the body ends with the connection
            self.send_response(200)
            self.send_header('Connection', 'close')
            self.end_headers()
            self.wfile.write(data)
            self.close_connection = True
            return
        self.send_response(200)
        self.send_header('Content-Type', 'application/octet-stream')
        if kind == 'chunked':
            self.send_header('Transfer-Encoding', 'chunked')
            self.end_headers()
            at, step = 0, 1
            while at < len(data):  # chunks of irregular sizes
                piece = data[at:at + step]
                self.wfile.write(b'%x\r\n%s\r\n' % (len(piece), piece))
                at, step = at + len(piece), step * 3 + 7
            self.wfile.write(b'0\r\n\r\n')
            return
        self.send_header('Content-Length', str(len(data)))
        self.end_headers()
        if kind == 'cut':  # half the answer, then the connection drops
            self.wfile.write(data[:len(data) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        self.wfile.write(data)

    def do_HEAD(self):  # GET's header: the length, no body
        self.send_response(200)
        self.send_header('Content-Length', self.path.split('/')[2])
        self.end_headers()

    def do_POST(self):
        digest, size = hashlib.sha256(), 0
        chunked = self.headers.get('Transfer-Encoding', '').lower() == 'chunked'
        if chunked:
            while True:
                n = int(self.rfile.readline().split(b';')[0], 16)
                if n == 0:
                    self.rfile.readline()
                    break
                piece = self.rfile.read(n)
                self.rfile.readline()
                digest.update(piece)
                size += n
        else:
            left = int(self.headers.get('Content-Length', '0'))
            while left > 0:
                piece = self.rfile.read(min(left, 1 << 20))
                digest.update(piece)
                size += len(piece)
                left -= len(piece)
        answer = json.dumps({'sha256': digest.hexdigest(), 'bytes': size,
                             'chunked': chunked}).encode()
        self.send_response(200)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)


def connect(url):
    host, port = url.split('//')[1].split(':')
    return http.client.HTTPConnection(host, int(port), timeout=60)


def get(conn, path):
    conn.request('GET', path)
    r = conn.getresponse()
    return r, r.read()


def peak_rss_kib(pid):
    with open('/proc/%d/status' % pid) as f:
        for line in f:
            if line.startswith('VmHWM:'):
                return int(line.split()[1])
    raise AssertionError('no VmHWM')


class StreamTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Upstream)
        cls.server.daemon_threads = True
        cls.url = 'http://127.0.0.1:%d' % cls.server.server_address[1]
        cls.thread = threading.Thread(target=cls.server.serve_forever, daemon=True)
        cls.thread.start()
        cls.tmp = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()
        cls.server.server_close()
        cls.tmp.cleanup()

    def out(self, name):
        return os.path.join(self.tmp.name, name)

    def test_50_mb_both_ways_in_bounded_memory(self):
        want = payload(BIG)
        with Recorder(self.url, self.out('big'), '--max-bytes', '1000000') as rec:
            base = peak_rss_kib(rec.proc.pid)
            conn = connect(rec.url)
            r, got = get(conn, '/length/%d' % BIG)
            self.assertEqual(r.status, 200)
            self.assertEqual(r.getheader('Content-Length'), str(BIG))
            self.assertEqual(hashlib.sha256(got).hexdigest(), hashlib.sha256(want).hexdigest())
            conn.request('POST', '/sha', body=want)  # the same connection, kept alive
            r = conn.getresponse()
            answer = json.loads(r.read())
            self.assertEqual(answer['bytes'], BIG)
            self.assertEqual(answer['sha256'], hashlib.sha256(want).hexdigest())
            conn.request('POST', '/sha', body=b'<small/>')  # it would fit, but the bound was hit
            self.assertEqual(conn.getresponse().status, 200)
            conn.close()
            peak = peak_rss_kib(rec.proc.pid)
        print("proxy peak RSS %d KiB (at start %d KiB) after 50 MB each way" % (peak, base))
        # Held whole, either body alone would add 48,000 KiB; streamed, the proxy holds pieces.
        self.assertLess(peak - base, 16 * 1024, 'peak RSS %d KiB, at start %d KiB' % (peak, base))
        self.assertEqual(rec.returncode, 0, rec.stderr)
        self.assertEqual(manifest(self.out('big'))['entries'], [])  # past --max-bytes: not kept
        self.assertIn('3 forwarded', rec.stderr)

    def test_chunked_in_and_out(self):
        want = payload(5 * 1000 * 1000, seed=7)
        with Recorder(self.url, self.out('chunked')) as rec:
            conn = connect(rec.url)
            pieces = (want[i:i + 100000] for i in range(0, len(want), 100000))
            conn.request('POST', '/sha', body=pieces, encode_chunked=True)
            answer = json.loads(conn.getresponse().read())
            self.assertEqual(answer, {'sha256': hashlib.sha256(want).hexdigest(),
                                      'bytes': len(want), 'chunked': True})
            r, got = get(conn, '/chunked/3000000')
            self.assertEqual(r.getheader('Transfer-Encoding'), 'chunked')
            self.assertEqual(got, payload(3000000))
            conn.close()
            # An answer whose end is the upstream's close reaches the client chunked and whole.
            conn = connect(rec.url)
            r, got = get(conn, '/eof/1000000')
            self.assertEqual(r.getheader('Transfer-Encoding'), 'chunked')
            self.assertEqual(got, payload(1000000))
            r, _ = get(conn, '/length/10')  # the client's connection stayed open
            self.assertEqual(r.status, 200)
            conn.request('HEAD', '/length/1000')  # a header with a length and no body
            r = conn.getresponse()
            self.assertEqual((r.status, r.getheader('Content-Length'), r.read()), (200, '1000', b''))
            r, got = get(conn, '/length/10')
            self.assertEqual(got, payload(10))
            conn.close()

    def test_streamed_exchange_recorded_byte_for_byte(self):
        body = payload(3 * 1000 * 1000, seed=3)
        with Recorder(self.url, self.out('kept')) as rec:
            conn = connect(rec.url)
            conn.request('POST', '/sha', body=body, headers={'Content-Type': 'text/xml'})
            answer = conn.getresponse().read()
            conn.close()
        entries = manifest(self.out('kept'))['entries']
        self.assertEqual([e['direction'] for e in entries], ['call', 'response'])
        with open(os.path.join(self.out('kept'), entries[0]['path']), 'rb') as f:
            self.assertEqual(f.read(), body)
        with open(os.path.join(self.out('kept'), entries[1]['path']), 'rb') as f:
            self.assertEqual(f.read(), answer)
        self.assertEqual(entries[0]['bytes'], len(body))
        self.assertEqual(entries[1]['status'], 200)

    def test_upstream_breaks_off_after_the_first_piece(self):
        with Recorder(self.url, self.out('cut')) as rec:
            conn = connect(rec.url)
            conn.request('GET', '/cut/1000000')
            r = conn.getresponse()
            self.assertEqual(r.status, 200)  # the header was passed on with the first piece
            with self.assertRaises(http.client.IncompleteRead):
                r.read()
            conn.close()
            conn = connect(rec.url)
            r, got = get(conn, '/length/1000')  # the proxy goes on serving
            self.assertEqual(got, payload(1000))
            conn.close()
        self.assertIn('1 forwarded, 0 answered 502/504 by the proxy, 1 cut off by the upstream '
                      'mid-answer (client connection closed)', rec.stderr)

    def test_silent_upstream_is_504(self):
        silent = socket.socket()
        silent.bind(('127.0.0.1', 0))
        silent.listen(4)  # accepted by the kernel, never read or answered
        try:
            with Recorder('http://127.0.0.1:%d' % silent.getsockname()[1], self.out('silent'),
                          '--timeout-ms', '300') as rec:
                conn = connect(rec.url)
                for _ in range(2):  # the client's connection stays open after a 504
                    began = time.monotonic()
                    conn.request('POST', '/soap', body=b'<a/>')
                    r = conn.getresponse()
                    self.assertEqual(r.status, 504)
                    self.assertIn(b'no answer within 300 ms', r.read())
                    self.assertLess(time.monotonic() - began, 5)
                conn.close()
            self.assertIn('2 answered 502/504 by the proxy', rec.stderr)
        finally:
            silent.close()


class TlsUpstreamTest(unittest.TestCase):
    BODY = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'corpus',
                             'soap11-rpc-encoded', 'getRate.call.xml'), 'rb').read()

    def test_https_upstream(self):
        server, url = start([EXES['soapbench'], 'serve', '--threads', '1', '--tls'],
                            r'serving (https://[0-9.]+:[0-9]+)')
        headers = {'Content-Type': 'text/xml; charset=utf-8',
                   'SOAPAction': '"urn:demo1:exchange#getRate"'}
        try:
            with tempfile.TemporaryDirectory() as tmp:
                with Recorder(url, os.path.join(tmp, 'r')) as rec:
                    conn = connect(rec.url)
                    for chunked in (False, True, False):
                        body = iter([self.BODY[:100], self.BODY[100:]]) if chunked else self.BODY
                        conn.request('POST', '/soap', body=body, headers=headers,
                                     encode_chunked=chunked)
                        r = conn.getresponse()
                        self.assertEqual(r.status, 200)
                        self.assertIn(b'getRateResponse', r.read())
                    conn.close()
                entries = manifest(os.path.join(tmp, 'r'))['entries']
                self.assertEqual(len(entries), 6)
                self.assertTrue(all(e['family'] == 'soap11-rpc-encoded' for e in entries))
                self.assertIn('3 forwarded, 0 answered 502/504', rec.stderr)
        finally:
            stop(server)


if __name__ == '__main__':
    EXES['soapbench'] = sys.argv[1] if len(sys.argv) > 1 else os.environ.get('SOAPBENCH')
    unittest.main(argv=[sys.argv[0]] + sys.argv[2:], verbosity=2)
