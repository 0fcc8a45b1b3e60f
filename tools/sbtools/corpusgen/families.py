"""Message encoders, one per protocol family (docs/service.md "Wire formats")."""

from collections import namedtuple

from . import json_writer, xml_tree
from .contract import STRUCTS, DateTime, StyledStr, b64, is_array, item_type, value_type
from .xml_tree import Comment, Document, PI, el

XML_FAMILIES = ['xmlrpc', 'soap11-rpc-encoded', 'soap11-rpc-literal', 'soap11-doc-literal',
                'soap12-doc-literal']
FAMILIES = XML_FAMILIES + ['jsonrpc']

NS_SOAP11_ENV = 'http://schemas.xmlsoap.org/soap/envelope/'
NS_SOAP11_ENC = 'http://schemas.xmlsoap.org/soap/encoding/'
NS_SOAP12_ENV = 'http://www.w3.org/2003/05/soap-envelope'
NS_XSI = {1999: 'http://www.w3.org/1999/XMLSchema-instance',
          2001: 'http://www.w3.org/2001/XMLSchema-instance'}
NS_XSD = {1999: 'http://www.w3.org/1999/XMLSchema', 2001: 'http://www.w3.org/2001/XMLSchema'}
NS_NOTE = 'urn:soapbench:note'

# pretty: 2-space indentation (else no whitespace between markup); decl: XML declaration;
# multiref: rpc/encoded structs of `complex` (no other operation) as href/id multiRefs;
# comments: a comment between two parameters, and in XML-RPC a PI after the declaration
# (SOAP forbids PIs: its PI messages are hostile files, hostile.py); note: a
# StyledStr written as a namespace-qualified attribute on the SOAP Envelope; type_charref:
# write the ':' of xsi:type="xsd:string" as a character reference; indent: JSON indentation
# (0 = compact).
Style = namedtuple('Style', 'pretty decl multiref comments note type_charref indent')
DEFAULT_STYLE = Style(pretty=True, decl=True, multiref=True, comments=False, note=None,
                      type_charref=False, indent=0)

COMMENT_TEXT = ' the second parameter follows '
PI_NODE = ('soapbench', 'variant="comments"')


def _xmlrpc_words(v):
    # Like MIME base64: line breaks every 76 characters (the spec allows them).
    s = b64(v)
    return '\n'.join(s[i:i + 76] for i in range(0, len(s), 76))


# ---------------------------------------------------------------- XML-RPC

def _xmlrpc_value(v, t, int_tag):
    t = value_type(v, t)
    if is_array(t):
        it = item_type(t)
        data = el('data', *[_xmlrpc_value(x, it, int_tag) for x in v])
        return el('value', el('array', data))
    if t in STRUCTS:
        members = [el('member', el('name', text=m), _xmlrpc_value(v[m], mt, int_tag))
                   for m, mt in STRUCTS[t]]
        return el('value', el('struct', *members))
    if t == 'int':
        scalar = el(int_tag, text=str(v))
    elif t == 'double':
        scalar = el('double', text=repr(v))
    elif t == 'bool':
        scalar = el('boolean', text='1' if v else '0')
    elif t == 'string':
        scalar = el('string', text=v)
    elif t == 'dateTime':
        scalar = el('dateTime.iso8601', text=v.xmlrpc())
    elif t == 'base64':
        scalar = el('base64', text=_xmlrpc_words(v))
    elif t == 'void':
        scalar = el('nil')
    else:
        raise ValueError(t)
    return el('value', scalar, inline=True)


def _xmlrpc(msg, style):
    int_tag = 'i4' if msg.op.name == 'add' else 'int'
    if msg.direction == 'call':
        params = el('params', *[el('param', _xmlrpc_value(v, p.type, int_tag))
                                for p, v in msg.params()])
        if style.comments:
            params.children.insert(1, Comment(COMMENT_TEXT))
        root = el('methodCall', el('methodName', text=msg.op.name), params)
    elif msg.direction == 'response':
        value = _xmlrpc_value(msg.value, msg.op.result, int_tag)
        root = el('methodResponse', el('params', el('param', value)))
    else:
        fault = {'faultCode': msg.value.code, 'faultString': msg.value.message}
        members = [el('member', el('name', text='faultCode'),
                      _xmlrpc_value(fault['faultCode'], 'int', 'int')),
                   el('member', el('name', text='faultString'),
                      _xmlrpc_value(fault['faultString'], 'string', 'int'))]
        root = el('methodResponse', el('fault', el('value', el('struct', *members))))
    return root


# ---------------------------------------------------------------- SOAP

SoapFamily = namedtuple('SoapFamily', 'env_ns prefix rpc encoded soap12')
SOAP_FAMILIES = {
    'soap11-rpc-encoded': SoapFamily(NS_SOAP11_ENV, 'SOAP-ENV', True, True, False),
    'soap11-rpc-literal': SoapFamily(NS_SOAP11_ENV, 'SOAP-ENV', True, False, False),
    'soap11-doc-literal': SoapFamily(NS_SOAP11_ENV, 'soap', False, False, False),
    'soap12-doc-literal': SoapFamily(NS_SOAP12_ENV, 'env', False, False, True),
}

_XSD_TYPES = {'int': 'xsd:int', 'double': 'xsd:double', 'bool': 'xsd:boolean',
              'string': 'xsd:string', 'dateTime': 'xsd:dateTime', 'base64': 'xsd:base64Binary'}


def _soap_text(v, t):
    if t == 'int':
        return str(v)
    if t == 'double':
        return repr(v)
    if t == 'bool':
        return 'true' if v else 'false'
    if t == 'string':
        return v
    if t == 'dateTime':
        return v.iso
    if t == 'base64':
        return b64(v)
    raise ValueError(t)


def _literal(name, v, t):
    t = value_type(v, t)
    if is_array(t):
        it = item_type(t)
        return el(name, *[_literal('item', x, it) for x in v])
    if t in STRUCTS:
        return el(name, *[_literal(m, v[m], mt) for m, mt in STRUCTS[t]])
    return el(name, text=_soap_text(v, t))


class _Encoded:
    """SOAP 1.1 Section 5 encoding; with multiref, struct values become multiRefs
    (Axis 1 style), one per distinct Python object, so a shared value is written once."""

    def __init__(self, fam, style, op_name):
        self.fam = fam
        # Only `complex` (whose data has a shared child) is written with multiRefs.
        self.multiref = style.multiref and op_name == 'complex'
        self.type_charref = style.type_charref
        self.ids = {}
        self.queue = []

    def xsi_type(self, t):
        if t in STRUCTS:
            return 'ns1:' + t
        name = _XSD_TYPES[t]
        if self.type_charref and name == 'xsd:string':
            return StyledStr(name, xml=[('text', 'xsd'), ('hex', ':'), ('text', 'string')])
        return name

    def value(self, name, v, t):
        t = value_type(v, t)
        if is_array(t):
            it = item_type(t)
            array_type = '%s[%d]' % (str(self.xsi_type(it)), len(v))
            return el(name, *[self.value('item', x, it) for x in v],
                      attrs=[('xsi:type', 'SOAP-ENC:Array'), ('SOAP-ENC:arrayType', array_type)])
        if t in STRUCTS:
            if self.multiref:
                ref = self.ids.get(id(v))
                if ref is None:
                    ref = self.ids[id(v)] = 'id%d' % len(self.ids)
                    self.queue.append((ref, v, t))
                return el(name, attrs=[('href', '#' + ref)])
            return el(name, *self.members(v, t), attrs=[('xsi:type', self.xsi_type(t))])
        return el(name, text=_soap_text(v, t), attrs=[('xsi:type', self.xsi_type(t))])

    def members(self, v, t):
        return [self.value(m, v[m], mt) for m, mt in STRUCTS[t]]

    def multirefs(self, namespace):
        out = []
        while self.queue:  # members may queue further multiRefs: breadth-first order
            ref, v, t = self.queue.pop(0)
            out.append(el('multiRef', *self.members(v, t), attrs=[
                ('id', ref), ('SOAP-ENC:root', '0'),
                (self.fam.prefix + ':encodingStyle', NS_SOAP11_ENC),
                ('xsi:type', self.xsi_type(t)), ('xmlns:ns1', namespace)]))
        return out


def _soap_fault(fam, msg):
    p = fam.prefix
    code_attrs = [('xsi:type', 'xsd:int')] if fam.encoded else []
    detail = el('ns1:fault', el('code', text=str(msg.value.code), attrs=code_attrs),
                attrs=[('xmlns:ns1', msg.op.namespace)])
    if fam.soap12:
        return el(p + ':Fault',
                  el(p + ':Code', el(p + ':Value', text=p + ':Receiver')),
                  el(p + ':Reason', el(p + ':Text', text=msg.value.message,
                                       attrs=[('xml:lang', 'en')])),
                  el(p + ':Detail', detail))
    return el(p + ':Fault',
              el('faultcode', text=p + ':Server'),
              el('faultstring', text=msg.value.message),
              el('detail', detail))


def _soap(family, msg, style):
    fam = SOAP_FAMILIES[family]
    p = fam.prefix
    op = msg.op
    # The classic getRate messages keep the 1999 schema namespaces of the 2001 SOAP tests.
    classic = fam.encoded and op.name == 'getRate'
    env_attrs = [('xmlns:' + p, fam.env_ns)]
    if fam.encoded:
        year = 1999 if classic else 2001
        if not classic:
            env_attrs.append(('xmlns:SOAP-ENC', NS_SOAP11_ENC))
        env_attrs += [('xmlns:xsi', NS_XSI[year]), ('xmlns:xsd', NS_XSD[year])]
    if style.note is not None:
        env_attrs += [('xmlns:sb', NS_NOTE), ('sb:note', style.note)]
    body = el(p + ':Body')
    envelope = el(p + ':Envelope', body, attrs=env_attrs)
    if msg.direction == 'fault':
        body.add(_soap_fault(fam, msg))
        return envelope

    name = op.name if msg.direction == 'call' else op.name + 'Response'
    if fam.rpc:
        attrs = [('xmlns:ns1', op.namespace)]
        if fam.encoded:
            attrs.append((p + ':encodingStyle', NS_SOAP11_ENC))
        wrapper = el('ns1:' + name, attrs=attrs)
    else:
        wrapper = el(name, attrs=[('xmlns', op.namespace)])
    body.add(wrapper)
    enc = _Encoded(fam, style, op.name) if fam.encoded else None
    if msg.direction == 'call':
        values = [(prm.name, v, prm.type) for prm, v in msg.params()]
    elif op.result != 'void':
        values = [('return', msg.value, op.result)]
    else:
        values = []
    for name, v, t in values:
        wrapper.add(enc.value(name, v, t) if enc else _literal(name, v, t))
    if style.comments:
        wrapper.children.insert(1, Comment(COMMENT_TEXT))
    if enc:
        body.children += enc.multirefs(op.namespace)
    return envelope


# ---------------------------------------------------------------- JSON-RPC

def _json_value(v):
    if isinstance(v, DateTime):
        return v.iso
    if isinstance(v, bytes):
        return b64(v)
    if isinstance(v, list):
        return [_json_value(x) for x in v]
    if isinstance(v, dict):
        return {k: _json_value(x) for k, x in v.items()}
    return v


def _jsonrpc(msg):
    if msg.direction == 'call':
        return {'jsonrpc': '2.0', 'method': msg.op.name,
                'params': [_json_value(v) for v in msg.value], 'id': 1}
    if msg.direction == 'response':
        return {'jsonrpc': '2.0', 'result': _json_value(msg.value), 'id': 1}
    return {'jsonrpc': '2.0', 'error': {'code': msg.value.code, 'message': msg.value.message},
            'id': 1}


# ---------------------------------------------------------------- entry point

def encode(family, msg, style=DEFAULT_STYLE, with_digest=True):
    """Returns (bytes, digest) of msg written in family with style (digest None unless
    with_digest)."""
    if family == 'jsonrpc':
        value = _jsonrpc(msg)
        return (json_writer.serialize(value, style.indent),
                json_writer.digest(value) if with_digest else None)
    if family == 'xmlrpc':
        root = _xmlrpc(msg, style)
    else:
        root = _soap(family, msg, style)
    decl = None
    if style.decl:
        classic = family == 'soap11-rpc-encoded' and msg.op.name == 'getRate'
        decl = "'" if classic else '"'
    prolog = [PI(*PI_NODE)] if style.comments and family == 'xmlrpc' else []
    doc = Document(root, decl=decl, prolog=prolog)
    return xml_tree.serialize(doc, style.pretty), xml_tree.digest(doc) if with_digest else None
