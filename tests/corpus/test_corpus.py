#!/usr/bin/python3
"""Checks corpus/ against the generator and against parsers the generator did not use.

Run: /usr/bin/python3 tests/corpus/test_corpus.py [ReproduceTest|IndependenceTest]
(the hostile inputs: test_corpus_hostile.py)

The contract below is a second, independent transcription of docs/service.md: the decoders
here must not share code with tools/corpusgen, or a shared mistake would go unnoticed."""

import base64
import gzip
import hashlib
import json
import struct
import subprocess
import tempfile
import unittest
import xml.parsers.expat
import xmlrpc.client
from pathlib import Path

import xxhash
from lxml import etree

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / 'corpus'
GENERATOR = REPO / 'tools' / 'corpusgen'
FAMILIES = ['xmlrpc', 'soap11-rpc-encoded', 'soap11-rpc-literal', 'soap11-doc-literal',
            'soap12-doc-literal', 'jsonrpc']
OWNED = FAMILIES + ['hostile', 'manifest.json']  # what the generator writes in corpus/
MAX_DISK_BYTES = 40 * 1000 * 1000

# ------------------------------------------------------------------ contract (docs/service.md)

STRUCTS = {
    'Person': ['id:int', 'name:string', 'weight:double', 'birthdate:dateTime',
               'children:Person[]'],
    # complex's parameter: a birthdate may be a dateTime or a string (the classic client's).
    'PersonIn': ['id:int', 'name:string', 'weight:double', 'birthdate:dateTimeOrString',
                 'children:PersonIn[]'],
    'Document': ['e1:Paragraph', 'e2:Paragraph', 'e3:Paragraph', 'e4:Paragraph',
                 'e5:Paragraph'],
    'Paragraph': ['words:string'],
    'ChainStep': ['step:int', 'name:string', 'host:string', 'start:dateTime',
                  'duration:double', 'status:string', 'args:string[]'],
}
STRUCTS = {k: [tuple(m.split(':')) for m in v] for k, v in STRUCTS.items()}
# name: ([param:type], result type)
OPS = {
    'add': (['a:int', 'b:int'], 'int'),
    'concat': (['s1:string', 's2:string', 's3:string'], 'string'),
    'echoArray': (['a:int[]', 'b:int[]'], 'int[]'),
    'boolean': ([], 'bool'),
    'now': ([], 'dateTime'),
    'complex': (['obj:PersonIn[]'], 'Person[]'),
    'fail': ([], 'fault'),
    'getRate': (['country1:string', 'country2:string'], 'double'),
    'respond': (['wordcount:int', 'delay:int'], 'Document'),
    'sendString': (['s:string'], 'void'),
    'receiveString': (['length:int'], 'string'),
    'sendInt': (['i:int'], 'void'),
    'getChain': ([], 'ChainStep[]'),
    'echoInts': (['values:int[]'], 'int[]'),
    'echoDoubles': (['values:double[]'], 'double[]'),
    'echoStrings': (['values:string[]'], 'string[]'),
    'echoBase64': (['data:base64'], 'base64'),
}
OPS = {k: ([tuple(p.split(':')) for p in ps], r) for k, (ps, r) in OPS.items()}


def op_namespace(op):
    return 'urn:demo1:exchange' if op == 'getRate' else 'urn:soapbench'


SOAP_ENV = {'soap11-rpc-encoded': 'http://schemas.xmlsoap.org/soap/envelope/',
            'soap11-rpc-literal': 'http://schemas.xmlsoap.org/soap/envelope/',
            'soap11-doc-literal': 'http://schemas.xmlsoap.org/soap/envelope/',
            'soap12-doc-literal': 'http://www.w3.org/2003/05/soap-envelope'}
XSD_LOCAL = {'int': 'int', 'double': 'double', 'bool': 'boolean', 'string': 'string',
             'dateTime': 'dateTime', 'base64': 'base64Binary'}
XSI_NAMESPACES = ('http://www.w3.org/2001/XMLSchema-instance',
                  'http://www.w3.org/1999/XMLSchema-instance')


def dumps_canonical(obj):
    return json.dumps(obj, ensure_ascii=False, separators=(',', ':'))


def b64_canonical(text):
    return base64.b64encode(base64.b64decode(text.encode('ascii'), validate=False)).decode()


# ------------------------------------------------------------------ corpus access

def manifest():
    if not hasattr(manifest, 'cache'):
        manifest.cache = json.loads((CORPUS / 'manifest.json').read_text('utf-8'))
    return manifest.cache


def entries(hostile=False, family=None, fmt=None):
    for e in manifest()['entries']:
        if bool(e.get('hostile')) != hostile:
            continue
        if family is not None and e.get('family') != family:
            continue
        if fmt is not None and e['format'] != fmt:
            continue
        yield e


def read(entry):
    data = (CORPUS / entry['path']).read_bytes()
    return gzip.decompress(data) if entry['path'].endswith('.gz') else data


def check_canonical(test, entry, obj):
    line = dumps_canonical(obj)
    if 'canonical' in entry:
        test.assertEqual(line, entry['canonical'], entry['path'])
    else:
        raw = line.encode('utf-8')
        test.assertEqual(len(raw), entry['canonical_bytes'], entry['path'])
        test.assertEqual(hashlib.sha256(raw).hexdigest(), entry['canonical_sha256'],
                         entry['path'])


def message(entry, kind_value):
    """Canonical message object for a decoded call params list / response result / fault."""
    d = entry['direction']
    if d == 'call':
        return {'kind': 'call', 'method': entry['operation'], 'params': kind_value}
    if d == 'response':
        return {'kind': 'response', 'method': entry['operation'], 'result': kind_value}
    code, msg = kind_value
    return {'kind': 'fault', 'code': code, 'message': msg}


# ------------------------------------------------------------------ digests (docs/corpus.md)

def xxh3_hex(data):
    return xxhash.xxh3_64_hexdigest(data)  # XXH3 64, seed 0, 16 lowercase hex digits


def expat_digest(data):
    """XML Digest recomputed from expat's events (no namespace processing: qnames as
    written; comments and PIs have no handler, so they are ignored)."""
    buf = bytearray()
    run = []
    st = {'elements': 0, 'attributes': 0, 'text_bytes': 0, 'depth': 0}

    def flush():
        if not run:
            return
        s = ''.join(run)
        run.clear()
        if s.strip(' \t\r\n'):
            b = s.encode('utf-8')
            buf.extend(b'T' + b + b'\0')
            st['text_bytes'] += len(b)

    def start(name, attrs):
        flush()
        st['depth'] += 1
        st['elements'] += 1
        buf.extend(b'S' + name.encode('utf-8') + b'\0')
        items = sorted((k.encode('utf-8'), v) for k, v in attrs.items()
                       if k != 'xmlns' and not k.startswith('xmlns:'))
        for k, v in items:
            buf.extend(b'A' + k + b'\0' + v.encode('utf-8') + b'\0')
        st['attributes'] += len(items)

    def end(name):
        flush()
        buf.extend(b'E' + name.encode('utf-8') + b'\0')
        st['depth'] -= 1

    def chars(s):
        if st['depth'] > 0:
            run.append(s)

    p = xml.parsers.expat.ParserCreate()
    p.buffer_text = True
    p.buffer_size = 1 << 20
    p.StartElementHandler = start
    p.EndElementHandler = end
    p.CharacterDataHandler = chars
    p.Parse(data, True)
    return {'elements': st['elements'], 'attributes': st['attributes'],
            'text_bytes': st['text_bytes'], 'hash': xxh3_hex(buf)}


class Pairs(list):
    """A JSON object as its (key, value) pairs, so order and duplicates survive."""


def json_digest(value):
    buf = bytearray()
    c = {'objects': 0, 'arrays': 0, 'keys': 0, 'strings': 0, 'numbers': 0, 'string_bytes': 0}

    def walk(v):
        if v is None or v is True or v is False:
            buf.extend({None: b'n', True: b't', False: b'f'}[v])
        elif isinstance(v, str):
            b = v.encode('utf-8')
            c['strings'] += 1
            c['string_bytes'] += len(b)
            buf.extend(b'S' + b + b'\0')
        elif isinstance(v, int):
            c['numbers'] += 1
            buf.extend(b'I' + struct.pack('<q', v))
        elif isinstance(v, float):
            c['numbers'] += 1
            buf.extend(b'D' + struct.pack('<d', v))
        elif isinstance(v, list) and not isinstance(v, Pairs):
            c['arrays'] += 1
            buf.extend(b'[')
            for x in v:
                walk(x)
            buf.extend(b']')
        else:
            c['objects'] += 1
            buf.extend(b'{')
            for k, x in v:
                b = k.encode('utf-8')
                c['keys'] += 1
                c['string_bytes'] += len(b)
                buf.extend(b'K' + b + b'\0')
                walk(x)
            buf.extend(b'}')

    walk(value)
    c['hash'] = xxh3_hex(buf)
    return c


# ------------------------------------------------------------------ typed decoding

def typed_json(v, t):
    """A JSON-RPC value typed by the contract -> canonical JSON value."""
    if t.endswith('[]'):
        return [typed_json(x, t[:-2]) for x in v]
    if t in STRUCTS:
        assert list(v) == [m for m, _ in STRUCTS[t]], (t, list(v))
        return {m: typed_json(v[m], mt) for m, mt in STRUCTS[t]}
    if t == 'dateTime':
        return {'$dateTime': v}
    if t == 'base64':
        return {'$base64': b64_canonical(v)}
    expected = {'int': int, 'double': float, 'bool': bool, 'string': str,
                'dateTimeOrString': str}[t]
    assert type(v) is expected, (t, v)
    return v


def plain_xmlrpc(v):
    """An xmlrpc.client value -> canonical JSON value (XML-RPC values carry their type)."""
    if isinstance(v, xmlrpc.client.DateTime):
        s = v.value
        return {'$dateTime': '%s-%s-%sT%s' % (s[0:4], s[4:6], s[6:8], s[9:])}
    if isinstance(v, xmlrpc.client.Binary):
        return {'$base64': base64.b64encode(v.data).decode()}
    if isinstance(v, list):
        return [plain_xmlrpc(x) for x in v]
    if isinstance(v, dict):
        return {k: plain_xmlrpc(x) for k, x in v.items()}
    return v


def local(e):
    return etree.QName(e).localname


def children(e):
    return [c for c in e if isinstance(c.tag, str)]


class SoapDecoder:
    """Decodes a SOAP message with lxml, typed by the contract (href/id resolved)."""

    def __init__(self, test, family, entry, root):
        self.test = test
        self.family = family
        self.entry = entry
        self.encoded = family == 'soap11-rpc-encoded'
        self.doc = family.endswith('doc-literal')
        self.ids = {}
        self.root = root

    def check(self, cond, what):
        self.test.assertTrue(cond, '%s: %s' % (self.entry['path'], what))

    def child_ns(self):
        return op_namespace(self.entry['operation']) if self.doc else None

    def deref(self, e):
        href = e.get('href')
        if href is None:
            return e
        self.check(self.encoded and href.startswith('#'), 'href ' + href)
        self.check(not children(e) and not (e.text or '').strip(), 'href element has content')
        return self.ids[href[1:]]

    def xsi_type(self, e):
        for ns in XSI_NAMESPACES:
            v = e.get('{%s}type' % ns)
            if v is not None:
                return v.split(':')[-1]
        return None

    def value(self, e, t):
        e = self.deref(e)
        if self.encoded:
            # A dateTimeOrString value names the built-in type it was sent as.
            want = ('Array' if t.endswith('[]') else t if t in STRUCTS else
                    ('dateTime', 'string') if t == 'dateTimeOrString' else (XSD_LOCAL[t],))
            self.check(self.xsi_type(e) in ((want,) if isinstance(want, str) else want),
                       'xsi:type %s for %s' % (self.xsi_type(e), t))
        else:
            self.check(self.xsi_type(e) is None, 'xsi:type in a literal message')
        if t.endswith('[]'):
            items = children(e)
            for c in items:
                self.check(local(c) == 'item' and etree.QName(c).namespace == self.child_ns(),
                           'array item ' + c.tag)
            return [self.value(c, t[:-2]) for c in items]
        if t in STRUCTS:
            members = children(e)
            names = [local(c) for c in members]
            self.check(names == [m for m, _ in STRUCTS[t]], '%s members %s' % (t, names))
            for c in members:
                self.check(etree.QName(c).namespace == self.child_ns(), 'member ns ' + c.tag)
            return {local(c): self.value(c, mt) for c, (_, mt) in zip(members, STRUCTS[t])}
        self.check(not children(e), 'scalar with element children')
        text = e.text or ''
        if t == 'int':
            return int(text)
        if t == 'double':
            return float(text)
        if t == 'bool':
            self.check(text in ('true', 'false', '1', '0'), 'boolean ' + text)
            return text in ('true', '1')
        if t in ('string', 'dateTimeOrString'):  # the contract reads the latter as its text
            return text
        if t == 'dateTime':
            return {'$dateTime': text}
        if t == 'base64':
            return {'$base64': b64_canonical(text)}
        raise AssertionError(t)

    def decode(self):
        env_ns = SOAP_ENV[self.family]
        root = self.root
        self.check(root.tag == '{%s}Envelope' % env_ns, 'root ' + root.tag)
        body = [c for c in children(root) if c.tag == '{%s}Body' % env_ns]
        self.check(len(body) == 1, 'one Body')
        parts = children(body[0])
        for e in body[0].iter():
            if isinstance(e.tag, str) and e.get('id') is not None:
                self.ids[e.get('id')] = e
        op_el = parts[0]
        if self.entry['direction'] == 'fault':
            return self.fault(op_el, env_ns)
        self.check(len(parts) == 1 or self.encoded, 'extra Body children')
        op = self.entry['operation']
        name = op if self.entry['direction'] == 'call' else op + 'Response'
        self.check(local(op_el) == name, 'operation element %s' % op_el.tag)
        self.check(etree.QName(op_el).namespace == op_namespace(op), 'operation namespace')
        if self.encoded:
            self.check(op_el.get('{%s}encodingStyle' % env_ns) ==
                       'http://schemas.xmlsoap.org/soap/encoding/', 'encodingStyle')
        params, result = OPS[op]
        kids = children(op_el)
        for c in kids:
            self.check(etree.QName(c).namespace == self.child_ns(), 'param ns ' + c.tag)
        if self.entry['direction'] == 'call':
            self.check([local(c) for c in kids] == [n for n, _ in params][:len(kids)],
                       'param names')
            return [self.value(c, t) for c, (_, t) in zip(kids, params)]
        if result == 'void':
            self.check(not kids, 'void response with children')
            return None
        self.check([local(c) for c in kids] == ['return'], 'response child')
        return self.value(kids[0], result)

    def fault(self, f, env_ns):
        self.check(f.tag == '{%s}Fault' % env_ns, 'Fault element')
        if self.family == 'soap12-doc-literal':
            e = '{%s}' % env_ns
            self.check(f.find('%sCode/%sValue' % (e, e)).text.endswith(':Receiver'), 'Value')
            message = f.find('%sReason/%sText' % (e, e)).text
            detail = f.find(e + 'Detail')
        else:
            self.check(f.find('faultcode').text.endswith(':Server'), 'faultcode')
            message = f.find('faultstring').text
            detail = f.find('detail')
        code = detail.find('{urn:soapbench}fault/code')
        return int(code.text), message


# ------------------------------------------------------------------ tests

class ReproduceTest(unittest.TestCase):
    def test_regenerates_byte_identical(self):
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run(['/usr/bin/python3', str(GENERATOR), '--out', tmp, '--quiet'],
                           check=True, stdout=subprocess.DEVNULL)
            fresh = owned_files(Path(tmp))
            committed = owned_files(CORPUS)
            self.assertEqual(sorted(fresh), sorted(committed), 'file lists differ')
            differ = [rel for rel in sorted(fresh)
                      if (Path(tmp) / rel).read_bytes() != (CORPUS / rel).read_bytes()]
            self.assertEqual(differ, [], 'files differ from a fresh run')


def owned_files(root):
    out = []
    for name in OWNED:
        p = root / name
        if p.is_file():
            out.append(name)
        elif p.is_dir():
            out += [str(f.relative_to(root)) for f in p.rglob('*') if f.is_file()]
    return out


class IndependenceTest(unittest.TestCase):
    def test_manifest_files_and_size(self):
        m = manifest()
        self.assertEqual(m['version'], 1)
        paths = [e['path'] for e in m['entries']]
        self.assertEqual(paths, sorted(paths))
        listed = set(paths) | {'manifest.json'}
        self.assertEqual(sorted(set(owned_files(CORPUS)) - listed), [], 'files not in manifest')
        for e in m['entries']:
            data = read(e)
            self.assertEqual(len(data), e['bytes'], e['path'])
            self.assertEqual(e['path'].endswith('.gz'), e['bytes'] >= 512 * 1024, e['path'])
            if not e.get('hostile'):
                name = '%s/%s%s.%s.%s' % (e['family'], e['operation'],
                                          '.' + e['tag'] if e['tag'] else '', e['direction'],
                                          e['format'])
                self.assertEqual(e['path'].removesuffix('.gz'), name)
        disk = sum((CORPUS / rel).stat().st_size for rel in owned_files(CORPUS))
        self.assertLessEqual(disk, MAX_DISK_BYTES, 'corpus on disk: %d bytes' % disk)

    def test_xml_rules(self):
        for e in entries(fmt='xml'):
            data = read(e)
            self.assertNotIn(b'\r', data, e['path'])
            self.assertNotIn(b'<!DOCTYPE', data, e['path'])
            if e['tag'] == 'comments':
                # A PI only in XML-RPC: SOAP forbids them (its PI files are hostile ones).
                self.assertIn(b'<!--', data)
                self.assertEqual(data.count(b'<?'), 2 if e['family'] == 'xmlrpc' else 1)
            else:
                self.assertNotIn(b'<!--', data, e['path'])
                self.assertEqual(data.count(b'<?'), 1 if data.startswith(b'<?xml ') else 0,
                                 e['path'])

    def test_xml_digest_by_expat(self):
        for e in entries(fmt='xml'):
            self.assertEqual(expat_digest(read(e)), e['digest'], e['path'])

    def test_json_digest(self):
        for e in entries(fmt='json'):
            value = json.loads(read(e), object_pairs_hook=Pairs)
            self.assertEqual(json_digest(value), e['digest'], e['path'])

    def test_xmlrpc_by_xmlrpc_client(self):
        for e in entries(family='xmlrpc'):
            try:
                params, method = xmlrpc.client.loads(read(e), use_builtin_types=False)
            except xmlrpc.client.Fault as f:
                self.assertEqual(e['direction'], 'fault', e['path'])
                check_canonical(self, e, message(e, (f.faultCode, f.faultString)))
                continue
            if e['direction'] == 'call':
                self.assertEqual(method, e['operation'], e['path'])
                obj = message(e, [plain_xmlrpc(p) for p in params])
            else:
                self.assertIsNone(method, e['path'])
                self.assertEqual(len(params), 1, e['path'])
                obj = message(e, plain_xmlrpc(params[0]))
            check_canonical(self, e, obj)

    def test_jsonrpc_by_json(self):
        for e in entries(family='jsonrpc'):
            msg = json.loads(read(e))
            self.assertEqual(msg['jsonrpc'], '2.0', e['path'])
            params, result = OPS[e['operation']]
            if e['direction'] == 'call':
                self.assertEqual(msg['method'], e['operation'], e['path'])
                self.assertLessEqual(len(msg['params']), len(params), e['path'])
                obj = message(e, [typed_json(v, t) for v, (_, t) in zip(msg['params'], params)])
            elif e['direction'] == 'response':
                obj = message(e, None if result == 'void' else typed_json(msg['result'], result))
            else:
                obj = message(e, (msg['error']['code'], msg['error']['message']))
            check_canonical(self, e, obj)

    def test_soap_by_lxml(self):
        parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)
        for family in SOAP_ENV:
            for e in entries(family=family):
                root = etree.fromstring(read(e), parser)
                obj = message(e, SoapDecoder(self, family, e, root).decode())
                check_canonical(self, e, obj)

    def test_seed_set_complete(self):
        seeds = {(e['family'], e['operation'], e['direction'])
                 for e in entries() if 'seed' in e['sets']}
        for family in FAMILIES:
            for op in OPS:
                for d in ('call', 'fault' if op == 'fail' else 'response'):
                    self.assertIn((family, op, d), seeds)

    def test_classic_get_rate(self):
        data = (CORPUS / 'soap11-rpc-encoded/getRate.call.xml').read_bytes()
        self.assertTrue(data.startswith(b"<?xml version='1.0' encoding='UTF-8'?>\n"))
        for s in (b'xmlns:xsi="http://www.w3.org/1999/XMLSchema-instance"',
                  b'xmlns:xsd="http://www.w3.org/1999/XMLSchema"',
                  b'<ns1:getRate xmlns:ns1="urn:demo1:exchange" SOAP-ENV:encodingStyle=',
                  b'      <country1 xsi:type="xsd:string">USA</country1>\n',
                  b'      <country2 xsi:type="xsd:string">japan</country2>\n'):
            self.assertIn(s, data)


if __name__ == '__main__':
    unittest.main(verbosity=2)
