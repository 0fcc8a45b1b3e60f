"""A small JSON writer (exact number and string formatting) and the JSON Digest."""

import json
import struct

from .digest import event_hash, hex64

_ESCAPES = {'"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b',
            '\f': '\\f'}


def _string(s):
    raw = getattr(s, 'json_raw', None)
    if raw is not None:
        # A hand-written representation must still mean the same string.
        assert json.loads('"' + raw + '"') == s, (raw, s)
        return '"' + raw + '"'
    out = []
    for c in s:
        e = _ESCAPES.get(c)
        if e is None and c < ' ':
            e = '\\u%04x' % ord(c)
        out.append(e or c)
    return '"' + ''.join(out) + '"'


def _number(v):
    if type(v) is float:
        r = repr(v)
        if r in ('nan', 'inf', '-inf'):
            raise ValueError('non-finite double')
        assert '.' in r or 'e' in r
        return r
    return str(v)


def _write(v, out, indent, depth):
    if v is None:
        out.append('null')
    elif v is True:
        out.append('true')
    elif v is False:
        out.append('false')
    elif isinstance(v, str):
        out.append(_string(v))
    elif type(v) in (int, float):
        out.append(_number(v))
    elif isinstance(v, (list, dict)):
        is_obj = isinstance(v, dict)
        out.append('{' if is_obj else '[')
        if v:
            nl = '\n' + ' ' * (indent * (depth + 1)) if indent else ''
            first = True
            for item in (v.items() if is_obj else v):
                if not first:
                    out.append(',')
                first = False
                out.append(nl)
                if is_obj:
                    out.append(_string(item[0]))
                    out.append(': ' if indent else ':')
                    item = item[1]
                _write(item, out, indent, depth + 1)
            if indent:
                out.append('\n' + ' ' * (indent * depth))
        out.append('}' if is_obj else ']')
    else:
        raise TypeError('not a JSON value: %r' % (v,))


def serialize(value, indent=0):
    """UTF-8 bytes; indent=0 is compact (no whitespace, no final newline), otherwise
    json.dumps(indent=N) layout with a final newline."""
    out = []
    _write(value, out, indent, 0)
    if indent:
        out.append('\n')
    return ''.join(out).encode('utf-8')


def digest(value):
    """Digest of the JSON value per docs/corpus.md, from the Python values."""
    buf = bytearray()
    c = {'objects': 0, 'arrays': 0, 'keys': 0, 'strings': 0, 'numbers': 0, 'string_bytes': 0}

    def walk(v):
        if v is None:
            buf.extend(b'n')
        elif v is True:
            buf.extend(b't')
        elif v is False:
            buf.extend(b'f')
        elif isinstance(v, str):
            b = v.encode('utf-8')
            c['strings'] += 1
            c['string_bytes'] += len(b)
            buf.extend(b'S' + b + b'\0')
        elif type(v) is int:
            c['numbers'] += 1
            buf.extend(b'I' + struct.pack('<q', v))
        elif type(v) is float:
            c['numbers'] += 1
            buf.extend(b'D' + struct.pack('<d', v))
        elif isinstance(v, list):
            c['arrays'] += 1
            buf.extend(b'[')
            for item in v:
                walk(item)
            buf.extend(b']')
        elif isinstance(v, dict):
            c['objects'] += 1
            buf.extend(b'{')
            for k, item in v.items():
                b = k.encode('utf-8')
                c['keys'] += 1
                c['string_bytes'] += len(b)
                buf.extend(b'K' + b + b'\0')
                walk(item)
            buf.extend(b'}')
        else:
            raise TypeError(repr(v))

    walk(value)
    c['hash'] = hex64(event_hash(buf))
    return c
