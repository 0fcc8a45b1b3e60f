#!/usr/bin/python3
"""Checks corpus/wild/ against its manifest (docs/corpus.md "The wild corpus").

Run: /usr/bin/python3 tests/corpus/test_wild.py

The manifest lists every file and only those, each with its bytes and SHA-256; every source names
a repository, a commit, a path and a licence from the allowed list; every message has one of the
three expected outcomes with the field that outcome requires; every canonical line is canonical
JSON; the counts meet issue 41 (200 messages, 20 WSDLs, 12 stacks)."""

import hashlib
import json
import re
import unittest
from pathlib import Path

WILD = Path(__file__).resolve().parents[2] / 'corpus' / 'wild'
LICENCES = {'MIT', 'BSD-2-Clause', 'BSD-3-Clause', 'Apache-2.0', 'PHP-3.01', 'PSF-2.0', 'ISC',
            'Ruby OR BSD-2-Clause', 'MPL-2.0', 'CC0-1.0'}
FAMILIES = {'xmlrpc', 'jsonrpc', 'soap11-rpc-encoded', 'soap11-rpc-literal', 'soap11-doc-literal',
            'soap12-rpc-encoded', 'soap12-rpc-literal', 'soap12-doc-literal'}
OUTCOMES = {'typed', 'needs-wsdl', 'refused'}
DIRECTIONS = {'call', 'response', 'fault'}
NOT_LISTED = {'manifest.json', '.gitattributes'}  # the folder's own files, and LICENSES/


def manifest():
    with open(WILD / 'manifest.json', encoding='utf-8') as f:
        return json.load(f)


def canonical_line(value):
    return json.dumps(value, ensure_ascii=False, separators=(',', ':'))


class ListingTest(unittest.TestCase):
    def test_every_file_listed_once_and_only_those(self):
        m = manifest()
        listed = [e['path'] for k in ('entries', 'wsdls', 'imports') for e in m[k]]
        self.assertEqual(len(listed), len(set(listed)), 'a path listed twice')
        on_disk = sorted(str(p.relative_to(WILD)) for p in WILD.rglob('*')
                         if p.is_file() and p.name not in NOT_LISTED
                         and p.relative_to(WILD).parts[0] != 'LICENSES')
        self.assertEqual(sorted(listed), on_disk)

    def test_bytes_and_sha256(self):
        m = manifest()
        for e in [e for k in ('entries', 'wsdls', 'imports') for e in m[k]]:
            data = (WILD / e['path']).read_bytes()
            self.assertEqual(len(data), e['bytes'], e['path'])
            self.assertEqual(hashlib.sha256(data).hexdigest(), e['sha256'], e['path'])

    def test_entries_sorted_by_path(self):
        for k in ('entries', 'wsdls', 'imports'):
            paths = [e['path'] for e in manifest()[k]]
            self.assertEqual(paths, sorted(paths), k)


class SourceTest(unittest.TestCase):
    def test_every_file_has_a_source_and_an_allowed_licence(self):
        m = manifest()
        for e in [e for k in ('entries', 'wsdls', 'imports') for e in m[k]]:
            s = e['source']
            self.assertRegex(s['repository'], r'^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$', e['path'])
            self.assertRegex(s['commit'], r'^[0-9a-f]{40}$', e['path'])
            self.assertTrue(s['path'], e['path'])
            self.assertIn(s['licence'], LICENCES, e['path'])
            self.assertTrue(e['stack'], e['path'])

    def test_each_stack_has_its_licence_text(self):
        texts = {p.name for p in (WILD / 'LICENSES').iterdir()}
        for stack in {e['stack'] for k in ('entries', 'wsdls') for e in manifest()[k]}:
            mine = [t for t in texts if t.startswith(stack + '.')]
            apache = stack in {'axis1', 'axis2', 'spring-ws'}
            php = stack == 'php-soap'
            self.assertTrue(mine or apache or php, f'no licence text for {stack}')
        self.assertIn('Apache-2.0.txt', texts)
        self.assertIn('PHP-3.01.txt', texts)
        self.assertIn('README.md', texts)

    def test_cut_down_copies_say_what_was_cut(self):
        for e in manifest()['entries']:
            if 'cut' in e:
                self.assertGreater(len(e['cut']), 20, e['path'])


class OutcomeTest(unittest.TestCase):
    def test_fields_of_each_outcome(self):
        m = manifest()
        wsdls = {w['path'] for w in m['wsdls']}
        for e in m['entries']:
            p = e['path']
            self.assertIn(e['expected'], OUTCOMES, p)
            self.assertIn(e['family'], FAMILIES, p)
            self.assertIn(e['direction'], DIRECTIONS, p)
            self.assertIn(e['format'], ('xml', 'json'), p)
            if e['expected'] == 'typed':
                self.assertTrue('canonical' in e or 'canonical_sha256' in e, p)
            if e['expected'] == 'needs-wsdl':
                self.assertIn(e['wsdl'], wsdls, p)
                with_wsdl = [k for k in ('canonical_with_wsdl', 'with_wsdl_refused',
                                         'with_wsdl_undecided') if k in e]
                self.assertEqual(len(with_wsdl), 1, p)
            if e['expected'] == 'refused':
                self.assertTrue(e['reason'].strip(), p)
                self.assertNotIn('canonical', e, p)

    def test_canonical_lines_are_canonical_json(self):
        for e in manifest()['entries']:
            for key in ('canonical', 'canonical_with_wsdl'):
                if key in e:
                    value = json.loads(e[key])
                    self.assertEqual(canonical_line(value), e[key], e['path'])
                    self.assertIn(value['kind'], ('call', 'response', 'fault', 'batch'),
                                  e['path'])

    def test_long_canonical_lines_are_hashed_as_the_corpus_manifest_does(self):
        for e in manifest()['entries']:
            if 'canonical' in e:
                self.assertLessEqual(len(e['canonical'].encode()), 4096, e['path'])
            if 'canonical_sha256' in e:
                self.assertRegex(e['canonical_sha256'], r'^[0-9a-f]{64}$', e['path'])
                self.assertGreater(e['canonical_bytes'], 4096, e['path'])

    def test_kind_agrees_with_direction(self):
        for e in manifest()['entries']:
            if 'canonical' in e:
                kind = json.loads(e['canonical'])['kind']
                if kind != 'batch':
                    self.assertEqual(kind, e['direction'], e['path'])

    def test_wsdl_imports_exist(self):
        m = manifest()
        imports = {i['path'] for i in m['imports']}
        for w in m['wsdls']:
            for i in w.get('imports', []):
                self.assertIn(i, imports, w['path'])


class CountTest(unittest.TestCase):
    def test_issue_41_counts(self):
        m = manifest()
        self.assertGreaterEqual(len(m['entries']), 200)
        distinct = {w['sha256'] for w in m['wsdls']}
        self.assertGreaterEqual(len(distinct), 20)
        stacks = {e['stack'] for e in m['entries']}
        self.assertGreaterEqual(len(stacks), 12)

    def test_every_family_and_outcome_present(self):
        m = manifest()
        self.assertLessEqual({'xmlrpc', 'jsonrpc', 'soap11-rpc-encoded', 'soap11-doc-literal',
                              'soap12-rpc-encoded', 'soap12-doc-literal'},
                             {e['family'] for e in m['entries']})
        self.assertEqual(OUTCOMES, {e['expected'] for e in m['entries']})

    def test_variety_the_issue_names(self):
        blobs = {e['path']: (WILD / e['path']).read_bytes() for e in manifest()['entries']}
        def some(pattern):
            return any(re.search(pattern, b) for b in blobs.values())
        for what, pattern in [('CDATA', rb'<!\[CDATA\['), ('comment', rb'<!--'),
                              ('multiRef/href', rb'href="#'), ('SOAP 1.2 itemType', rb'itemType='),
                              ('fractional seconds', rb'T\d\d:\d\d:\d\d\.\d+'),
                              ('batch', rb'^\s*\[\s*\{'), ('stack trace', rb'\.java:\d+\)'),
                              ('non-ASCII UTF-8', rb'[\xc0-\xf4][\x80-\xbf]')]:
            self.assertTrue(some(pattern), what)


if __name__ == '__main__':
    unittest.main()
