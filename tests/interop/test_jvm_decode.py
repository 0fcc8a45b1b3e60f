#!/usr/bin/python3
"""jvm_decode_bench (peers/java/decode): the JVM's XML parsers decoding the getRate envelope.

Usage: /usr/bin/python3 tests/interop/test_jvm_decode.py JVM_DECODE_BENCH [unittest args]

A short run (few messages, no timing claim) must give every decoder's rows in Google Benchmark
JSON with its answer checked against the manifest; a wrong expected answer must make every row
an error and the exit status 1; a bad option exits 2.
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

BENCH = sys.argv[1] if len(sys.argv) > 1 else ''
DECODERS = {'xpp3-pull', 'xerces-dom', 'xerces-sax', 'woodstox-stax'}
NAME = 'jvm/{}/soap11-rpc-encoded/getRate.call'
SHORT = ['--messages', '200', '--repetitions', '2', '--warmup', '100']
TIMEOUT = 120  # a JVM on a loaded 2-core machine


def run(*args):
    """(exit status, the JSON document or None, stderr) of one run."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'out.json')
        proc = subprocess.run([BENCH, *args, '--out', out], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, timeout=TIMEOUT)
        doc = json.load(open(out, encoding='utf-8')) if os.path.exists(out) else None
        return proc.returncode, doc, proc.stderr


class JvmDecodeTest(unittest.TestCase):
    def test_every_decoder_checked_then_timed(self):
        code, doc, err = run(*SHORT)
        self.assertEqual(code, 0, err)
        rows = doc['benchmarks']
        self.assertEqual({r['run_name'] for r in rows}, {NAME.format(d) for d in DECODERS})
        for r in rows:
            self.assertFalse(r.get('error_occurred'), r)
            self.assertEqual((r['iterations'], r['repetitions'], r['time_unit']), (200, 2, 'us'))
            self.assertGreater(r['real_time'], 0)
            self.assertGreater(r['warmup_ns_per_message'], 0)
        self.assertEqual(len(rows), 2 * len(DECODERS))
        self.assertEqual(doc['context']['executable'], 'jvm_decode_bench')
        for d in DECODERS:
            self.assertIn(f'{d} warm-up:', err)

    def test_a_wrong_answer_is_an_error_row_and_exit_1(self):
        wrong = '{"kind":"call","method":"getRate","params":["USA","JAPAN"]}'
        code, doc, err = run(*SHORT, '--expect', wrong)
        self.assertEqual(code, 1, err)
        rows = doc['benchmarks']
        self.assertEqual(len(rows), len(DECODERS))
        for r in rows:
            self.assertTrue(r['error_occurred'], r)
            self.assertIn('"japan"', r['error_message'])

    def test_a_bad_option_exits_2(self):
        proc = subprocess.run([BENCH, '--messages', '0'], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, timeout=TIMEOUT)
        self.assertEqual(proc.returncode, 2)
        self.assertIn('positive', proc.stderr)


if __name__ == '__main__':
    unittest.main(argv=sys.argv[:1] + sys.argv[2:], verbosity=2)
