#!/usr/bin/python3
"""The omniORB (CORBA) peer (peers/corba): corba_client -> corba_server over GIOP, every operation.

Usage: /usr/bin/python3 tests/interop/test_corba.py SOAPBENCH CORBA_SERVER CORBA_CLIENT
       [unittest args]

CORBA speaks only GIOP, so the peer has no cell with the HTTP stacks: each answer corba_client
prints is checked against the contract's, which is what `soapbench call --protocol jsonrpc`
gets from `soapbench serve` for the same call (getChain: the JSON-RPC corpus document that
corba_server passes through; `now` by its form). Also: `fail` and a bad birthdate are the
contract's faults (a CORBA user exception carrying code and message), the server prints a
corbaloc URL for port 0, an answer above omniORB's default 2 MiB message limit comes through (the
raised giopMaxMsgSize), and an operation the IDL lacks is refused by the client. Both servers bind
127.0.0.1 port 0 and are stopped by PID at the end.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

SOURCE_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
CORPUS_DIR = os.path.join(SOURCE_DIR, 'corpus')
sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
from wsdl.test_wsdl import START_TIMEOUT, _read_line, start_server, stop_server  # noqa: E402

EXES = {}   # soapbench, server, client
STATE = {}  # processes, URLs, stderr file
CALL_TIMEOUT = 60

PEOPLE = [{'id': 1, 'name': 'Ann <&>', 'weight': 61.5, 'birthdate': '1965-03-21 00:00:00',
           'children': [{'id': 2, 'name': 'Bo', 'weight': 3.25,
                         'birthdate': '2020-05-06T07:08:09', 'children': []}]}]

# (operation, args as JSON values): every operation of the contract but `now` and `fail`.
CASES = [
    ('add', ['2', '3']),
    ('add', ['2147483647', '-2147483648']),
    ('concat', ['"<&> é 日本 😀"', '" b"', '"c"']),
    ('concat', ['"a"', '"b"']),
    ('echoArray', ['[1,2]', '[3]']),
    ('boolean', []),
    ('complex', [json.dumps(PEOPLE)]),
    ('getRate', ['"USA"', '"japan"']),
    ('respond', ['23', '0']),
    ('sendString', ['"hello"']),
    ('receiveString', ['30']),
    ('sendInt', ['42']),
    ('getChain', []),
    ('echoInts', ['[0,1,-1,2147483647,-2147483648]']),
    ('echoInts', ['[]']),
    ('echoDoubles', ['[1.5,-0.25,0.1,123.456,1e300,82.3,-0.0,5e-324]']),
    ('echoStrings', [json.dumps(['', 'a', '<tag>&amp;', 'ünïcødé ✓', 'tab\tnew\nline'])]),
    ('echoBase64', ['"AAECAwQFBgcICQ=="']),
]
FAULT = '{"kind":"fault","code":4,"message":"division by zero"}'


def setUpModule():
    if len(EXES) < 3:
        raise unittest.SkipTest('usage: test_corba.py SOAPBENCH CORBA_SERVER CORBA_CLIENT')
    STATE['err'] = tempfile.TemporaryFile()
    STATE['ours'], STATE['ours_url'] = start_server(EXES['soapbench'], STATE['err'])
    proc = subprocess.Popen([EXES['server'], '--address', '127.0.0.1', '--port', '0',
                             '--corpus', CORPUS_DIR],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=STATE['err'])
    STATE['peer'] = proc
    STATE['line'] = _read_line(proc, START_TIMEOUT) or ''
    match = re.search(r'serving (corbaloc:iiop:1\.2@127\.0\.0\.1:[0-9]+/soapbench) ', STATE['line'])
    if match is None:
        STATE['err'].seek(0)
        raise RuntimeError('corba_server did not start: %s %s'
                           % (STATE['line'], STATE['err'].read().decode('utf-8', 'replace')))
    STATE['peer_url'] = match.group(1)


def tearDownModule():
    for name in ('peer', 'ours'):
        if name in STATE:
            stop_server(STATE[name])
    if 'err' in STATE:
        STATE['err'].close()


def run(cmd, statuses=(0, 2)):
    """(exit status, stdout, stderr) of a client command; fails on a status not in `statuses`."""
    proc = subprocess.run(cmd, capture_output=True, timeout=CALL_TIMEOUT)
    if proc.returncode not in statuses:
        raise AssertionError('%s exited %d: %s' % (' '.join(cmd[:5]), proc.returncode,
                                                    proc.stderr.decode('utf-8', 'replace')))
    return proc.returncode, proc.stdout.decode('utf-8').strip(), proc.stderr.decode('utf-8')


def corba_call(method, args):
    return run([EXES['client'], '--url', STATE['peer_url'], method, *args])[1]


def contract_answer(method, args):
    """What soapbench's own client gets from soapbench serve (JSON-RPC) for the same call."""
    return run([EXES['soapbench'], 'call', '--url', STATE['ours_url'], '--protocol', 'jsonrpc',
                method, *args])[1]


class EveryOperationTest(unittest.TestCase):

    def test_answers_are_the_contracts(self):
        for method, args in CASES:
            with self.subTest(method=method, args=args):
                self.assertEqual(corba_call(method, args), contract_answer(method, args))

    def test_fail_is_the_contract_fault(self):
        self.assertEqual(corba_call('fail', []), FAULT)

    def test_bad_birthdate_is_invalid_params(self):
        people = json.dumps([dict(PEOPLE[0], birthdate='yesterday', children=[])])
        got = json.loads(corba_call('complex', [people]))
        self.assertEqual(got['code'], -32602)
        self.assertEqual(got, json.loads(contract_answer('complex', [people])))

    def test_now(self):
        self.assertRegex(corba_call('now', []),
                         r'^\{"kind":"response","method":"now","result":'
                         r'\{"\$dateTime":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d"\}\}$')

    def test_repeat_on_one_connection(self):
        lines = run([EXES['client'], '--url', STATE['peer_url'], '--repeat', '3', 'add', '2',
                     '3'])[1].split('\n')
        self.assertEqual(lines, ['{"kind":"response","method":"add","result":5}'] * 3)


class ServerTest(unittest.TestCase):

    def test_startup_line_names_the_settings(self):
        self.assertIn('thread per connection', STATE['line'])
        self.assertIn('giopMaxMsgSize 134217728', STATE['line'])

    def test_answer_above_omniorbs_default_message_limit(self):
        n = 3 * 1024 * 1024  # omniORB's default giopMaxMsgSize is 2 MiB
        got = json.loads(corba_call('receiveString', [str(n)]))
        self.assertEqual(len(got['result']), n)
        self.assertEqual(got['result'][:27], 'abcdefghijklmnopqrstuvwxyza')

    def test_operation_outside_the_idl_is_refused(self):
        status, out, err = run([EXES['client'], '--url', STATE['peer_url'], 'nosuch'],
                               statuses=(1,))
        self.assertEqual(out, '')
        self.assertIn('nosuch', err)


if __name__ == '__main__':
    EXES.update(zip(('soapbench', 'server', 'client'), sys.argv[1:4]))
    unittest.main(argv=[sys.argv[0]] + sys.argv[4:], verbosity=2)
