#!/usr/bin/python3
"""Checks corpus/hostile/ (tools/corpusgen's hostile inputs) against parsers the generator did not
use: each file is broken in exactly the way its class says (Expat's error, lxml's, Python's
strict JSON reader), and nothing else is wrong with it.

Run: /usr/bin/python3 tests/corpus/test_corpus_hostile.py [HostileTest]

Split from test_corpus.py (the generated families), whose readers it shares."""

import codecs
import json
import re
import unittest
import xml.parsers.expat

from lxml import etree

from corpus.test_corpus import entries, read

class NonFinite(ValueError):
    pass


class NumberOverflow(ValueError):
    pass


class LoneSurrogate(ValueError):
    pass


class DuplicateKey(ValueError):
    pass


def strict_json(data):
    """json.loads (strict: no control characters in strings) that also rejects invalid UTF-8,
    NaN/Infinity, numbers a double cannot hold, duplicate keys and lone surrogates."""
    def constant(name):
        raise NonFinite(name)

    def number(s):
        f = float(s)
        if f in (float('inf'), float('-inf')):
            raise NumberOverflow(s)
        return f

    def check_str(s):
        if re.search('[\ud800-\udfff]', s):
            raise LoneSurrogate(repr(s))

    def pairs(items):
        keys = [k for k, _ in items]
        if len(set(keys)) != len(keys):
            raise DuplicateKey(keys)
        return dict(items)

    def walk(v):
        if isinstance(v, str):
            check_str(v)
        elif isinstance(v, list):
            for x in v:
                walk(x)
        elif isinstance(v, dict):
            for k, x in v.items():
                check_str(k)
                walk(x)

    value = json.loads(data.decode('utf-8'), strict=True, parse_constant=constant,
                       parse_float=number, object_pairs_hook=pairs)
    walk(value)
    return value


def _expat(name):
    return xml.parsers.expat.errors.codes[getattr(xml.parsers.expat.errors, 'XML_ERROR_' + name)]


# Malformed classes: the expat errors that say what the class says.
EXPECTED_EXPAT_ERRORS = {
    'truncated': {_expat('UNCLOSED_TOKEN'), _expat('NO_ELEMENTS'),
                  _expat('UNCLOSED_CDATA_SECTION')},
    # INVALID_TOKEN: an end tag after the root element (end-tag-after-root).
    'mismatched-tag': {_expat('TAG_MISMATCH'), _expat('INVALID_TOKEN')},
    'invalid-utf8': {_expat('INVALID_TOKEN'), _expat('PARTIAL_CHAR')},
    'undefined-entity': {_expat('UNDEFINED_ENTITY')},
    'invalid-char': {_expat('INVALID_TOKEN'), _expat('BAD_CHAR_REF')},
}
DTD_CLASSES = {'doctype', 'external-entity', 'entity-expansion'}
# Well-formed resource attacks: expat (no depth, length or attribute-count limits) parses them.
RESOURCE_CLASSES = {'deep-nesting', 'large-attribute', 'many-attributes'}
# Where external entities point (docs/corpus.md): nothing may ever read or fetch them.
EXTERNAL_TARGETS = ('file:///etc/hostname', 'http://127.0.0.1:9/')
XML_CHAR = re.compile('[\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]')


def expat_facts(data, final=True):
    """Parses with expat, external entities declined (never loaded) but recorded; returns
    what a file's class is judged by."""
    facts = {'doctype': 0, 'external': [], 'entities': {}, 'depth': 0, 'max_depth': 0,
             'max_attributes': 0, 'max_attribute_bytes': 0, 'text': []}

    def doctype(name, sysid, pubid, has_internal_subset):
        facts['doctype'] += 1
        if sysid:
            facts['external'].append(sysid)

    def external(context, base, sysid, pubid):
        facts['external'].append(sysid)
        return 1  # declined: nothing is read

    def entity(name, is_param, value, base, sysid, pubid, notation):
        facts['entities'][('%' if is_param else '') + name] = value if sysid is None else sysid

    def start(name, attrs):
        facts['depth'] += 1
        facts['max_depth'] = max(facts['max_depth'], facts['depth'])
        facts['max_attributes'] = max(facts['max_attributes'], len(attrs))
        for v in attrs.values():
            facts['max_attribute_bytes'] = max(facts['max_attribute_bytes'], len(v))

    def end(name):
        facts['depth'] -= 1

    p = xml.parsers.expat.ParserCreate()
    p.SetParamEntityParsing(xml.parsers.expat.XML_PARAM_ENTITY_PARSING_ALWAYS)
    p.StartDoctypeDeclHandler = doctype
    p.ExternalEntityRefHandler = external
    p.EntityDeclHandler = entity
    p.StartElementHandler = start
    p.EndElementHandler = end
    p.CharacterDataHandler = facts['text'].append
    p.Parse(data, final)
    facts['parser'] = p
    return facts


def expanded_bytes(data):
    """Bytes the internal entities of the DTD expand to where the document references them
    (computed from the declarations, never by expanding)."""
    subset = data[:data.index(b']>')].decode('utf-8')
    decls = dict(re.findall(r'<!ENTITY\s+(\w+)\s+"([^"]*)"\s*>', subset))
    memo = {}

    def size(name):
        if name not in memo:
            value = decls[name]
            refs = re.findall(r'&(\w+);', value)
            memo[name] = len(re.sub(r'&\w+;', '', value)) + sum(size(r) for r in refs)
        return memo[name]

    body = data[data.index(b']>'):].decode('utf-8')
    return sum(size(r) for r in re.findall(r'&(\w+);', body) if r in decls)


def tag_mismatch(data):
    """True when an end tag does not close the innermost open element (markup that cannot
    hold tags - comments, CDATA, PIs - removed first)."""
    text = re.sub(rb'<!--.*?-->|<!\[CDATA\[.*?\]\]>|<\?.*?\?>', b'', data, flags=re.S)
    stack = []
    for m in re.finditer(rb'<(/?)([^\s/>]+)[^>]*?(/?)>', text):
        if m.group(1):
            if not stack or stack.pop() != m.group(2):
                return True
        elif not m.group(3):
            stack.append(m.group(2))
    return False


class HostileTest(unittest.TestCase):
    def hostile_entries(self, fmt, seen):
        """(entry, bytes, error class) of every hostile file of a format, each class added to
        seen; every entry's note is one line."""
        for e in entries(hostile=True, fmt=fmt):
            seen.add(e['error_class'])
            self.assertTrue(e['note'] and '\n' not in e['note'], e['path'])
            yield e, read(e), e['error_class']

    def test_hostile_xml(self):
        lxml_parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
        seen = set()
        for e, data, cls in self.hostile_entries('xml', seen):
            with self.subTest(path=e['path'], error_class=cls):
                self.check_xml(cls, data, lxml_parser)
        self.assertEqual(seen, set(EXPECTED_EXPAT_ERRORS) | DTD_CLASSES | RESOURCE_CLASSES
                         | {'wrong-encoding', 'processing-instruction'})

    def check_xml(self, cls, data, lxml_parser):
        if cls in DTD_CLASSES:
            # Well-formed, but our policy rejects any DTD in a SOAP/XML-RPC message.
            self.assertEqual(data.count(b'<!DOCTYPE'), 1)
            if cls == 'entity-expansion':
                # Expanding the references would produce at least 1 GB.
                self.assertGreaterEqual(expanded_bytes(data), 10**9)
                with self.assertRaises(xml.parsers.expat.ExpatError) as ctx:
                    expat_facts(data)
                self.assertEqual(ctx.exception.code,
                                 _expat('AMPLIFICATION_LIMIT_BREACH'))
                return
            etree.fromstring(data, lxml_parser)  # well-formed
            facts = expat_facts(data)
            self.assertEqual(facts['doctype'], 1)
            if cls == 'doctype':
                self.assertEqual(facts['external'], [])
                return
            # external-entity: expat meets a reference to an external entity (external DTD
            # subset, parameter or general entity) pointing at one of the watched targets.
            self.assertTrue(facts['external'])
            for uri in facts['external']:
                self.assertTrue(uri.startswith(EXTERNAL_TARGETS), uri)
            return
        self.assertNotIn(b'<!DOCTYPE', data)
        if cls in RESOURCE_CLASSES:
            facts = expat_facts(data)  # well-formed: only its size is hostile
            if cls == 'deep-nesting':
                self.assertGreaterEqual(facts['max_depth'], 100000)
                with self.assertRaises(etree.XMLSyntaxError):  # libxml2: 256 without HUGE
                    etree.fromstring(data, lxml_parser)
            elif cls == 'large-attribute':
                self.assertGreaterEqual(facts['max_attribute_bytes'], 16 * 1024 * 1024)
            else:
                self.assertGreaterEqual(facts['max_attributes'], 100000)
            return
        if cls == 'wrong-encoding':
            self.check_wrong_encoding(data)
            return
        if cls == 'processing-instruction':
            # Well-formed, with a PI that is not first: after a comment, or inside a text.
            root = etree.fromstring(data, lxml_parser)
            pis = [n for n in root.getroottree().getroot().itersiblings(preceding=True)
                   if isinstance(n, etree._ProcessingInstruction)]
            pis += [n for n in root.iter(etree.PI)]
            self.assertEqual(len(pis), 1)
            self.assertTrue(b'-->\n<?app-hint' in data or b'l<?app-hint' in data)
            return
        with self.assertRaises(etree.XMLSyntaxError):
            etree.fromstring(data, lxml_parser)
        if cls == 'truncated':
            # A prefix of a document: expat accepts every byte while more may follow, and
            # fails only when told that the input ends.
            facts = expat_facts(data, final=False)
            with self.assertRaises(xml.parsers.expat.ExpatError) as ctx:
                facts['parser'].Parse(b'', True)
        else:
            with self.assertRaises(xml.parsers.expat.ExpatError) as ctx:
                expat_facts(data)
        self.assertIn(ctx.exception.code,
                      EXPECTED_EXPAT_ERRORS[cls], str(ctx.exception))
        if cls == 'mismatched-tag':
            self.assertTrue(tag_mismatch(data))
        if cls == 'invalid-utf8':
            with self.assertRaises(UnicodeDecodeError):
                data.decode('utf-8')
        if cls == 'invalid-char':
            # Valid UTF-8: the character itself (or the one referenced) is not an XML Char.
            text = data.decode('utf-8')
            refs = [int(h, 16) for h in re.findall(r'&#x([0-9A-Fa-f]+);', text)]
            refs += [int(d) for d in re.findall(r'&#([0-9]+);', text)]
            bad = [c for c in text if not XML_CHAR.fullmatch(c)]
            bad += [n for n in refs if n > 0x10ffff or not XML_CHAR.fullmatch(chr(n))]
            self.assertTrue(bad)

    def check_wrong_encoding(self, data):
        # The declaration names one encoding, the bytes are in another (with non-ASCII text).
        if data.startswith((b'\xff\xfe', b'\xfe\xff')):
            actual, text = 'utf-16', data.decode('utf-16')
        else:
            actual, text = 'utf-8', data.decode('utf-8')
        self.assertTrue(any(ord(c) > 127 for c in text))
        declared = re.match(r'<\?xml[^>]*encoding=["\']([^"\']+)', text.lstrip('\ufeff')).group(1)
        self.assertNotEqual(codecs.lookup(declared).name, codecs.lookup(actual).name)
        try:
            facts = expat_facts(data)
        except xml.parsers.expat.ExpatError as err:
            self.assertEqual(err.code, _expat('INCORRECT_ENCODING'))
            return
        # Read as declared (well-formed in that encoding): the text is not what was written.
        self.assertEqual(actual, 'utf-8')
        truthful = data.replace(('encoding="%s"' % declared).encode(), b'encoding="UTF-8"', 1)
        self.assertNotEqual(''.join(facts['text']), ''.join(expat_facts(truthful)['text']))

    def test_hostile_json(self):
        expected = {'trailing-comma': json.JSONDecodeError, 'nan': NonFinite,
                    'number-overflow': NumberOverflow, 'lone-surrogate': LoneSurrogate,
                    'deep-nesting': RecursionError, 'duplicate-key': DuplicateKey,
                    'invalid-escape': json.JSONDecodeError, 'control-char': json.JSONDecodeError,
                    'invalid-utf8': UnicodeDecodeError, 'truncated': json.JSONDecodeError,
                    'bom': json.JSONDecodeError, 'number-edge': None, 'many-members': None,
                    'trailing-content': json.JSONDecodeError}
        seen = set()
        for e, data, cls in self.hostile_entries('json', seen):
            with self.subTest(path=e['path'], error_class=cls):
                if cls == 'many-members':
                    # Valid JSON: one object holding more members than Limits::max_members.
                    person = strict_json(data)['params'][0][0]
                    self.assertGreater(len(person), 100000)
                    continue
                if expected[cls] is None:
                    # Valid JSON even to the strict reader: zeros whose exponents are large.
                    doubles = strict_json(data)['params'][0]
                    self.assertEqual(doubles[0], 1.5)
                    self.assertTrue(doubles[1:] and all(d == 0.0 for d in doubles[1:]))
                    self.assertEqual(str(doubles[1]), '-0.0')
                    continue
                with self.assertRaises(expected[cls]) as ctx:
                    strict_json(data)
                self.check_json(cls, data, ctx.exception)
        self.assertEqual(seen, set(expected))

    def check_json(self, cls, data, err):
        if cls == 'trailing-comma':
            # Without the trailing comma the message is valid: that comma is the error.
            strict_json(re.sub(rb',(\s*[\]}])', rb'\1', data))
        elif cls == 'deep-nesting':
            self.assertGreaterEqual(max(data.count(b'['), data.count(b'{')), 100000)
        elif cls in ('duplicate-key', 'number-overflow', 'lone-surrogate', 'nan'):
            # Grammatically valid JSON (nan: Python's json accepts the literals) that a strict
            # reader refuses for its meaning: a fact to record, not a syntax error.
            json.loads(data)
        elif cls == 'invalid-escape':
            self.assertIn('escape', err.msg)
        elif cls == 'control-char':
            self.assertEqual(err.msg, 'Invalid control character at')
        elif cls == 'trailing-content':
            # Python's decoder reads one value and reports the rest: "Extra data".
            self.assertEqual(err.msg, 'Extra data')
        elif cls == 'bom':
            self.assertTrue(data.startswith(b'\xef\xbb\xbf'))
            strict_json(data[3:])
        elif cls == 'truncated':
            # The decoder fails at the end of the input, or in a last token (string, escape,
            # literal) that runs to the end.
            text = data.decode('utf-8')
            tail = text[err.pos:]
            at_end = err.pos >= len(text.rstrip())
            open_token = (err.msg == 'Unterminated string starting at'
                          or (err.msg == 'Invalid \\uXXXX escape' and '"' not in tail)
                          or any(lit.startswith(tail) for lit in ('true', 'false', 'null')))
            self.assertTrue(at_end or open_token, '%s at %d' % (err.msg, err.pos))


if __name__ == '__main__':
    unittest.main(verbosity=2)
