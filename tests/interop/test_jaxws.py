#!/usr/bin/python3
"""The JAX-WS RI peer (peers/java/jaxws) as a server and as a client, checked against soapbench.

Usage: /usr/bin/python3 tests/interop/test_jaxws.py --soapbench SOAPBENCH --server JAXWS_SERVER
         --client JAXWS_CLIENT [--gsoap-server GSOAP_SERVER] [unittest args]

For the whole file: `soapbench serve`, jaxws_server in soap11-doc-literal and soap12-doc-literal,
one with --no-validation, and gsoap_server in both families when given (a JVM start is about a
second). Every operation of the contract is called with `soapbench call` on jaxws_server and
soapbench, and with jaxws_client on soapbench and gSOAP, and every answer must equal soapbench's
own (`now` by its shape); `fail` is the contract's fault; a malformed int is a Client fault with
schema validation and silently 0 without it; every hostile XML file of the corpus gets a fault
(or is one of the known findings) and the server keeps serving; SIGTERM stops the servers.
"""

import argparse
import glob
import gzip
import json
import os
import subprocess
import sys
import unittest

SOURCE_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
import test_java  # noqa: E402  (its CALLS, post_raw and start: the Axis peer's test)

CORPUS = os.path.join(SOURCE_DIR, 'corpus')
CALL_TIMEOUT = 60  # a batch of JVM client calls on a loaded 2-core machine
FAMILIES = {'soap11-doc-literal': ['--protocol', 'soap11', '--style', 'doc-literal'],
            'soap12-doc-literal': ['--protocol', 'soap12', '--style', 'doc-literal']}
# Hostile files the JAX-WS RI answers as calls: a DOCTYPE, which SOAP forbids, is skipped (the
# external subset and parameter entity are not fetched) and the envelope answered.
JAXWS_ACCEPTS = {'external-dtd-subset.xml', 'external-parameter-entity.xml'}
ARGS = None  # the parsed command line
SERVERS = test_java.SERVERS  # name -> (process, base URL), started by test_java.start


def setUpModule():
    if ARGS is None:
        raise unittest.SkipTest('needs --soapbench, --server and --client')
    try:
        test_java.start('soapbench', [ARGS.soapbench, 'serve', '--address', '127.0.0.1',
                                      '--port', '0'])
        for family in FAMILIES:
            test_java.start('jaxws ' + family, [ARGS.server, '--family', family, '--port', '0',
                                                '--corpus', CORPUS])
            if ARGS.gsoap_server:
                test_java.start('gsoap ' + family, [ARGS.gsoap_server, '--family', family,
                                                    '--port', '0', '--corpus', CORPUS])
        test_java.start('jaxws lenient', [ARGS.server, '--no-validation', '--port', '0',
                                          '--corpus', CORPUS])
    except BaseException:
        tearDownModule()
        raise


tearDownModule = test_java.tearDownModule  # stops every server test_java.start started


def soapbench_call(server, family, *args):
    """`soapbench call`'s answer as JSON (exit 0: a response, 2: a fault)."""
    proc = subprocess.run([ARGS.soapbench, 'call', '--url', SERVERS[server][1],
                           *FAMILIES[family], *args], capture_output=True, timeout=CALL_TIMEOUT)
    if proc.returncode not in (0, 2):
        raise AssertionError('soapbench call %s exited %d: %s' % (
            args[0], proc.returncode, proc.stderr.decode('utf-8', 'replace')))
    return json.loads(proc.stdout.decode('utf-8'))


def jaxws_calls(server, family, calls):
    """jaxws_client's answers to `calls` (one run, --then between them), as JSON."""
    argv = [ARGS.client, '--url', SERVERS[server][1], '--family', family]
    for i, args in enumerate(calls):
        argv += (['--then'] if i else []) + list(args)
    proc = subprocess.run(argv, capture_output=True, timeout=CALL_TIMEOUT)
    lines = proc.stdout.decode('utf-8').splitlines()
    if proc.returncode not in (0, 2) or len(lines) != len(calls):
        raise AssertionError('jaxws_client exited %d with %d lines: %s' % (
            proc.returncode, len(lines), proc.stderr.decode('utf-8', 'replace')[-2000:]))
    return [json.loads(line) for line in lines]


def same_answer(test, got, expected, call):
    if call == 'now':
        test.assertRegex(got['result']['$dateTime'], r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$')
    else:
        test.assertEqual(got, expected)


class JaxwsServerTest(unittest.TestCase):
    def test_every_operation_as_soapbench_answers(self):
        for family in FAMILIES:
            for args in test_java.CALLS + [['now']]:
                with self.subTest(family=family, call=args[0]):
                    same_answer(self, soapbench_call('jaxws ' + family, family, *args),
                                soapbench_call('soapbench', family, *args), args[0])

    def test_fault(self):
        for family in FAMILIES:
            self.assertEqual(soapbench_call('jaxws ' + family, family, 'fail'),
                             {'kind': 'fault', 'code': 4, 'message': 'division by zero'})

    def test_malformed_int_is_a_fault_only_with_schema_validation(self):
        with open(os.path.join(CORPUS, 'soap11-doc-literal', 'add.call.xml'), 'rb') as f:
            body = f.read().replace(b'>3<', b'>two<')
        status, answer = test_java.post_raw('jaxws soap11-doc-literal', body)
        self.assertEqual(status, 500, answer[:300])
        self.assertIn(b'<faultcode>S:Client</faultcode>', answer)
        # The RI's default: JAXB reads `two` as 0 and the call is answered (docs/peers.md "JAX-WS").
        status, answer = test_java.post_raw('jaxws lenient', body)
        self.assertEqual(status, 200, answer[:300])
        self.assertIn(b'<return>2</return>', answer)

    def test_wsdl_served(self):
        with test_java.OPENER.open(SERVERS['jaxws soap11-doc-literal'][1] + '/soap?wsdl',
                                   timeout=CALL_TIMEOUT) as answer:
            wsdl = answer.read().decode('utf-8')
        for op in ('add', 'getRate', 'complex', 'echoBase64'):
            self.assertIn('<operation name="%s">' % op, wsdl)
        self.assertIn('soap:address location="%s/soap"' % SERVERS['jaxws soap11-doc-literal'][1],
                      wsdl)

    def test_hostile_requests_get_faults(self):
        """Each hostile file: a SOAP Fault with HTTP 500 (or one of the known findings), and the
        server keeps serving."""
        files = sorted(glob.glob(os.path.join(CORPUS, 'hostile', 'xml', '*')))
        self.assertGreater(len(files), 100)
        accepted = set()
        for path in files:
            name = os.path.basename(path)
            opener = gzip.open if path.endswith('.gz') else open
            with opener(path, 'rb') as f:
                status, body = test_java.post_raw('jaxws soap11-doc-literal', f.read())
            if status == 200 and b'Fault>' not in body:
                accepted.add(name)
                continue
            with self.subTest(file=name):
                self.assertEqual(status, 500, body[:300])
                self.assertIn(b'Fault>', body)
        self.assertEqual(accepted, JAXWS_ACCEPTS)
        self.assertEqual(soapbench_call('jaxws soap11-doc-literal', 'soap11-doc-literal',
                                        'add', '2', '3')['result'], 5)


class JaxwsClientTest(unittest.TestCase):
    def test_every_operation_against_soapbench_and_gsoap(self):
        calls = test_java.CALLS + [['now']]
        for family in FAMILIES:
            expected = [soapbench_call('soapbench', family, *args) for args in calls]
            servers = ['soapbench', 'jaxws ' + family]
            if ARGS.gsoap_server:
                servers.append('gsoap ' + family)
            for server in servers:
                got = jaxws_calls(server, family, calls)
                for args, answer, want in zip(calls, got, expected):
                    with self.subTest(family=family, server=server, call=args[0]):
                        same_answer(self, answer, want, args[0])

    def test_exit_status_and_error_line(self):
        url = SERVERS['soapbench'][1]
        fault = subprocess.run([ARGS.client, '--url', url, 'fail'], capture_output=True,
                               timeout=CALL_TIMEOUT)
        self.assertEqual(fault.returncode, 2)
        batch = subprocess.run([ARGS.client, '--url', url, 'add', '2', '--then', 'add', '1', '2'],
                               capture_output=True, timeout=CALL_TIMEOUT)
        self.assertEqual(batch.returncode, 1)
        lines = [json.loads(line) for line in batch.stdout.decode('utf-8').splitlines()]
        self.assertEqual(lines[0]['kind'], 'error')
        self.assertEqual(lines[1], {'kind': 'response', 'method': 'add', 'result': 3})


if __name__ == '__main__':
    parser = argparse.ArgumentParser(add_help=False)
    for option in ('--soapbench', '--server', '--client', '--gsoap-server'):
        parser.add_argument(option)
    ARGS, rest = parser.parse_known_args()
    if not (ARGS.soapbench and ARGS.server and ARGS.client):
        ARGS = None
    unittest.main(argv=sys.argv[:1] + rest)
