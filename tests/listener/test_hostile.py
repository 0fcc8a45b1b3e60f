#!/usr/bin/python3
"""The hostile HTTP set, one table of cases, against both listeners (listener/): `soapbench
serve`, and `soapbench record` in front of a `soapbench serve` (issue 39).

Usage: /usr/bin/python3 tests/listener/test_hostile.py SOAPBENCH

CASES is the table: raw bytes sent on one connection and the statuses that must come back, in
order, before the listener closes it (a request smuggled in a body would add an answer; a
trailer or a Connection-listed field that took effect would change one). Where the two listeners
rightly differ (a field the Connection header lists is the server's to read, the proxy's to
remove), a case names each one's answer. Beside the table, each listener is run through what
takes time or resources: a slow header (slowloris), the connection cap, an endless chunk
extension (memory), an idle flood under a 1,024-descriptor limit (prlimit) and clients that ask
for huge answers and never read them.

Every process listens on 127.0.0.1 port 0 and is stopped by PID; each case is bounded in time.
"""

import json
import os
import resource
import socket
import sys
import tempfile
import threading
import time
import unittest

sys.dont_write_bytecode = True
from record.test_record import EXES, start, stop  # noqa: E402

# What both listeners are started with: a header must come within 1 s; bodies up to 1 MB.
COMMON = ['--header-timeout', '1000', '--max-body', '1000000']

ADD = (b'<?xml version="1.0"?><methodCall><methodName>add</methodName><params>'
       b'<param><value><i4>2</i4></value></param><param><value><i4>3</i4></value></param>'
       b'</params></methodCall>')
FIVE = b'<int>5</int>'


def post(body=ADD, fields=b'', host=b'Host: x\r\n', target=b'/RPC2', version=b'HTTP/1.1',
         close=True):
    """A framed XML-RPC POST (Content-Length), closing the connection after its answer."""
    return (b'POST ' + target + b' ' + version + b'\r\n' + host +
            b'Content-Type: text/xml\r\n' + fields + (b'Connection: close\r\n' if close else b'') +
            b'Content-Length: %d\r\n\r\n' % len(body) + body)


def raw(fields, body, version=b'HTTP/1.1'):
    """A POST whose framing fields are `fields` alone, then `body` as it is."""
    return (b'POST /RPC2 ' + version + b'\r\nHost: x\r\nContent-Type: text/xml\r\n' + fields +
            b'\r\n' + body)


def chunked(body, extension=b'', trailer=b''):
    """`body` as one chunk (with `extension` on its line), the last chunk and `trailer`."""
    return b'%x%s\r\n%s\r\n0\r\n%s\r\n' % (len(body), extension, body, trailer)


# A complete add(2,3) request: the body of every smuggling case. Run as a second request, it
# would be answered 200 with 5.
INNER = post(close=False)
TE = b'Transfer-Encoding: '
CL = b'Content-Length: 10\r\n'
CLOSE = b'Connection: close\r\n'

# (name, bytes sent, the statuses answered in order (or per listener), bytes the last answer holds)
CASES = [
    # Framing (RFC 9112 §6.1, §6.3): never is the body run as a second request.
    ('TE gzip', raw(TE + b'gzip\r\n', INNER), [400], None),
    ('TE identity', raw(TE + b'identity\r\n', INNER), [400], None),
    ('TE xchunked', raw(TE + b'xchunked\r\n', INNER), [400], None),
    ('TE chunked, identity', raw(TE + b'chunked, identity\r\n', INNER), [400], None),
    ('TE chunked, chunked', raw(TE + b'chunked, chunked\r\n', chunked(INNER)), [400], None),
    ('TE empty', raw(TE + b'\r\n', INNER), [400], None),
    ('TE gzip, chunked', raw(TE + b'gzip, chunked\r\n', chunked(INNER)), [501], None),
    ('TE identity, chunked', raw(TE + b'identity, chunked\r\n', chunked(INNER)), [501], None),
    ('TE in two fields', raw(TE + b'gzip\r\n' + TE + b'chunked\r\n', chunked(INNER)), [501], None),
    ('CL then TE', raw(CL + TE + b'chunked\r\n', chunked(INNER)), [400], None),
    ('TE then CL', raw(TE + b'chunked\r\n' + CL, chunked(INNER)), [400], None),
    ('TE gzip and CL', raw(TE + b'gzip\r\n' + CL, INNER), [400], None),
    ('HTTP/1.0 chunked', raw(TE + b'chunked\r\n', chunked(INNER), b'HTTP/1.0'), [400], None),
    ('two Content-Lengths', raw(b'Content-Length: 5\r\nContent-Length: 6\r\n', INNER), [400],
     None),
    ('chunked alone frames the body', raw(TE + b'chunked\r\n' + CLOSE, chunked(ADD)), [200], FIVE),
    ('10 pipelined, #5 smuggles', post(close=False) * 4 + raw(TE + b'gzip\r\n', INNER) +
     post(close=False) * 5, [200, 200, 200, 200, 400], None),
    # Host (RFC 9112 §3.2).
    ('HTTP/1.1 without Host', post(host=b''), [400], b'Host'),
    ('two Host fields', post(host=b'Host: a\r\nHost: b\r\n'), [400], b'Host'),
    ('an invalid Host', post(host=b'Host: a/b\r\n'), [400], b'Host'),
    ('HTTP/1.0 without Host', post(host=b'', version=b'HTTP/1.0'), [200], FIVE),
    ('absolute-form target', post(target=b'http://example.org/RPC2'), [200], FIVE),
    # What is never taken as a header field: a trailer (RFC 9110 §6.5.1); what a proxy removes.
    ('a trailer X-Parser is dropped', raw(TE + b'chunked\r\n' + CLOSE,
                                          chunked(ADD, trailer=b'X-Parser: nosuch/parser\r\n')),
     [200], FIVE),
    ('a Connection-listed X-Parser', post(fields=b'X-Parser: nosuch/parser\r\n'
                                                 b'Connection: close, X-Parser\r\n', close=False),
     {'serve': [400], 'record': [200]}, None),
    # Sizes: the head, a chunk line, the trailer section, the body.
    ('a 64 KiB header field', post(fields=b'X-Big: ' + b'a' * 65536 + b'\r\n'), [431], None),
    ('4 KiB of garbage', bytes(range(256)) * 16, [400], None),
    ('a 2 MB chunk extension', raw(TE + b'chunked\r\n', chunked(ADD, b';x=' + b'a' * 2000000)),
     [400], b'chunk line'),
    ('a 2 MB trailer section', raw(TE + b'chunked\r\n',
                                   chunked(ADD, trailer=b'X-T: ' + b'a' * 2000000 + b'\r\n')),
     [431], b'trailer'),
    ('a body over --max-body', raw(b'Content-Length: 2000000\r\n', b''), [413], None),
    ('Expect: 100-continue', post(fields=b'Expect: 100-continue\r\n'), [100, 200], FIVE),
    # What a request may ask for (codecs/service_rules.h): a fault past the answer cap.
    ('respond past the answer cap', post(ADD.replace(b'add', b'respond').replace(
        b'<i4>2</i4>', b'<i4>10000000</i4>').replace(b'<i4>3</i4>', b'<i4>0</i4>')), [200],
     b'respond takes 0..900000 words'),
]


def address(url):
    host, port = url.split('//')[1].split(':')
    return host, int(port)


def sender(sock, data):
    """Sends `data` in a thread (a listener may refuse and close before reading it all)."""
    def send():
        try:
            sock.sendall(data)
        except OSError:
            pass
    t = threading.Thread(target=send, daemon=True)
    t.start()
    return t


def read_all(sock, limit):
    """What the listener sends until it closes the connection, and whether it did (in `limit`)."""
    got, deadline = b'', time.monotonic() + limit
    while time.monotonic() < deadline:
        sock.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            break
        except ConnectionResetError:
            return got, True
        if not chunk:
            return got, True
        got += chunk
    return got, False


def responses(blob):
    """The HTTP responses in `blob`: [(status, headers, body)]."""
    out = []
    while blob:
        head, sep, rest = blob.partition(b'\r\n\r\n')
        if not sep:
            raise AssertionError('a truncated response: %r' % blob[:200])
        lines = head.split(b'\r\n')
        status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(b':')
            headers[name.strip().lower()] = value.strip()
        if 100 <= status < 200:
            body = b''
        elif headers.get(b'transfer-encoding', b'').lower() == b'chunked':
            body = b''
            while True:
                size_line, _, rest = rest.partition(b'\r\n')
                size = int(size_line.split(b';')[0], 16)
                if size == 0:
                    rest = rest.partition(b'\r\n')[2]
                    break
                body, rest = body + rest[:size], rest[size + 2:]
        else:
            n = int(headers.get(b'content-length', b'0'))
            body, rest = rest[:n], rest[n:]
        out.append((status, headers, body))
        blob = rest
    return out


def exchange(url, data, limit=5):
    """Sends `data` on a new connection: the responses, and whether the listener closed it."""
    with socket.create_connection(address(url), timeout=5) as sock:
        t = sender(sock, data)
        got, closed = read_all(sock, limit)
        sock.close()
        t.join(timeout=5)
    return responses(got), closed


def proc_status(pid, key):
    """A /proc/PID/status value in KiB (VmRSS, VmHWM)."""
    with open('/proc/%d/status' % pid) as f:
        for line in f:
            if line.startswith(key + ':'):
                return int(line.split()[1])
    raise AssertionError('no ' + key)


def cpu_seconds(pid):
    with open('/proc/%d/stat' % pid) as f:
        fields = f.read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


def add_ok(url):
    """Whether one add(2,3) on a new connection is answered 200 with 5 (a 503 or a reset: no)."""
    try:
        got, _ = exchange(url, post(), limit=3)
    except OSError:
        return False
    return len(got) == 1 and got[0][0] == 200 and FIVE in got[0][2]


class Serve:
    """`soapbench serve` as the listener under test."""
    name = 'serve'

    def __init__(self, *extra, prefix=()):
        self.proc, self.url = start([*prefix, EXES['soapbench'], 'serve', '--threads', '2',
                                     *COMMON, *extra], r'serving (http://[0-9.]+:[0-9]+)')

    def close(self):
        """The exit status, and None (nothing recorded)."""
        stop(self.proc)
        return self.proc.returncode, None


class Record:
    """`soapbench record` as the listener under test, in front of a `soapbench serve`."""
    name = 'record'

    def __init__(self, *extra, prefix=()):
        self.upstream, upstream_url = start([EXES['soapbench'], 'serve', '--threads', '2'],
                                            r'serving (http://[0-9.]+:[0-9]+)')
        self.tmp = tempfile.TemporaryDirectory()
        self.out = os.path.join(self.tmp.name, 'rec')
        try:
            self.proc, self.url = start([*prefix, EXES['soapbench'], 'record', '--upstream',
                                         upstream_url, '--out', self.out, *COMMON, *extra],
                                        r'recording (http://[0-9.]+:[0-9]+)')
        except Exception:
            stop(self.upstream)
            raise

    def close(self):
        """The exit status, and the exchanges the recording kept."""
        stop(self.proc)
        stop(self.upstream)
        try:
            with open(os.path.join(self.out, 'manifest.json'), encoding='utf-8') as f:
                kept = len(json.load(f)['entries']) // 2
        finally:
            self.tmp.cleanup()
        return self.proc.returncode, kept


class HostileSet:
    """The table and the resource cases against TARGET (a subclass names it)."""
    TARGET = None

    @classmethod
    def setUpClass(cls):
        cls.target = cls.TARGET()

    @classmethod
    def tearDownClass(cls):
        code, _ = cls.target.close()
        assert code == 0, '%s exited %d' % (cls.TARGET.name, code)

    def test_cases(self):
        for name, data, want, holds in CASES:
            want = want[self.TARGET.name] if isinstance(want, dict) else want
            with self.subTest(case=name):
                began = time.monotonic()
                got, closed = exchange(self.target.url, data)
                self.assertEqual([status for status, _, _ in got], want,
                                 [(s, b[:120]) for s, _, b in got])
                self.assertTrue(closed, 'the connection stayed open')
                if holds is not None:
                    self.assertIn(holds, got[-1][2])
                self.assertLess(time.monotonic() - began, 4)
        self.assertTrue(add_ok(self.target.url))  # and the listener serves on

    def test_slow_header_is_closed_at_the_header_timeout(self):
        # One byte every 200 ms: each byte used to extend the proxy's idle timer.
        head = post()
        with socket.create_connection(address(self.target.url), timeout=5) as sock:
            began = time.monotonic()
            closed_after = None
            for i in range(len(head)):
                try:
                    sock.sendall(head[i:i + 1])
                except OSError:
                    closed_after = time.monotonic() - began
                    break
                sock.settimeout(0.2)
                try:
                    if sock.recv(4096) == b'':
                        closed_after = time.monotonic() - began
                        break
                except socket.timeout:
                    pass
                except ConnectionResetError:
                    closed_after = time.monotonic() - began
                    break
                if time.monotonic() - began > 4:
                    break
        self.assertIsNotNone(closed_after, 'still open after 4 s at one byte per 200 ms')
        self.assertLess(closed_after, 2.5)  # --header-timeout 1000
        self.assertTrue(add_ok(self.target.url))

    def test_endless_chunk_extension_in_bounded_memory(self):
        before = proc_status(self.target.proc.pid, 'VmHWM')
        data = raw(TE + b'chunked\r\n', b'5;x=') + b'a' * (50 * 1000 * 1000)
        got, closed = exchange(self.target.url, data)
        self.assertEqual([s for s, _, _ in got], [400])
        grown = proc_status(self.target.proc.pid, 'VmHWM') - before
        print('%s: peak RSS +%d KiB for a 50 MB chunk extension' % (self.TARGET.name, grown))
        self.assertLess(grown, 16 * 1024)

    def test_answers_nobody_reads(self):
        # respond(10000000): 74 MB answers before the cap; eight held for clients that never read.
        call = post(ADD.replace(b'add', b'respond').replace(b'<i4>2</i4>', b'<i4>10000000</i4>')
                    .replace(b'<i4>3</i4>', b'<i4>0</i4>'), close=False)
        before = proc_status(self.target.proc.pid, 'VmRSS')
        socks = [socket.create_connection(address(self.target.url), timeout=5) for _ in range(8)]
        try:
            for s in socks:
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                s.sendall(call)
            time.sleep(2)
            grown = proc_status(self.target.proc.pid, 'VmRSS') - before
        finally:
            for s in socks:
                s.close()
        print('%s: RSS +%d KiB with eight answers nobody reads' % (self.TARGET.name, grown))
        self.assertLess(grown, 64 * 1024)
        self.assertTrue(add_ok(self.target.url))

    def test_connection_cap(self):
        target = self.TARGET('--max-connections', '2')
        try:
            held = [socket.create_connection(address(target.url), timeout=5) for _ in range(2)]
            for s in held:
                s.sendall(b'POST')  # heard: not closed as idle when crowded
            time.sleep(0.3)
            got, closed = exchange(target.url, post())
            self.assertEqual([s for s, _, _ in got], [503])
            self.assertIn(b'too many connections', got[0][2])
            for s in held:
                s.close()
            deadline = time.monotonic() + 3
            while not add_ok(target.url) and time.monotonic() < deadline:
                time.sleep(0.1)
            self.assertTrue(add_ok(target.url))
        finally:
            code, _ = target.close()
        self.assertEqual(code, 0)

    def test_idle_flood_under_a_descriptor_limit(self):
        # 1,500 idle connections against a listener limited to 1,024 descriptors: it must keep
        # within them (answering 503 or closing the surplus), not spin on EMFILE, and serve a
        # normal client within seconds; the proxy records it still.
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft < 4096:
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(4096, hard), hard))
        target = self.TARGET(prefix=['prlimit', '--nofile=1024:1024', '--'])
        flood = []
        try:
            cpu0 = cpu_seconds(target.proc.pid)
            began = time.monotonic()
            for _ in range(1500):
                s = socket.socket()
                s.setblocking(False)
                s.connect_ex(address(target.url))
                flood.append(s)
            served = False
            while not served and time.monotonic() - began < 8:
                served = add_ok(target.url)
                if not served:
                    time.sleep(0.1)
            waited = time.monotonic() - began
            cpu = cpu_seconds(target.proc.pid) - cpu0
            print('%s: served after %.1f s beside 1,500 idle connections (1,024 descriptors), '
                  '%.2f s CPU' % (self.TARGET.name, waited, cpu))
            self.assertTrue(served, 'no answer within 8 s')
            self.assertLess(cpu, 0.5 * waited + 1, 'spinning')
        finally:
            for s in flood:
                s.close()
            code, kept = target.close()
        self.assertEqual(code, 0)
        if kept is not None:  # the proxy went on recording: the calls that got through are kept
            self.assertGreater(kept, 0)


class ServeTest(HostileSet, unittest.TestCase):
    TARGET = Serve


class RecordTest(HostileSet, unittest.TestCase):
    TARGET = Record


if __name__ == '__main__':
    EXES['soapbench'] = sys.argv[1] if len(sys.argv) > 1 else os.environ.get('SOAPBENCH')
    unittest.main(argv=[sys.argv[0]] + sys.argv[2:], verbosity=2)
