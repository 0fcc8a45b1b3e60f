#!/usr/bin/python3
"""`soapbench interop` (cli/interop_command.cpp): the interop matrix as a command.

Usage: /usr/bin/python3 tests/interop/test_interop_command.py SOAPBENCH [GSOAP_SERVER]

- MatrixTest: `--only representative` (servers on port 0, seconds): every family's pairs are
  there, each cell ok, a malformed request faulted by every server, gSOAP <-> xmlrpc-c "no common
  protocol", the JSON shape the report reads.
- BrokenCellTest: a real gsoap_server of the wrong family (rpc/literal whatever it is asked) as
  --gsoap-server: the cells it answers wrongly are reported failed, and the command exits 1.
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

EXES = {}


def interop(*args):
    """(exit status, stdout, the --json document) of `soapbench interop ARGS`."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'interop.json')
        proc = subprocess.run([EXES['soapbench'], 'interop', '--json', out, *args],
                              capture_output=True, timeout=300)
        with open(out, encoding='utf-8') as f:
            return proc.returncode, proc.stdout.decode('utf-8'), json.load(f)


class MatrixTest(unittest.TestCase):
    def test_representative(self):
        status, text, doc = interop('--only', 'representative')
        self.assertEqual(status, 0, text)
        self.assertEqual(doc['tool'], 'soapbench interop')
        self.assertEqual(doc['context']['only'], 'representative')
        cells = doc['cells']
        for c in cells:
            self.assertEqual(set(c), {'client', 'server', 'family', 'operation', 'status',
                                      'detail'})
            self.assertIn(c['status'], ('ok', 'off', 'fault-ok'), c)
        pairs = {(c['client'], c['server'], c['family']) for c in cells}
        self.assertIn(('soapbench', 'soapbench', 'jsonrpc'), pairs)
        ops = {c['operation'] for c in cells if c['client'] == 'soapbench'
               and c['server'] == 'soapbench' and c['family'] == 'xmlrpc'}
        self.assertEqual(ops, {'add', 'complex'})
        malformed = [c for c in cells if c['client'] == 'malformed']
        self.assertTrue(malformed)
        for c in malformed:
            self.assertIn(c['status'], ('fault-ok', 'off'), c)
        none = [c for c in cells if c['detail'] == 'no common protocol']
        self.assertEqual({(c['client'], c['server']) for c in none},
                         {('gsoap', 'xmlrpc-c'), ('xmlrpc-c', 'gsoap')})
        self.assertIn('0 failed', text)


class BrokenCellTest(unittest.TestCase):
    def test_wrong_family_server_is_reported(self):
        if not EXES.get('gsoap_server'):
            self.skipTest('gSOAP peer not built')
        with tempfile.TemporaryDirectory() as tmp:
            wrapper = os.path.join(tmp, 'rpc_literal_server')
            with open(wrapper, 'w') as f:  # soapbench passes --family F first: replaced
                f.write('#!/bin/sh\nshift 2\nexec %s --family soap11-rpc-literal "$@"\n'
                        % EXES['gsoap_server'])
            os.chmod(wrapper, 0o755)
            # (the JVM peers off: this test is about gSOAP, and each JVM start costs a second)
            status, text, doc = interop('--gsoap-server', wrapper, '--jaxws-server', '',
                                        '--jaxws-client', '')
        self.assertEqual(status, 1, text)
        failed = {(c['client'], c['server'], c['family'], c['operation'])
                  for c in doc['cells'] if c['status'] == 'fail'}
        # gSOAP's client reads the rpc/literal answer leniently as defaults: add gives 0.
        self.assertIn(('gsoap', 'gsoap', 'soap11-doc-literal', 'add'), failed)
        self.assertIn('failures:', text)
        self.assertIn('gsoap -> gsoap soap11-doc-literal add', text)
        right = [c for c in doc['cells'] if c['family'] == 'soap11-rpc-literal']
        self.assertTrue(all(c['status'] != 'fail' for c in right))


if __name__ == '__main__':
    for key in ('soapbench', 'gsoap_server'):
        if len(sys.argv) > 1 and not sys.argv[1].startswith('-'):
            EXES[key] = sys.argv.pop(1)
    if 'soapbench' not in EXES:
        sys.exit('usage: test_interop_command.py SOAPBENCH [GSOAP_SERVER]')
    unittest.main()
