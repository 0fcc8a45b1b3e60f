#!/usr/bin/python3
"""The scripting stacks' servers (peers/scripting) answering our client.

Usage: /usr/bin/python3 tests/interop/test_scripting.py SOAPBENCH [unittest args]

Each server (SOAP::Lite in soap11-rpc-encoded, Frontier::RPC and Python's xmlrpc.server in
xmlrpc) is started on 127.0.0.1 port 0 with --stats, answers `soapbench call` on the scripting
comparison's three queries (add, echoArray, getChain: the corpus's document, passed through) and
`fail` with its stack's fault; stopped by PID (SIGTERM), it writes one "HANDLING_NS SEND_NS" line
per call it answered.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import unittest
import urllib.request

SOURCE_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
SCRIPTS = os.path.join(SOURCE_DIR, 'peers', 'scripting')
sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
from wsdl.test_wsdl import START_TIMEOUT, _read_line, stop_server  # noqa: E402

EXE = {}
CALL_TIMEOUT = 30
# server -> (script, `soapbench call` options of its family, corpus family, path)
SERVERS = {
    'soaplite': ('soaplite_server.pl', ['--protocol', 'soap11', '--style', 'rpc-encoded'],
                 'soap11-rpc-encoded', '/soap'),
    'frontier': ('frontier_server.pl', ['--protocol', 'xmlrpc'], 'xmlrpc', '/RPC2'),
    'python-xmlrpc': ('python_xmlrpc_server.py', ['--protocol', 'xmlrpc'], 'xmlrpc', '/RPC2'),
}
# No proxy for 127.0.0.1, whatever the environment says.
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))
FAULT = {'kind': 'fault', 'code': 4, 'message': 'division by zero'}


def setUpModule():
    EXE['soapbench'] = sys.argv[1] if len(sys.argv) > 1 else os.environ.get('SOAPBENCH_EXE')
    if not EXE['soapbench']:
        raise unittest.SkipTest('needs soapbench (argv or SOAPBENCH_EXE)')


def call(url, options, op, *args):
    """`soapbench call`'s answer as JSON (exit 0: a response, 2: a fault)."""
    proc = subprocess.run([EXE['soapbench'], 'call', '--url', url, *options, op, *args],
                          capture_output=True, timeout=CALL_TIMEOUT)
    if proc.returncode not in (0, 2):
        raise AssertionError('soapbench call %s exited %d: %s' % (
            op, proc.returncode, proc.stderr.decode('utf-8', 'replace')))
    return json.loads(proc.stdout.decode('utf-8'))


class ServerTest(unittest.TestCase):
    """One server per test: the queries, the fault, then the split it writes at SIGTERM."""

    def run_server(self, name):
        script, options = SERVERS[name][:2]
        with tempfile.TemporaryDirectory() as tmp:
            stats = os.path.join(tmp, 'stats')
            proc = subprocess.Popen(
                [os.path.join(SCRIPTS, script), '--address', '127.0.0.1', '--port', '0',
                 '--stats', stats], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
            try:
                line = _read_line(proc, START_TIMEOUT) or ''
                match = re.search(r'serving (http://127\.0\.0\.1:[0-9]+)', line)
                self.assertIsNotNone(match, '%s printed %r' % (script, line))
                calls = self.check_answers(name, match.group(1), options)
            finally:
                stop_server(proc)
            with open(stats, encoding='utf-8') as f:
                lines = f.read().splitlines()
        self.assertEqual(len(lines), calls, 'one split line per call')
        for split in lines:
            handling, send = (int(v) for v in split.split())
            self.assertGreater(handling, 0)
            self.assertGreater(send, 0)

    def check_answers(self, name, url, options):
        """The queries and the fault; returns how many calls were made."""
        self.assertEqual(call(url, options, 'add', '2', '3'),
                         {'kind': 'response', 'method': 'add', 'result': 5})
        self.assertEqual(call(url, options, 'echoArray', '[1,2,3]', '[4,5]'),
                         {'kind': 'response', 'method': 'echoArray', 'result': [1, 2, 3, 4, 5]})
        chain = call(url, options, 'getChain')
        self.assertEqual(chain['kind'], 'response', chain)
        self.assertEqual(len(chain['result']), 331)
        self.assertEqual(chain['result'][0]['name'], 'meadow-history')
        fault = call(url, options, 'fail')
        if name == 'frontier':  # a die in a Frontier method is its fault 4 "error executing RPC"
            self.assertEqual((fault['kind'], fault['code']), ('fault', 4), fault)
            self.assertIn('division by zero', fault['message'])
        else:
            self.assertEqual(fault, FAULT)
        with open(os.path.join(SOURCE_DIR, 'corpus', SERVERS[name][2], 'getChain.response.xml'),
                  'rb') as f:
            self.assertEqual(self.post_chain(url, *SERVERS[name][2:]), f.read())
        return 5

    def post_chain(self, url, family, path):
        """The body the server answers to the corpus's getChain call (the document unchanged)."""
        with open(os.path.join(SOURCE_DIR, 'corpus', family, 'getChain.call.xml'), 'rb') as f:
            body = f.read()
        request = urllib.request.Request(url + path, data=body, headers={
            'Content-Type': 'text/xml; charset=utf-8', 'SOAPAction': '"urn:soapbench#getChain"'})
        with OPENER.open(request, timeout=CALL_TIMEOUT) as answer:
            return answer.read()

    def test_soaplite(self):
        self.run_server('soaplite')

    def test_frontier(self):
        self.run_server('frontier')

    def test_python_xmlrpc(self):
        self.run_server('python-xmlrpc')


if __name__ == '__main__':
    unittest.main(argv=sys.argv[:1] + sys.argv[2:])
