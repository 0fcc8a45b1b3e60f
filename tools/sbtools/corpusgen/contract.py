"""The service contract (docs/service.md), value classes and canonical JSON."""

import base64
import json
from collections import namedtuple

NS_SOAPBENCH = 'urn:soapbench'
NS_EXCHANGE = 'urn:demo1:exchange'

# Types are strings: 'int', 'double', 'bool', 'string', 'dateTime', 'base64', 'void',
# 'fault', 'dateTimeOrString' (a DateTime or a str), a struct name, or any of these followed
# by '[]'.
DATETIME_OR_STRING = 'dateTimeOrString'
STRUCTS = {
    'Person': [('id', 'int'), ('name', 'string'), ('weight', 'double'),
               ('birthdate', 'dateTime'), ('children', 'Person[]')],
    # What `complex` accepts: the JSON-RPC vs XML-RPC comparison's client sends birthdates as
    # str(datetime); the service answers with Person (docs/service.md).
    'PersonIn': [('id', 'int'), ('name', 'string'), ('weight', 'double'),
                 ('birthdate', DATETIME_OR_STRING), ('children', 'PersonIn[]')],
    'Document': [('e%d' % i, 'Paragraph') for i in range(1, 6)],
    'Paragraph': [('words', 'string')],
    'ChainStep': [('step', 'int'), ('name', 'string'), ('host', 'string'),
                  ('start', 'dateTime'), ('duration', 'double'), ('status', 'string'),
                  ('args', 'string[]')],
}

Param = namedtuple('Param', 'name type optional')
Operation = namedtuple('Operation', 'name params result namespace')


def _op(name, params, result, namespace=NS_SOAPBENCH):
    plist = []
    for p in params:
        pname, ptype = p.split(':')
        optional = ptype.endswith('?')
        plist.append(Param(pname, ptype.rstrip('?'), optional))
    return Operation(name, plist, result, namespace)


OPERATIONS = {op.name: op for op in [
    _op('add', ['a:int', 'b:int'], 'int'),
    _op('concat', ['s1:string', 's2:string', 's3:string?'], 'string'),
    _op('echoArray', ['a:int[]', 'b:int[]'], 'int[]'),
    _op('boolean', [], 'bool'),
    _op('now', [], 'dateTime'),
    _op('complex', ['obj:PersonIn[]'], 'Person[]'),
    _op('fail', [], 'fault'),
    _op('getRate', ['country1:string', 'country2:string'], 'double', NS_EXCHANGE),
    _op('respond', ['wordcount:int', 'delay:int'], 'Document'),
    _op('sendString', ['s:string'], 'void'),
    _op('receiveString', ['length:int'], 'string'),
    _op('sendInt', ['i:int'], 'void'),
    _op('getChain', [], 'ChainStep[]'),
    _op('echoInts', ['values:int[]'], 'int[]'),
    _op('echoDoubles', ['values:double[]'], 'double[]'),
    _op('echoStrings', ['values:string[]'], 'string[]'),
    _op('echoBase64', ['data:base64'], 'base64'),
]}


def is_array(t):
    return t.endswith('[]')


def item_type(t):
    return t[:-2]


def value_type(value, t):
    """The type `value` is written as: a dateTimeOrString value is a dateTime or a string."""
    if t == DATETIME_OR_STRING:
        return 'dateTime' if isinstance(value, DateTime) else 'string'
    return t


class DateTime:
    """A dateTime value, kept as its ISO 8601 text (YYYY-MM-DDThh:mm:ss, no zone)."""

    __slots__ = ('iso',)

    def __init__(self, iso):
        assert len(iso) == 19 and iso[10] == 'T', iso
        self.iso = iso

    def xmlrpc(self):
        return self.iso[0:4] + self.iso[5:7] + self.iso[8:10] + self.iso[10:]

    def __eq__(self, other):
        return isinstance(other, DateTime) and other.iso == self.iso

    def __hash__(self):
        return hash(self.iso)


class StyledStr(str):
    """A string value that also says how to write it.

    xml: list of (kind, text) segments, kinds in xml_tree.SEGMENT_KINDS; json: the exact
    JSON string body (without quotes). Either may be None (default representation)."""

    def __new__(cls, value, xml=None, json_raw=None):
        s = super().__new__(cls, value)
        s.xml = xml
        s.json_raw = json_raw
        return s


class Fault:
    __slots__ = ('code', 'message')

    def __init__(self, code, message):
        self.code = code
        self.message = message


def b64(data):
    return base64.b64encode(data).decode('ascii')


def to_plain(value):
    """Python value -> JSON-ready value of the canonical form."""
    if isinstance(value, DateTime):
        return {'$dateTime': value.iso}
    if isinstance(value, (bytes, bytearray)):
        return {'$base64': b64(value)}
    if isinstance(value, list):
        return [to_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: to_plain(v) for k, v in value.items()}
    if isinstance(value, str):
        return str(value)
    return value


def check_type(value, t):
    """Asserts that value has contract type t (catches generator mistakes early)."""
    if is_array(t):
        assert isinstance(value, list), (t, value)
        for v in value:
            check_type(v, item_type(t))
    elif t in STRUCTS:
        assert isinstance(value, dict) and list(value) == [m for m, _ in STRUCTS[t]], (t, value)
        for m, mt in STRUCTS[t]:
            check_type(value[m], mt)
    elif t == 'int':
        assert type(value) is int and -2**31 <= value < 2**31, value
    elif t == 'double':
        assert type(value) is float, value
    elif t == 'bool':
        assert type(value) is bool, value
    elif t == 'string':
        assert isinstance(value, str), value
    elif t == 'dateTime':
        assert isinstance(value, DateTime), value
    elif t == DATETIME_OR_STRING:
        assert isinstance(value, (DateTime, str)), value
    elif t == 'base64':
        assert isinstance(value, bytes), value
    elif t == 'void':
        assert value is None
    else:
        raise AssertionError('unknown type ' + t)


def canonical(message):
    """One-line canonical JSON (docs/service.md) of a Message."""
    if message.direction == 'fault':
        obj = {'kind': 'fault', 'code': message.value.code, 'message': message.value.message}
    elif message.direction == 'call':
        obj = {'kind': 'call', 'method': message.op.name,
               'params': [to_plain(v) for v in message.value]}
    else:
        obj = {'kind': 'response', 'method': message.op.name, 'result': to_plain(message.value)}
    return json.dumps(obj, ensure_ascii=False, separators=(',', ':'))


class Message:
    """One RPC message: a call (value = list of params), a response (value = result) or a
    fault (value = Fault)."""

    def __init__(self, op_name, direction, value):
        self.op = OPERATIONS[op_name]
        self.direction = direction
        self.value = value
        if direction == 'call':
            required = [p for p in self.op.params if not p.optional]
            assert len(required) <= len(value) <= len(self.op.params), (op_name, value)
            for p, v in zip(self.op.params, value):
                check_type(v, p.type)
        elif direction == 'response':
            check_type(value, self.op.result)
        else:
            assert direction == 'fault' and isinstance(value, Fault)

    def params(self):
        """(Param, value) pairs of a call."""
        return list(zip(self.op.params, self.value))
