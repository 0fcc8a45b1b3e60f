"""Hostile inputs: messages a parser must reject (or, for DTDs, that policy rejects)."""

from contract import Message
from families import encode


def _msg(family, op, params):
    return encode(family, Message(op, 'call', params))[0]


def _cut_after(data, marker, extra=0):
    return data[:data.index(marker) + len(marker) + extra]


def _with_doctype(data, doctype):
    decl_end = data.index(b'?>') + 3
    return data[:decl_end] + doctype.encode() + b'\n' + data[decl_end:]


def _nested_xmlrpc_arrays(depth):
    # methodCall/params/param + value/array/data per level: element depth >= depth.
    levels = (depth - 3 + 2) // 3
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<methodCall><methodName>echoArray'
            '</methodName><params><param>' + '<value><array><data>' * levels
            + '</data></array></value>' * levels + '</param></params></methodCall>\n').encode()


def xml_files():
    """(name, family, error_class, note, bytes) of every hostile XML file."""
    rate = _msg('soap11-rpc-encoded', 'getRate', ['USA', 'japan'])
    concat_xmlrpc = _msg('xmlrpc', 'concat', ['Hello', ', ', 'World'])
    add_doc = _msg('soap11-doc-literal', 'add', [2, 3])
    add_xmlrpc = encode('xmlrpc', Message('add', 'response', 5))[0]
    concat_rpclit = _msg('soap11-rpc-literal', 'concat', ['Hello', ', ', 'World'])
    concat_soap12 = _msg('soap12-doc-literal', 'concat', ['Hello', ', ', 'World'])
    concat_enc = _msg('soap11-rpc-encoded', 'concat', ['Hello', ', ', 'World'])
    rate_doc = _msg('soap11-doc-literal', 'getRate', ['USA', 'japan'])

    laughs = ['<!DOCTYPE env:Envelope [', '  <!ENTITY lol0 "lol">']
    for i in range(1, 10):
        laughs.append('  <!ENTITY lol%d "%s">' % (i, ('&lol%d;' % (i - 1)) * 10))
    laughs.append(']>')

    return [
        ('truncated-in-decl', 'soap11-rpc-encoded', 'truncated',
         'ends inside the XML declaration', _cut_after(rate, b'enc')),
        ('truncated-in-tag', 'soap11-rpc-encoded', 'truncated',
         'ends inside a start tag', _cut_after(rate, b'<country2 xsi:ty')),
        ('truncated-in-text', 'xmlrpc', 'truncated',
         'ends inside character data', _cut_after(concat_xmlrpc, b'Wor')),
        ('truncated-before-end-tag', 'soap11-doc-literal', 'truncated',
         'ends just before the last end tag', add_doc[:add_doc.rindex(b'</soap:Envelope>')]),
        ('unclosed-root', 'xmlrpc', 'truncated',
         'root element never closed (all its children are complete)',
         add_xmlrpc.replace(b'</methodResponse>', b'')),
        ('mismatched-tag', 'soap12-doc-literal', 'mismatched-tag',
         '<s1> closed by </s2>', concat_soap12.replace(b'</s1>', b'</s2>', 1)),
        ('invalid-utf8-overlong', 'soap11-rpc-literal', 'invalid-utf8',
         'overlong encoding C0 AF of "/" in text',
         concat_rpclit.replace(b'Hello', b'Hel\xc0\xaflo', 1)),
        ('invalid-utf8-surrogate', 'soap11-rpc-literal', 'invalid-utf8',
         'UTF-16 surrogate U+D800 encoded in UTF-8 (ED A0 80) in text',
         concat_rpclit.replace(b'Hello', b'Hel\xed\xa0\x80lo', 1)),
        ('invalid-utf8-cut', 'soap11-rpc-literal', 'invalid-utf8',
         'multi-byte sequence cut short (E6 97, then "<")',
         concat_rpclit.replace(b'World', b'World\xe6\x97', 1)),
        ('undefined-entity', 'soap11-rpc-encoded', 'undefined-entity',
         'reference to the undeclared entity &bogus;',
         concat_enc.replace(b'Hello', b'Hello&bogus;', 1)),
        ('doctype', 'soap11-rpc-encoded', 'doctype',
         'DOCTYPE with a harmless internal subset in a SOAP message',
         _with_doctype(rate, '<!DOCTYPE SOAP-ENV:Envelope [\n'
                             '  <!ELEMENT SOAP-ENV:Envelope ANY>\n]>')),
        ('external-general-entity', 'xmlrpc', 'external-entity',
         'external general entity SYSTEM "file:///etc/hostname" used in a string',
         _with_doctype(concat_xmlrpc, '<!DOCTYPE methodCall [\n'
                                      '  <!ENTITY xxe SYSTEM "file:///etc/hostname">\n]>')
         .replace(b'Hello', b'&xxe;', 1)),
        ('external-parameter-entity', 'soap11-doc-literal', 'external-entity',
         'external parameter entity SYSTEM "http://127.0.0.1:9/evil.dtd" referenced in the DTD',
         _with_doctype(rate_doc, '<!DOCTYPE soap:Envelope [\n'
                                 '  <!ENTITY % ext SYSTEM "http://127.0.0.1:9/evil.dtd">\n'
                                 '  %ext;\n]>')),
        ('billion-laughs', 'soap12-doc-literal', 'entity-expansion',
         'entities nested 10 levels x10 (10^9 "lol") referenced in a string',
         _with_doctype(concat_soap12, '\n'.join(laughs)).replace(b'Hello', b'&lol9;', 1)),
        ('deep-nesting', 'xmlrpc', 'deep-nesting',
         'XML-RPC arrays nested to an element depth of 100,002',
         _nested_xmlrpc_arrays(100000)),
    ]


def json_files():
    """(name, family, error_class, note, bytes) of every hostile JSON file."""
    def rpc(method, params):
        return '{"jsonrpc":"2.0","method":"%s","params":%s,"id":1}' % (method, params)

    return [
        ('trailing-comma-array', 'jsonrpc', 'trailing-comma',
         'trailing comma in an array', rpc('echoInts', '[[1,2,3,]]')),
        ('trailing-comma-object', 'jsonrpc', 'trailing-comma',
         'trailing comma in an object', rpc('add', '[2,3]')[:-1] + ',}'),
        ('lone-surrogate', 'jsonrpc', 'lone-surrogate',
         'string holding the lone surrogate escape \\ud800',
         rpc('concat', '["Hello","\\ud800","World"]')),
        ('nan', 'jsonrpc', 'nan', 'the non-standard literal NaN as a number',
         rpc('echoDoubles', '[[1.5,NaN,2.5]]')),
        ('infinity', 'jsonrpc', 'nan', 'the non-standard literals Infinity and -Infinity',
         rpc('echoDoubles', '[[1.5,Infinity,-Infinity]]')),
        ('deep-nesting', 'jsonrpc', 'deep-nesting', 'arrays nested 100,000 deep',
         rpc('echoArray', '[' * 100000 + ']' * 100000)),
    ]
