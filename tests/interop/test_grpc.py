#!/usr/bin/python3
"""The gRPC peer (peers/grpc): grpc_client against grpc_server, by hand, as docs/peers.md "gRPC".

Usage: /usr/bin/python3 tests/interop/test_grpc.py GRPC_SERVER GRPC_CLIENT [unittest args]

grpc_server binds 127.0.0.1 port 0 and prints the port it got; grpc_client makes representative
calls through the generated stub and prints canonical JSON, checked against the contract: add,
concat (its optional third param present and absent), echoArray, echoBase64, complex (birthdates
in the classic client's str(datetime) form come back as dateTimes), getChain (the JSON-RPC corpus
response, by the manifest's canonical SHA-256), and fail, whose gRPC status carries the contract's
fault (4, "division by zero"; grpc_client exits 2). --timing counts the connection's bytes. The
server's stderr must stay empty (GRPC_VERBOSITY=ERROR), and it stops on SIGTERM by its PID.
"""

import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

SOURCE_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
from wsdl.test_wsdl import START_TIMEOUT, _read_line, stop_server  # noqa: E402
# complex's people, sent the classic client's way, and the Person[] the contract answers.
from test_xmlrpc_c import PEOPLE, PEOPLE_OUT  # noqa: E402

EXES = {}   # server, client
STATE = {}  # process, target, stderr file
CALL_TIMEOUT = 30
ENV = dict(os.environ, GRPC_VERBOSITY='ERROR')


def setUpModule():
    STATE['stderr'] = tempfile.TemporaryFile()
    proc = subprocess.Popen([EXES['server'], '--address', '127.0.0.1', '--port', '0'],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=STATE['stderr'], env=ENV)
    STATE['proc'] = proc
    line = _read_line(proc, START_TIMEOUT) or ''
    match = re.search(r'http://(127\.0\.0\.1:[0-9]+)', line)
    if not match:
        stop_server(proc)
        raise RuntimeError('grpc_server did not start: ' + line)
    STATE['target'] = match.group(1)


def tearDownModule():
    stop_server(STATE['proc'])
    STATE['stderr'].close()


def run_client(*args):
    """(exit code, stdout lines) of grpc_client against the server."""
    r = subprocess.run([EXES['client'], '--url', STATE['target'], *args], env=ENV,
                       stdin=subprocess.DEVNULL, capture_output=True, timeout=CALL_TIMEOUT)
    return r.returncode, r.stdout.decode('utf-8').splitlines(), r.stderr.decode('utf-8')


def response(method, result):
    return {'kind': 'response', 'method': method, 'result': result}


class RepresentativeTest(unittest.TestCase):

    def call(self, method, *args):
        code, lines, err = run_client(method, *args)
        self.assertEqual(code, 0, err)
        self.assertEqual(err, '')
        return json.loads(lines[0])

    def test_add(self):
        self.assertEqual(self.call('add', '2', '3'), response('add', 5))

    def test_concat_optional_param(self):
        self.assertEqual(self.call('concat', '"<&> é"', '" b"', '"c"'),
                         response('concat', '<&> é bc'))
        self.assertEqual(self.call('concat', '"a"', '"b"'), response('concat', 'ab'))

    def test_echo_array_and_base64(self):
        self.assertEqual(self.call('echoArray', '[1,2]', '[3]'), response('echoArray', [1, 2, 3]))
        self.assertEqual(self.call('echoBase64', '{"$base64":"AAEC/w=="}'),
                         response('echoBase64', {'$base64': 'AAEC/w=='}))

    def test_complex(self):
        self.assertEqual(self.call('complex', json.dumps(PEOPLE)), response('complex', PEOPLE_OUT))

    def test_get_chain_is_the_corpus_response(self):
        code, lines, err = run_client('getChain')
        self.assertEqual(code, 0, err)
        with open(os.path.join(SOURCE_DIR, 'corpus', 'manifest.json'), encoding='utf-8') as f:
            entry = next(e for e in json.load(f)['entries']
                         if e['path'] == 'jsonrpc/getChain.response.json')
        self.assertEqual(hashlib.sha256(lines[0].encode('utf-8')).hexdigest(),
                         entry['canonical_sha256'])

    def test_fail_is_a_status_with_the_fault(self):
        code, lines, err = run_client('fail')
        self.assertEqual(code, 2, err)
        self.assertEqual(json.loads(lines[0]),
                         {'kind': 'fault', 'code': 4, 'message': 'division by zero'})

    def test_invalid_params_fault(self):
        # A dateTime the service cannot read: the contract's -32602 comes back in the status.
        people = [dict(PEOPLE[0], birthdate='yesterday', children=[])]
        code, lines, err = run_client('complex', json.dumps(people))
        self.assertEqual(code, 2, err)
        fault = json.loads(lines[0])
        self.assertEqual((fault['kind'], fault['code']), ('fault', -32602))

    def test_timing_counts_bytes_on_one_connection(self):
        code, lines, err = run_client('--repeat', '3', '--timing', 'add', '2', '3')
        self.assertEqual(code, 0, err)
        wires = [json.loads(l)['wire'] for l in lines[1::2]]
        self.assertEqual(len(wires), 3)
        # The first call opens the connection (HTTP/2 preface and SETTINGS): the later ones,
        # on the same connection, carry fewer bytes, and every call some.
        for w in wires:
            self.assertGreater(w['sent'], 0)
            self.assertGreater(w['received'], 0)
        self.assertLess(wires[2]['sent'], wires[0]['sent'])

    def test_server_stderr_is_clean(self):
        self.call('add', '1', '1')
        STATE['stderr'].seek(0)
        self.assertEqual(STATE['stderr'].read().decode('utf-8', 'replace'), '')


if __name__ == '__main__':
    EXES['server'], EXES['client'] = sys.argv[1], sys.argv[2]
    unittest.main(argv=[sys.argv[0]] + sys.argv[3:], verbosity=2)
