#!/usr/bin/python3
"""The JVM clients' canonical-JSON writer (peers/java/common/CanonicalJson.java) against Python.

Usage: /usr/bin/python3 tests/interop/test_canonical_json.py [--probe CANONICAL_JSON_PROBE]
       [--jaxb-probe JAXB_BEANS_PROBE] [unittest args, e.g. WriterTest]

The contract's canonical JSON is json.dumps(value, ensure_ascii=False, separators=(",", ":"))
(docs/service.md), so Python itself is the oracle: every line the writer prints must equal
json.dumps' UTF-8 bytes for the same value.
- WriterTest (--probe: tests/interop/CanonicalJsonProbe.java, the writer alone): thousands of
  doubles (random bit patterns, every power of two and ten and their neighbours, the edges
  where repr switches form, NaN and the infinities), floats, every control character, quotes,
  backslashes, non-ASCII and astral characters, ints, Calendars in several zones,
  XMLGregorianCalendars with and without offsets, byte[], Java arrays, Lists, Maps, nested, and
  the response and fault messages; a struct member named by a non-string is refused.
- JaxbBeansTest (--jaxb-probe: tests/interop/JaxbBeansProbe.java): jaxws_client's JAXB beans
  (peers/java/jaxws/Types.java), read by JAXB from XML, through the writer's JaxbBeans hook.
The random values come from a seed printed on failure (SB_SEED=N repeats a run).
"""

import base64 as b64
import datetime
import json
import math
import os
import random
import struct
import subprocess
import sys
import time
import unittest
from xml.sax.saxutils import escape

PROBES = {'--probe': None, '--jaxb-probe': None}
SEED = int(os.environ.get('SB_SEED', time.time_ns() % 1_000_000_007))
TIMEOUT = 60  # one JVM on a loaded 2-core machine
EPOCH = datetime.datetime(1970, 1, 1)


def dumps(value):
    """The contract's canonical JSON of a Python value, as UTF-8 bytes."""
    return json.dumps(value, ensure_ascii=False, separators=(',', ':')).encode('utf-8')


def run_probe(probe, lines):
    """The probe's output lines (bytes) for `lines` (ASCII text), one each."""
    proc = subprocess.run([probe], input='\n'.join(lines).encode('ascii') + b'\n',
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
    if proc.returncode != 0:
        raise AssertionError(f'{probe} exited {proc.returncode}: {proc.stderr.decode()}')
    out = proc.stdout.split(b'\n')
    if out[-1] != b'' or len(out) - 1 != len(lines):
        raise AssertionError(f'{len(lines)} lines in, {len(out) - 1} out: {proc.stdout[-300:]}')
    return out[:-1]


class Case:
    """A value: its probe token(s) and the Python value json.dumps is given."""

    def __init__(self, tokens, value):
        self.tokens = tokens
        self.value = value


def double(d):
    return Case(f'd {struct.pack(">d", d).hex()}', d)


def double_bits(bits):
    return double(struct.unpack('>d', bits.to_bytes(8, 'big'))[0])


def float32_bits(bits):
    return Case(f'g {bits:08x}', struct.unpack('>f', bits.to_bytes(4, 'big'))[0])


def string(s):
    return Case('s ' + (s.encode('utf-16-be').hex() or '-'), s)


def integer(kind, n):
    return Case(f'{kind} {n}', n)


def boolean(b):
    return Case(f'b {int(b)}', b)


def calendar(millis, zone):
    """A GregorianCalendar in `zone` at `millis`: its UTC time, whole seconds."""
    t = EPOCH + datetime.timedelta(milliseconds=millis)
    return Case(f'c {millis} {zone}', {'$dateTime': t.isoformat(timespec='seconds')})


def xml_calendar(t, fraction, offset):
    """An XMLGregorianCalendar of `t`, its fraction of a second, an offset in minutes or None."""
    text = t.isoformat(timespec='seconds') + fraction
    utc = t
    if offset == 0:
        text += 'Z'
    elif offset is not None:
        text += '%s%02d:%02d' % ('-' if offset < 0 else '+', abs(offset) // 60, abs(offset) % 60)
        utc = t - datetime.timedelta(minutes=offset)
    return Case(f'x {text}', {'$dateTime': utc.isoformat(timespec='seconds')})


def base64(data):
    return Case('y ' + (data.hex() or '-'), {'$base64': b64.b64encode(data).decode('ascii')})


def sequence(kind, items):
    return Case(' '.join([kind, str(len(items))] + [i.tokens for i in items]),
                [i.value for i in items])


def int_array(values):
    return Case(' '.join(['I', str(len(values))] + [str(v) for v in values]), values)


def double_array(values):
    return Case(' '.join(['D', str(len(values))] + [struct.pack('>d', v).hex() for v in values]),
                values)


def mapping(members):
    tokens = ['M', str(len(members))]
    for k, v in members:
        tokens += [string(k).tokens, v.tokens]
    return Case(' '.join(tokens), {k: v.value for k, v in members})


def edge_doubles():
    """Where repr is easy to get wrong: its form switches, powers of two and ten, neighbours."""
    values = [0.0, -0.0, 1.0, -1.0, 0.1, 0.1 + 0.2, 1 / 3, 2 / 3, 1e16, 1e-4, 1e-5, 9.999e-5,
              9999999999999998.0, 1e15, 123456789012345678.0, 1e7, 1e22, 1e23, 2e23, 8.41e21,
              5e-324, 1e-323, 2.2250738585072014e-308, 2.225073858507201e-308,
              1.7976931348623157e308, 4.35, 0.3, 2 ** -44, 100.0, 1234.5, 82.3, 1e-7, 123e-20,
              float('inf'), -float('inf'), float('nan')]
    values += [2.0 ** e for e in range(-1074, 1024)]
    values += [float(f'1e{e}') for e in range(-323, 309)]
    values += [float(f'{m}e{e}') for m in (5, 9.5, 1.5, 2.5) for e in range(-20, 25)]
    around = []
    for v in values:
        if math.isfinite(v):
            around += [math.nextafter(v, math.inf), math.nextafter(v, -math.inf)]
    return [double(v) for v in values + around]


def random_doubles(rng, n):
    """Random bit patterns (every exponent, NaNs with any payload) and short decimals."""
    cases = [double_bits(rng.getrandbits(64)) for _ in range(n)]
    cases += [double(float(f'{rng.randint(-10**6, 10**6)}e{rng.randint(-30, 30)}'))
              for _ in range(n // 4)]
    cases += [double(rng.uniform(-1e6, 1e6)) for _ in range(n // 4)]
    cases += [double_bits(rng.getrandbits(52)) for _ in range(n // 8)]  # subnormals
    return cases


def edge_strings():
    specials = [chr(c) for c in range(0x20)]
    specials += ['\x7f', '"', '\\', '/', "'", '\u2028', '\u2029', '\ufeff', '\uffff', '\u00e9',
                 '\u20ac', '\U0001f600', '\U00010000', '\U0010ffff', '<&>']
    return [string('')] + [string(c) for c in specials] + [string(''.join(specials))]


def random_string(rng):
    """Mixed ASCII, controls, BMP (no surrogates) and astral characters."""
    def char():
        pick = rng.random()
        if pick < 0.5:
            return chr(rng.randint(0x20, 0x7e))
        if pick < 0.6:
            return chr(rng.randint(0, 0x1f))
        if pick < 0.85:
            c = rng.randint(0x80, 0xfffd)
            return chr(c) if not 0xd800 <= c <= 0xdfff else 'x'
        return chr(rng.randint(0x10000, 0x10ffff))
    return ''.join(char() for _ in range(rng.randint(0, 20)))


def random_tree(rng, depth):
    """A nested value of every scalar kind, as Lists, Object[] and Maps."""
    pick = rng.randint(0, 10 if depth > 0 else 6)
    if pick == 0:
        return Case('n', None)
    if pick == 1:
        return integer('i', rng.randint(-2**31, 2**31 - 1))
    if pick == 2:
        return double_bits(rng.getrandbits(64))
    if pick == 3:
        return string(random_string(rng))
    if pick == 4:
        return boolean(rng.random() < 0.5)
    if pick == 5:
        return base64(rng.randbytes(rng.randint(0, 9)))
    if pick == 6:
        return calendar(rng.randint(-11_000_000_000_000, 253_000_000_000_000), 'UTC')
    if pick in (7, 8):
        return sequence('L' if pick == 7 else 'A',
                        [random_tree(rng, depth - 1) for _ in range(rng.randint(0, 4))])
    names = {random_string(rng) for _ in range(rng.randint(0, 4))}
    return mapping([(k, random_tree(rng, depth - 1)) for k in names])


def random_date(rng, first_year=2):
    """A time in years first_year..9998 (so an offset keeps it within Python's datetime)."""
    day = rng.randint(datetime.date(first_year, 1, 1).toordinal(),
                      datetime.date(9998, 12, 31).toordinal())
    return datetime.datetime.fromordinal(day) + datetime.timedelta(seconds=rng.randint(0, 86399))


class ProbeTestCase(unittest.TestCase):
    probe = None  # the option naming this class's probe

    def setUp(self):
        if not PROBES[self.probe]:
            self.fail(f'{self.probe} PATH is needed for {type(self).__name__}')
        self.rng = random.Random(SEED)

    def assert_lines(self, lines, expected):
        """Each probe line equal to its expected bytes; the first ten mismatches reported."""
        got = run_probe(PROBES[self.probe], lines)
        wrong = [(line, want, have) for line, want, have in zip(lines, expected, got)
                 if want != have]
        if wrong:
            self.fail(f'SB_SEED={SEED}: {len(wrong)} of {len(lines)} differ, e.g.\n'
                      + '\n'.join(f'  in {line[:120]}\n  want {want[:200]!r}\n'
                                  f'  got  {have[:200]!r}' for line, want, have in wrong[:10]))


class WriterTest(ProbeTestCase):
    probe = '--probe'

    def check(self, cases):
        self.assert_lines(['V ' + c.tokens for c in cases], [dumps(c.value) for c in cases])

    def test_doubles_as_python_repr(self):
        cases = edge_doubles() + random_doubles(self.rng, 6000)
        cases += [float32_bits(self.rng.getrandbits(32)) for _ in range(1000)]
        cases += [float32_bits(b) for b in (0, 0x80000000, 1, 0x3dcccccd, 0x7f7fffff, 0x7f800000,
                                            0xff800000, 0x7fc00000)]
        self.check(cases)

    def test_a_wrong_repr_is_caught(self):
        # The oracle really compares digits: Java's own Double.toString forms differ from these.
        self.assertEqual(dumps(1e7), b'10000000.0')
        self.assertEqual(dumps(5e-324), b'5e-324')
        self.assertEqual(dumps(1e23), b'1e+23')
        self.assertEqual(dumps(2 ** -44), b'5.684341886080802e-14')

    def test_strings_as_json_dumps_writes_them(self):
        cases = edge_strings() + [string(random_string(self.rng)) for _ in range(2000)]
        self.check(cases)

    def test_ints_bools_null(self):
        cases = [integer('i', n) for n in (0, -1, 2**31 - 1, -2**31)]
        cases += [integer('l', n) for n in (2**63 - 1, -2**63, 2**40)]
        cases += [integer('h', n) for n in (2**15 - 1, -2**15)]
        cases += [integer('i', self.rng.randint(-2**31, 2**31 - 1)) for _ in range(200)]
        cases += [boolean(True), boolean(False), Case('n', None)]
        self.check(cases)

    def test_calendars_in_utc_whole_seconds(self):
        zones = ['UTC', 'Europe/Berlin', 'America/St_Johns', 'Asia/Kolkata', 'Pacific/Kiritimati',
                 'GMT-12:00']
        # Gregorian years 1583..9999 (before, a Calendar is Julian as Axis reads one).
        cases = [calendar(m, z) for m in (0, -1, 999, -1500, 900_000_000_000, 253_402_300_799_999,
                                          -12_212_553_600_000) for z in zones]
        cases += [calendar(self.rng.randint(-12_212_553_600_000, 253_402_300_799_999),
                           self.rng.choice(zones)) for _ in range(500)]
        self.check(cases)

    def test_xml_calendars_moved_to_utc(self):
        cases = [xml_calendar(datetime.datetime(1998, 7, 17, 14, 8, 55), '', None),
                 xml_calendar(datetime.datetime(1998, 7, 17, 14, 8, 55), '.999', 0),
                 xml_calendar(datetime.datetime(2000, 1, 1, 0, 30, 0), '', 60),
                 xml_calendar(datetime.datetime(2000, 12, 31, 23, 59, 59), '.5', -14 * 60),
                 xml_calendar(datetime.datetime(2, 1, 1, 0, 0, 0), '', None),
                 xml_calendar(datetime.datetime(9998, 12, 31, 23, 59, 59), '', 0)]
        for _ in range(500):
            offset = self.rng.choice([None, 0, self.rng.randint(-14 * 60, 14 * 60)])
            fraction = self.rng.choice(['', '.0', '.123456789', '.5'])
            cases.append(xml_calendar(random_date(self.rng), fraction, offset))
        self.check(cases)

    def test_base64_arrays_lists_maps_nested(self):
        cases = [base64(b''), base64(b'\0'), base64(b'\xff\xfe'), base64(bytes(range(256)))]
        cases += [base64(self.rng.randbytes(self.rng.randint(0, 40))) for _ in range(100)]
        cases += [int_array([]), int_array([1, -2, 2**31 - 1]), double_array([]),
                  double_array([0.1, -0.0, 1e16, 5e-324, float('nan')]), sequence('L', []),
                  sequence('A', []), mapping([]),
                  mapping([('id', integer('i', 1)), ('name', string('Ann "A" \U0001f600')),
                           ('weight', double(82.3)), ('birthdate', calendar(0, 'UTC')),
                           ('children', sequence('A', [mapping([('id', integer('i', 2))])]))])]
        cases += [random_tree(self.rng, 4) for _ in range(1000)]
        self.check(cases)

    def test_response_and_fault_messages(self):
        result = sequence('L', [double(1e16), string('\u00e9\n')])
        self.assert_lines(
            [f'R {string("echoDoubles").tokens} {result.tokens}', 'R ' + string('now').tokens
             + ' n', 'F 4 ' + string('division by zero').tokens, 'F -32601 n'],
            [dumps({'kind': 'response', 'method': 'echoDoubles', 'result': result.value}),
             dumps({'kind': 'response', 'method': 'now', 'result': None}),
             dumps({'kind': 'fault', 'code': 4, 'message': 'division by zero'}),
             dumps({'kind': 'fault', 'code': -32601, 'message': ''})])

    def test_refuses_what_has_no_canonical_json(self):
        got = run_probe(PROBES[self.probe], ['V M 1 i 1 i 2', 'V x 2001-10-26', 'V L 1 o'])
        self.assertTrue(got[0].startswith(b'!java.lang.IllegalArgumentException: a struct member'),
                        got[0])
        self.assertTrue(got[1].startswith(b'!java.lang.IllegalArgumentException: not a dateTime'),
                        got[1])
        self.assertEqual(got[2], b'!java.lang.IllegalArgumentException: no canonical JSON for a'
                         b' java.lang.Object')


NS = 'urn:soapbench'


def xml_double(d):
    if math.isnan(d):
        return 'NaN'
    if math.isinf(d):
        return 'INF' if d > 0 else '-INF'
    return repr(d)


def xml_text(s):
    """Element content that reads back as `s` (a carriage return survives as a reference)."""
    return escape(s).replace('\r', '&#13;')


class Bean:
    """A Types.java bean: its XML content and its canonical value."""

    def __init__(self, xml, value):
        self.xml = xml
        self.value = value


def element(name, bean):
    return f'<{name}>{bean.xml}</{name}>' if bean is not None else ''


def array(items, nil=False):
    """An array bean: one `item` per value (None as xsi:nil when `nil`)."""
    xml = ''.join('<item xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:nil="true"/>'
                  if nil and i is None else f'<item>{i.xml}</item>' for i in items)
    return Bean(xml, [None if i is None else i.value for i in items])


def scalar(text, value):
    return Bean(text, value)


class JaxbBeansTest(ProbeTestCase):
    probe = '--jaxb-probe'

    def person(self, depth):
        rng = self.rng
        d = struct.unpack('>d', rng.getrandbits(64).to_bytes(8, 'big'))[0]
        stamp = random_date(rng, 1583).isoformat(timespec='seconds')
        name = random_string(rng).translate({c: None for c in range(0x20) if c not in (9, 10, 13)})
        ident = rng.randint(-2**31, 2**31 - 1)
        members = [('id', scalar(str(ident), ident)),
                   ('name', scalar(xml_text(name), name)),
                   ('weight', scalar(xml_double(d), d)),
                   ('birthdate', scalar(stamp + rng.choice(['', 'Z']), {'$dateTime': stamp}))]
        children = None
        if depth > 0 and rng.random() < 0.6:
            children = array([self.person(depth - 1) for _ in range(rng.randint(0, 3))])
        xml = ''.join(element(k, b) for k, b in members) + element('children', children)
        value = {k: b.value for k, b in members}
        value['children'] = None if children is None else children.value
        return Bean(xml, value)

    def chain_step(self):
        rng = self.rng
        stamp = random_date(rng, 1583).isoformat(timespec='seconds')
        d = rng.choice([0.25, 1e16, 1e-5, rng.uniform(0, 100)])
        args = array([None if rng.random() < 0.2 else scalar(xml_text(s), s)
                      for s in ('a<b', 'c&d', '\u00e9\U0001f600', '')], nil=True)
        members = [('step', scalar('3', 3)), ('name', scalar('fetch', 'fetch')),
                   ('host', scalar('h1', 'h1')),
                   ('start', scalar(stamp + 'Z', {'$dateTime': stamp})),
                   ('duration', scalar(xml_double(d), d)), ('status', scalar('ok', 'ok')),
                   ('args', args)]
        return Bean(''.join(element(k, b) for k, b in members), {k: b.value for k, b in members})

    def test_beans_as_their_fields_in_order(self):
        cases = [('Person', self.person(3)) for _ in range(150)]
        cases += [('PersonArray', array([self.person(2) for _ in range(3)]))]
        cases += [('ChainStepArray', array([self.chain_step() for _ in range(4)]))
                  for _ in range(20)]
        cases += [('Document', Bean(''.join(f'<e{i}><words>w{i} \u00e9</words></e{i}>'
                                            for i in range(1, 6)),
                                    {f'e{i}': {'words': f'w{i} \u00e9'} for i in range(1, 6)}))]
        doubles = [struct.unpack('>d', self.rng.getrandbits(64).to_bytes(8, 'big'))[0]
                   for _ in range(300)] + [1e16, 1e-5, -0.0, 5e-324, 9999999999999998.0]
        cases += [('DoubleArray', array([scalar(xml_double(d), d) for d in doubles]))]
        cases += [('IntArray', array([scalar(str(n), n) for n in (0, -2**31, 2**31 - 1)])),
                  ('IntArray', array([])), ('StringArray', array([None], nil=True))]
        lines = [f'{t} ' + self.wrap(b.xml).hex() for t, b in cases]
        self.assert_lines(lines, [dumps(b.value) for _, b in cases])

    @staticmethod
    def wrap(xml):
        return f'<r xmlns="{NS}">{xml}</r>'.encode('utf-8')


if __name__ == '__main__':
    while len(sys.argv) > 2 and sys.argv[1] in PROBES:
        PROBES[sys.argv[1]] = sys.argv[2]
        del sys.argv[1:3]
    unittest.main()
