"""A small XML node model, its serializer and its Digest.

The digest is computed from the tree, not from the serialized bytes, so that it is an
independent statement of what a parser must report."""

import re

from .digest import event_hash, hex64

# How a piece of character data is written; all decode to the same characters.
#   text   - literal, with & < > escaped as &amp; &lt; &gt;
#   cdata  - a CDATA section (split in two around every ']]>')
#   dec    - one decimal character reference per character
#   hex    - one hexadecimal character reference per character
#   entity - one predefined entity reference per character (only " ' < > &)
SEGMENT_KINDS = ('text', 'cdata', 'dec', 'hex', 'entity')
_ENTITIES = {'"': '&quot;', "'": '&apos;', '<': '&lt;', '>': '&gt;', '&': '&amp;'}
_INVALID_CHARS = re.compile('[\x00-\x08\x0b-\x1f\r\ufffe\uffff\ud800-\udfff]')
_WS = ' \t\r\n'


def _check_chars(s, where):
    m = _INVALID_CHARS.search(s)
    if m:
        raise ValueError('%s: character U+%04X not allowed' % (where, ord(m.group())))


def _write_segment(kind, s, in_attr):
    if kind == 'text':
        s = s.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')
        return s.replace('"', '&quot;') if in_attr else s
    if kind == 'cdata':
        assert not in_attr
        return '<![CDATA[' + s.replace(']]>', ']]]]><![CDATA[>') + ']]>'
    if kind == 'dec':
        return ''.join('&#%d;' % ord(c) for c in s)
    if kind == 'hex':
        return ''.join('&#x%X;' % ord(c) for c in s)
    if kind == 'entity':
        return ''.join(_ENTITIES[c] for c in s)
    raise ValueError('unknown segment kind ' + kind)


def segments_of(value):
    """The (kind, text) segments of a string value (StyledStr carries its own)."""
    segs = getattr(value, 'xml', None)
    if segs is None:
        return [('text', str(value))]
    assert ''.join(s for _, s in segs) == value, (segs, value)
    return segs


class Text:
    __slots__ = ('value',)

    def __init__(self, value):
        self.value = value


class Comment:
    __slots__ = ('text',)

    def __init__(self, text):
        assert '--' not in text and not text.endswith('-')
        self.text = text


class PI:
    __slots__ = ('target', 'data')

    def __init__(self, target, data):
        assert target.lower() != 'xml' and '?>' not in data
        self.target = target
        self.data = data


class Element:
    """qname as written; attrs: list of (qname, value) in written order, xmlns included;
    children: Element, Text or Comment. inline: keep the children on one line even when
    pretty-printing (XML-RPC scalar <value>s, as real clients write them)."""

    __slots__ = ('qname', 'attrs', 'children', 'inline')

    def __init__(self, qname, attrs=None, children=None, inline=False):
        self.qname = qname
        self.attrs = attrs or []
        self.children = children if children is not None else []
        self.inline = inline

    def add(self, child):
        self.children.append(child)
        return child

    def text(self, value):
        if value != '':
            self.children.append(Text(value))
        return self


def el(qname, *children, attrs=None, text=None, inline=False):
    e = Element(qname, list(attrs) if attrs else [], list(children), inline)
    if text is not None:
        e.text(text)
    return e


class Document:
    """decl: '"' or "'" (XML declaration quoted that way) or None (no declaration);
    prolog: PIs/comments between the declaration and the root."""

    def __init__(self, root, decl='"', prolog=()):
        self.root = root
        self.decl = decl
        self.prolog = list(prolog)


def _write_node(node, out, depth, pretty):
    if isinstance(node, Text):
        v = node.value
        if type(v) is str:  # fast path: plain text
            out.append(v.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;'))
            return
        for kind, s in segments_of(v):
            _check_chars(s, 'text')  # references could hide characters XML forbids
            out.append(_write_segment(kind, s, False))
        return
    if isinstance(node, Comment):
        out.append('<!--' + node.text + '-->')
        return
    if isinstance(node, PI):
        out.append('<?%s %s?>' % (node.target, node.data))
        return
    out.append('<' + node.qname)
    for q, v in node.attrs:
        parts = []
        for kind, s in segments_of(v):
            _check_chars(s, 'attribute')
            if '\t' in s or '\n' in s:
                raise ValueError('tab/LF in attribute value %r' % v)
            parts.append(_write_segment(kind, s, True))
        out.append(' %s="%s"' % (q, ''.join(parts)))
    children = node.children
    if not children:
        out.append('/>')
        return
    if len(children) == 1 and type(children[0]) is Text and type(children[0].value) is str:
        v = children[0].value  # fast path: a leaf with plain text
        out.append('>%s</%s>' % (v.replace('&', '&amp;').replace('<', '&lt;')
                                 .replace('>', '&gt;'), node.qname))
        return
    out.append('>')
    if pretty and not node.inline and not any(isinstance(c, Text) for c in children):
        inner = '\n' + '  ' * (depth + 1)
        for c in children:
            out.append(inner)
            _write_node(c, out, depth + 1, True)
        out.append('\n' + '  ' * depth)
    else:
        for c in children:
            _write_node(c, out, depth + 1, False)
    out.append('</' + node.qname + '>')


def serialize(doc, pretty=True):
    """The document as UTF-8 bytes; pretty: 2-space indentation and a final newline,
    otherwise no whitespace between markup at all."""
    out = []
    sep = '\n' if pretty else ''
    if doc.decl:
        q = doc.decl
        out.append('<?xml version=%s1.0%s encoding=%sUTF-8%s?>' % (q, q, q, q) + sep)
    for node in doc.prolog:
        _write_node(node, out, 0, False)
        out.append(sep)
    _write_node(doc.root, out, 0, pretty)
    out.append(sep)
    text = ''.join(out)
    _check_chars(text, 'document')  # once for all text and attributes: no CR, no C0 etc.
    return text.encode('utf-8')


def _is_xmlns(q):
    return q == 'xmlns' or q.startswith('xmlns:')


def digest(doc):
    """Digest of the document per docs/corpus.md, from the tree."""
    buf = bytearray()
    counts = {'elements': 0, 'attributes': 0, 'text_bytes': 0}
    starts, ends = {}, {}  # qname -> b'S' qname NUL / b'E' qname NUL

    def text(s):
        if not s:
            return
        if not s.strip(_WS):
            raise ValueError('whitespace-only text inside an element: %r' % s)
        b = s.encode('utf-8')
        buf.extend(b'T' + b + b'\0')
        counts['text_bytes'] += len(b)

    def walk(e):
        q = e.qname
        tag = starts.get(q)
        if tag is None:
            tag = starts[q] = b'S' + q.encode('utf-8') + b'\0'
            ends[q] = b'E' + q.encode('utf-8') + b'\0'
        buf.extend(tag)
        counts['elements'] += 1
        if e.attrs:
            attrs = sorted((k.encode('utf-8'), str(v)) for k, v in e.attrs if not _is_xmlns(k))
            for k, v in attrs:
                buf.extend(b'A' + k + b'\0' + v.encode('utf-8') + b'\0')
            counts['attributes'] += len(attrs)
        kids = e.children
        if len(kids) == 1 and type(kids[0]) is Text:  # fast path: a leaf with text
            text(str(kids[0].value))
        else:
            run = []  # character data since the last markup (comments do not end it)
            for c in kids:
                if type(c) is Text:
                    run.append(str(c.value))
                elif type(c) is Element:
                    text(''.join(run))
                    run = []
                    walk(c)
            text(''.join(run))
        buf.extend(ends[q])

    walk(doc.root)
    counts['hash'] = hex64(event_hash(buf))
    return counts
