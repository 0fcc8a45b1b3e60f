#!/usr/bin/python3
"""`soapbench serve` judged by clients we did not write.

Usage: /usr/bin/python3 tests/interop/test_interop.py PATH/TO/soapbench   (or env SOAPBENCH_EXE)

- Python's xmlrpc.client calls every XML-RPC operation of the contract and checks every result
  (getChain against the corpus manifest's canonical JSON hash);
- zeep builds its client from the WSDL the server publishes (GET /soap?wsdl) and calls getRate,
  add, complex and fail through every port, SOAP 1.1 and 1.2 (port names read from the WSDL);
- curl posts JSON-RPC calls (add, concat, fail, an unknown method, a malformed body) and the
  answers are checked as JSON;
- the JSON-RPC vs XML-RPC comparison's client calls, as that test script makes them (add,
  concat, boolean, now, complex with birthdates as str(datetime), fail), through xmlrpc.client
  and through a plain JSON-RPC client (urllib), every answer checked.
One server (`soapbench serve --port 0`) runs for the whole module and is always stopped at the
end. Traffic goes to 127.0.0.1 only: zeep uses its default transport (environment proxies off),
so a fetch beyond the server (such as the SOAP-ENC namespace URI) fails the test.
"""

import base64
import datetime
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import unittest
import urllib.request
import xmlrpc.client

import zeep
from lxml import etree

SOURCE_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
CORPUS_DIR = os.path.join(SOURCE_DIR, 'corpus')
sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
from wsdl.test_wsdl import NS_WSDL, offline_transport, start_server, stop_server  # noqa: E402

EXE = os.environ.get('SOAPBENCH_EXE')
STATE = {}  # proc, base_url, stderr file


def setUpModule():
    if not EXE:
        raise unittest.SkipTest('no soapbench executable (argv[1] or SOAPBENCH_EXE)')
    stderr = tempfile.TemporaryFile()
    STATE['stderr'] = stderr
    proc, base = start_server(EXE, stderr)
    STATE.update(proc=proc, base=base)


def tearDownModule():
    if 'proc' in STATE:
        stop_server(STATE['proc'])
    if 'stderr' in STATE:
        STATE['stderr'].close()


def base_url():
    return STATE['base']


# ------------------------------------------------------------------ canonical JSON (docs/service.md)

def canonical(value):
    """A value from xmlrpc.client (builtin types) as the canonical JSON structure."""
    if isinstance(value, datetime.datetime):
        return {'$dateTime': value.strftime('%Y-%m-%dT%H:%M:%S')}
    if isinstance(value, (bytes, bytearray)):
        return {'$base64': base64.b64encode(bytes(value)).decode('ascii')}
    if isinstance(value, list):
        return [canonical(v) for v in value]
    if isinstance(value, dict):
        return {k: canonical(v) for k, v in value.items()}
    return value


def manifest_entry(path):
    with open(os.path.join(CORPUS_DIR, 'manifest.json'), encoding='utf-8') as f:
        for e in json.load(f)['entries']:
            if e['path'] == path:
                return e
    raise AssertionError('no manifest entry ' + path)


PEOPLE = [{'id': 1, 'name': 'Ann <&>', 'weight': 61.5,
           'birthdate': datetime.datetime(1990, 1, 2, 3, 4, 5),
           'children': [{'id': 2, 'name': 'Bo', 'weight': 3.25,
                         'birthdate': datetime.datetime(2020, 5, 6, 7, 8, 9), 'children': []}]}]


# ------------------------------------------------------------------ XML-RPC: xmlrpc.client

class XmlRpcTest(unittest.TestCase):
    """Every operation of the contract through Python's standard XML-RPC client."""

    def setUp(self):
        self.proxy = xmlrpc.client.ServerProxy(base_url() + '/RPC2', allow_none=True,
                                               use_builtin_types=True)

    def tearDown(self):
        self.proxy('close')()

    def test_add(self):
        self.assertEqual(self.proxy.add(2, 3), 5)
        self.assertEqual(self.proxy.add(-2147483648, 2147483647), -1)

    def test_concat(self):
        self.assertEqual(self.proxy.concat('a', 'b'), 'ab')
        self.assertEqual(self.proxy.concat('<&>', ' é ', '"\''), '<&> é "\'')

    def test_echoArray(self):
        self.assertEqual(self.proxy.echoArray([1, 2], [3]), [1, 2, 3])
        self.assertEqual(self.proxy.echoArray([], []), [])

    def test_boolean(self):
        self.assertIs(self.proxy.boolean(), True)

    def test_now(self):
        now = self.proxy.now()
        self.assertIsInstance(now, datetime.datetime)
        utc = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
        self.assertLess(abs((now - utc).total_seconds()), 120)

    def test_complex(self):
        self.assertEqual(self.proxy.complex(PEOPLE), PEOPLE)

    def test_fail(self):
        with self.assertRaises(xmlrpc.client.Fault) as cm:
            self.proxy.fail()
        self.assertEqual(cm.exception.faultCode, 4)
        self.assertEqual(cm.exception.faultString, 'division by zero')

    def test_getRate(self):
        self.assertEqual(self.proxy.getRate('USA', 'Japan'), 1.25)
        self.assertEqual(self.proxy.getRate('usa', 'UK'), 0.79)

    def test_respond(self):
        doc = self.proxy.respond(23, 0)
        self.assertEqual(list(doc), ['e1', 'e2', 'e3', 'e4', 'e5'])
        counts = [len(doc[k]['words'].split()) for k in doc]
        self.assertEqual(counts, [5, 5, 5, 4, 4])
        self.assertEqual(self.proxy.respond(23, 0), doc)  # fixed seed: the same words

    def test_sendString(self):
        self.assertIsNone(self.proxy.sendString('hello'))

    def test_receiveString(self):
        self.assertEqual(self.proxy.receiveString(30), 'abcdefghijklmnopqrstuvwxyzabcd')
        self.assertEqual(self.proxy.receiveString(0), '')

    def test_sendInt(self):
        self.assertIsNone(self.proxy.sendInt(7))

    def test_getChain(self):
        chain = self.proxy.getChain()
        expected = manifest_entry('xmlrpc/getChain.response.xml')
        line = json.dumps({'kind': 'response', 'method': 'getChain', 'result': canonical(chain)},
                          ensure_ascii=False, separators=(',', ':'))
        if 'canonical' in expected:
            self.assertEqual(line, expected['canonical'])
        else:
            self.assertEqual(hashlib.sha256(line.encode('utf-8')).hexdigest(),
                             expected['canonical_sha256'])

    def test_echoInts(self):
        values = [0, 1, -1, 2147483647, -2147483648]
        self.assertEqual(self.proxy.echoInts(values), values)

    def test_echoDoubles(self):
        values = [1.5, -0.25, 1e300, 0.1, 5e-324]
        self.assertEqual(self.proxy.echoDoubles(values), values)

    def test_echoStrings(self):
        values = ['', 'a', '<tag>&amp;', 'ünïcødé ✓', 'tab\tnew\nline']
        self.assertEqual(self.proxy.echoStrings(values), values)

    def test_echoBase64(self):
        data = bytes(range(256)) * 3
        self.assertEqual(self.proxy.echoBase64(data), data)

    def test_unknown_method(self):
        with self.assertRaises(xmlrpc.client.Fault) as cm:
            self.proxy.noSuchMethod()
        self.assertEqual(cm.exception.faultCode, -32601)

    def test_every_operation_is_covered(self):
        # The independent contract copy lists the operations; each needs a test_<name> here.
        from sbtools.corpusgen import contract
        missing = [n for n in contract.OPERATIONS if not hasattr(self, 'test_' + n)]
        self.assertEqual(missing, [])


# ------------------------------------------------------------------ SOAP: zeep from our WSDL

def unwrap(value):
    """zeep's objects as plain data: ArrayOf* wrappers ({'item': [...]}) become lists. zeep reads
    an empty wrapper element (<children/>, as the server writes an empty array) as None."""
    if isinstance(value, dict):
        if set(value) == {'item'}:
            return [unwrap(v) for v in (value['item'] or [])]
        return {k: [] if k == 'children' and v is None else unwrap(v) for k, v in value.items()}
    if isinstance(value, list):
        return [unwrap(v) for v in value]
    return value


def wrap_people(people):
    """PEOPLE in zeep's input shape: arrays as {'item': [...]}."""
    return {'item': [dict(p, children=wrap_people(p['children'])) for p in people]}


class SoapZeepTest(unittest.TestCase):
    """zeep reads GET /soap?wsdl and calls through each port it names."""

    @classmethod
    def setUpClass(cls):
        cls.fetched = []
        transport = offline_transport(cls.fetched)
        cls.client = zeep.Client(wsdl=base_url() + '/soap?wsdl', transport=transport)
        # From the WSDL itself: port name -> (SOAP version, whether its binding is rpc/encoded).
        wsdl = etree.fromstring(transport.load(base_url() + '/soap?wsdl'))
        encoded = set()
        for binding in wsdl.iter('{%s}binding' % NS_WSDL):
            if any(b.get('use') == 'encoded' for b in binding.iter() if b.tag.endswith('}body')):
                encoded.add(binding.get('name'))
        cls.ports = {}
        for name, port in cls.client.wsdl.services['SoapBenchService'].ports.items():
            version = '1.2' if type(port.binding).__name__ == 'Soap12Binding' else '1.1'
            cls.ports[name] = (version, port.binding.name.localname in encoded)
        cls.transport = transport

    @classmethod
    def tearDownClass(cls):
        # requests keeps connections alive: close them before the module stops the server (an idle
        # keep-alive session can deadlock RpcServer::stop, reported to the server's owner).
        cls.transport.session.close()

    def test_everything_fetched_from_the_server(self):
        # The WSDL, what it imports (SOAP-ENC) and the calls: nothing from the internet.
        self.assertTrue(self.fetched)
        for url in self.fetched:
            self.assertTrue(url.startswith(base_url() + '/soap'), url)

    def test_both_soap_versions_are_offered(self):
        versions = {version for version, _ in self.ports.values()}
        self.assertEqual(versions, {'1.1', '1.2'})

    def services(self, literal_only=False):
        """(port name, zeep service proxy) for every port (literal ones only on request)."""
        return [(name, self.client.bind('SoapBenchService', name))
                for name, (_, encoded) in self.ports.items()
                if not (literal_only and encoded)]

    def test_getRate(self):
        for name, service in self.services():
            with self.subTest(port=name):
                self.assertEqual(service.getRate(country1='USA', country2='Japan'), 1.25)

    def test_add(self):
        for name, service in self.services():
            with self.subTest(port=name):
                self.assertEqual(service.add(a=2, b=3), 5)
                self.assertEqual(service.add(a=-7, b=7), 0)

    def test_complex(self):
        # zeep 4.2.1 cannot build `complex` for rpc/encoded (its SOAP-ENC array model needs an
        # item in every array; tests/wsdl/test_wsdl.py says the same): literal ports only, which
        # include SOAP 1.1 and 1.2.
        for name, service in self.services(literal_only=True):
            with self.subTest(port=name):
                result = service.complex(obj=wrap_people(PEOPLE))
                self.assertEqual(unwrap(zeep.helpers.serialize_object(result, dict)), PEOPLE)
                # Birthdates as text, the classic client's way: the answer has dateTimes.
                result = service.complex(obj=wrap_people(classic_people(PEOPLE)))
                self.assertEqual(unwrap(zeep.helpers.serialize_object(result, dict)), PEOPLE)

    def test_fail(self):
        for name, service in self.services():
            with self.subTest(port=name):
                with self.assertRaises(zeep.exceptions.Fault) as cm:
                    service.fail()
                self.assertEqual(cm.exception.message, 'division by zero')


# ------------------------------------------------------------------ the classic comparison's client

def classic_people(people):
    """people with each birthdate as str(datetime), as the JSON-RPC vs XML-RPC comparison's
    client sends them to `complex` ('1990-01-02 03:04:05')."""
    return [dict(p, birthdate=str(p['birthdate']), children=classic_people(p['children']))
            for p in people]


# The comparison's people: its test script builds them with str(datetime.datetime(...)).
CLASSIC_PEOPLE = [
    {'id': 1, 'name': 'John Doe', 'weight': 80.5,
     'birthdate': str(datetime.datetime(1965, 3, 21)),
     'children': [{'id': 2, 'name': 'Jane Doe', 'weight': 20.25,
                   'birthdate': str(datetime.datetime(1995, 7, 1)), 'children': []}]},
    {'id': 3, 'name': 'Max Mustermann', 'weight': 75.0,
     'birthdate': str(datetime.datetime(1970, 12, 31, 23, 59, 59)), 'children': []},
]


def typed_people(people):
    """CLASSIC_PEOPLE as the service answers: birthdates as dateTimes."""
    return [dict(p, birthdate=datetime.datetime.fromisoformat(p['birthdate']),
                 children=typed_people(p['children'])) for p in people]


class ClassicComparisonTest(unittest.TestCase):
    """The comparison's calls (add, concat, boolean, now, complex, fail) through both of its
    clients: Python's xmlrpc.client and a plain JSON-RPC client over HTTP."""

    def setUp(self):
        self.proxy = xmlrpc.client.ServerProxy(base_url() + '/RPC2', use_builtin_types=True)
        self.opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        self.next_id = 0

    def tearDown(self):
        self.proxy('close')()

    def jsonrpc(self, method, *params):
        """The JSON-RPC answer to one call: ('result', value) or ('error', error object)."""
        self.next_id += 1
        body = json.dumps({'jsonrpc': '2.0', 'method': method, 'params': list(params),
                           'id': self.next_id}).encode('utf-8')
        request = urllib.request.Request(base_url() + '/jsonrpc', data=body,
                                         headers={'Content-Type': 'application/json'})
        with self.opener.open(request, timeout=10) as r:
            answer = json.loads(r.read())
        self.assertEqual(answer['id'], self.next_id)
        return ('error', answer['error']) if 'error' in answer else ('result', answer['result'])

    def test_xmlrpc_client(self):
        self.assertEqual(self.proxy.add(1, 2), 3)
        self.assertEqual(self.proxy.concat('Hello', ', ', 'World'), 'Hello, World')
        self.assertIs(self.proxy.boolean(), True)
        now = self.proxy.now()
        utc = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
        self.assertLess(abs((now - utc).total_seconds()), 120)
        self.assertEqual(self.proxy.complex(CLASSIC_PEOPLE), typed_people(CLASSIC_PEOPLE))
        with self.assertRaises(xmlrpc.client.Fault) as cm:
            self.proxy.fail()
        self.assertEqual((cm.exception.faultCode, cm.exception.faultString),
                         (4, 'division by zero'))

    def test_jsonrpc_client(self):
        self.assertEqual(self.jsonrpc('add', 1, 2), ('result', 3))
        self.assertEqual(self.jsonrpc('concat', 'Hello', ', ', 'World'),
                         ('result', 'Hello, World'))
        self.assertEqual(self.jsonrpc('boolean'), ('result', True))
        kind, now = self.jsonrpc('now')
        self.assertEqual(kind, 'result')
        utc = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
        self.assertLess(abs((datetime.datetime.fromisoformat(now) - utc).total_seconds()), 120)
        kind, people = self.jsonrpc('complex', CLASSIC_PEOPLE)
        self.assertEqual(kind, 'result')
        expected = json.loads(json.dumps(typed_people(CLASSIC_PEOPLE),
                                         default=datetime.datetime.isoformat))
        self.assertEqual(people, expected)
        self.assertEqual(self.jsonrpc('fail'), ('error', {'code': 4, 'message': 'division by zero'}))


# ------------------------------------------------------------------ JSON-RPC: curl

def curl_post(body, content_type='application/json'):
    """(HTTP status, parsed JSON body) of POST /jsonrpc made by curl."""
    proc = subprocess.run(
        ['curl', '--silent', '--show-error', '--noproxy', '*', '--max-time', '10',
         '-H', 'Content-Type: ' + content_type, '--data-binary', '@-',
         '--write-out', '\n%{http_code}', base_url() + '/jsonrpc'],
        input=body.encode('utf-8'), capture_output=True, timeout=30)
    if proc.returncode != 0:
        raise AssertionError('curl exited %d: %s' % (proc.returncode, proc.stderr.decode()))
    text, _, status = proc.stdout.decode('utf-8').rpartition('\n')
    return int(status), json.loads(text)


class JsonRpcCurlTest(unittest.TestCase):

    def call(self, method, params, id_=1):
        return curl_post(json.dumps({'jsonrpc': '2.0', 'method': method, 'params': params,
                                     'id': id_}))

    def test_add(self):
        status, answer = self.call('add', [2, 3], 7)
        self.assertEqual(status, 200)
        self.assertEqual(answer, {'jsonrpc': '2.0', 'result': 5, 'id': 7})

    def test_add_by_name(self):
        status, answer = self.call('add', {'b': 3, 'a': 2})
        self.assertEqual(answer['result'], 5)

    def test_concat(self):
        status, answer = self.call('concat', ['a', 'é', '"\\'], 'x')
        self.assertEqual(status, 200)
        self.assertEqual(answer, {'jsonrpc': '2.0', 'result': 'aé"\\', 'id': 'x'})

    def test_fail(self):
        status, answer = self.call('fail', [], 3)
        self.assertEqual(status, 200)
        self.assertEqual(answer['error'], {'code': 4, 'message': 'division by zero'})
        self.assertEqual(answer['id'], 3)
        self.assertNotIn('result', answer)

    def test_unknown_method(self):
        status, answer = self.call('noSuchMethod', [1], 9)
        self.assertEqual(answer['error']['code'], -32601)
        self.assertEqual(answer['error']['message'], 'method not found: noSuchMethod')
        self.assertEqual(answer['id'], 9)

    def test_malformed_body(self):
        status, answer = curl_post('{"jsonrpc": "2.0", "method": "add", "params": [2, ')
        self.assertEqual(answer['jsonrpc'], '2.0')
        self.assertEqual(answer['error']['code'], -32700)
        self.assertTrue(answer['error']['message'].startswith('parse error'))
        self.assertIsNone(answer['id'])


if __name__ == '__main__':
    if len(sys.argv) > 1 and not sys.argv[1].startswith('-'):
        EXE = sys.argv.pop(1)
    unittest.main()
