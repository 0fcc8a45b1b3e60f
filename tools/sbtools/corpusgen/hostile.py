"""Hostile inputs: messages a parser must reject (or, for DTDs, that policy rejects), and
well-formed resource attacks whose cost the tests bound (docs/corpus.md "Hostile files").

Every file is derived from a real message of the service (families.encode) by one edit, so
that the edit is the only thing wrong with it. Truncations are generated systematically: one
message that holds every kind of markup, cut at each structural point and before each end
tag."""

import re

from . import inputs
from .contract import Message, StyledStr
from .families import DEFAULT_STYLE, encode

KIB = 1024
MIB = 1024 * KIB

# Where the external-entity files point: nothing may ever read or fetch them. Port 9 is
# "discard"; tests/hostile_test.cpp listens there (or on its own port) and fails on a connection.
HOSTNAME_FILE = 'file:///etc/hostname'
EVIL_HOST = 'http://127.0.0.1:9/'


def _msg(family, op, params, style=DEFAULT_STYLE):
    return encode(family, Message(op, 'call', params), style, with_digest=False)[0]


def _cut_after(data, marker, extra=0):
    return data[:data.index(marker) + len(marker) + extra]


def _with_doctype(data, doctype):
    # After the XML declaration and its newline (compact messages have none).
    decl_end = data.index(b'?>') + 2
    if data[decl_end:decl_end + 1] == b'\n':
        decl_end += 1
    return data[:decl_end] + doctype.encode() + b'\n' + data[decl_end:]


def _replace_once(data, old, new):
    assert data.count(old) >= 1, old
    return data.replace(old, new, 1)


def _nested_xmlrpc_arrays(depth):
    # methodCall/params/param + value/array/data per level: element depth >= depth.
    levels = (depth - 3 + 2) // 3
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<methodCall><methodName>echoArray'
            '</methodName><params><param>' + '<value><array><data>' * levels
            + '</data></array></value>' * levels + '</param></params></methodCall>\n').encode()


# ---------------------------------------------------------------- truncation

def _markup_message(family):
    """concat with every kind of markup: XML declaration, a PI, attributes (SOAP), a CDATA
    section, a comment, character and entity references, plain text."""
    s1 = StyledStr('a<b & c', xml=[('cdata', 'a<b & c')])
    s2 = StyledStr('caf\u00e9 & "x"', xml=[('text', 'caf'), ('dec', '\u00e9'), ('text', ' '),
                                            ('entity', '&'), ('text', ' '), ('entity', '"'),
                                            ('text', 'x'), ('entity', '"')])
    data = _msg(family, 'concat', [s1, s2, 'World'], DEFAULT_STYLE._replace(comments=True))
    if b'<?soapbench' not in data:  # SOAP `comments` variants have no PI (families.py)
        data = _replace_once(data, b'?>\n', b'?>\n<?soapbench variant="comments"?>\n')
    return data


def _pi_after_comment(data):
    """A comment, then a PI, after the XML declaration (tinyxml2 accepts PIs only before
    anything else)."""
    decl_end = data.index(b'?>\n') + 3
    return (data[:decl_end] + b'<!-- a comment first -->\n<?app-hint keep="yes"?>\n'
            + data[decl_end:])


def _pi_files():
    """PIs in a message: legal in XML-RPC (decoded like the message without them), forbidden
    in SOAP (SOAP 1.1 Section 3, SOAP 1.2 Part 1 Section 5: refused at the decode level)."""
    out = []
    for family, label, forbidden in [('xmlrpc', 'xmlrpc', False),
                                     ('soap11-rpc-literal', 'soap11', True),
                                     ('soap12-doc-literal', 'soap12', True)]:
        data = _msg(family, 'concat', ['Hello', ', ', 'World'])
        rule = ('SOAP forbids PIs: the decode level refuses it' if forbidden else
                'legal in XML-RPC: decodes as concat("Hello", ", ", "World")')
        out.append(('pi-after-comment-' + label, family, 'processing-instruction',
                    'a comment, then a processing instruction, after the XML declaration; '
                    + rule, _pi_after_comment(data)))
        out.append(('pi-in-content-' + label, family, 'processing-instruction',
                    'a processing instruction inside a string\'s text (Hel<?pi?>lo); ' + rule,
                    _replace_once(data, b'Hello', b'Hel<?app-hint inside?>lo')))
    return out


# (name, what the cut is inside of / after, SOAP marker, XML-RPC marker, bytes of the marker
# kept): the cut keeps everything before the marker plus `keep` of its bytes (negative: all but
# that many). Each marker occurs once in its message; ROOT stands for the root element's name.
# XML-RPC has no attributes, so the attribute points exist only in SOAP (marker None).
_ATTR = b'SOAP-ENV:encodingStyle="http'
_CUT_POINTS = [
    ('in-decl', 'inside the XML declaration', b'<?xml version', b'<?xml version', 10),
    ('after-decl', 'right after the XML declaration', b'?>\n<?soapbench', b'?>\n<?soapbench', 3),
    ('in-pi', 'inside a processing instruction', b'<?soapbench variant', b'<?soapbench variant',
     15),
    ('in-start-tag-name', 'inside the start tag name of the root element', b'<ROOT', b'<ROOT',
     4),
    ('in-start-tag', 'inside a start tag without attributes, before its ">"',
     b'<SOAP-ENV:Body>', b'<methodName>', -1),
    ('after-start-tag-name', 'after a start tag name, before its attributes',
     b'<ns1:concat xmlns', None, 11),
    ('in-attr-name', 'inside an attribute name', _ATTR, None, 14),
    ('after-attr-name', 'after an attribute name, before "="', _ATTR, None, 22),
    ('after-attr-eq', 'after "=", before the attribute value', _ATTR, None, 23),
    ('in-attr-value', 'inside an attribute value', _ATTR, None, 27),
    ('after-attr-value', 'after an attribute value, before ">"',
     b'/soap/encoding/">\n      <s1', None, 16),
    ('in-cdata-open', 'inside a CDATA opener "<![CDATA["', b'<![CDATA[', b'<![CDATA[', 5),
    ('in-cdata', 'inside a CDATA section', b'<![CDATA[a<b & c', b'<![CDATA[a<b & c', 12),
    ('in-cdata-close', 'inside a CDATA terminator "]]>"', b'c]]>', b'c]]>', 3),
    ('in-comment-open', 'inside a comment opener "<!--"', b'<!-- the', b'<!-- the', 3),
    ('in-comment', 'inside a comment', b'<!-- the second', b'<!-- the second', 12),
    ('in-comment-close', 'inside a comment terminator "-->"', b'follows -->', b'follows -->',
     10),
    ('in-char-ref', 'inside a character reference', b'&#233;', b'&#233;', 4),
    ('in-entity-ref', 'inside an entity reference', b'&amp;', b'&amp;', 3),
    ('in-text', 'inside character data', b'World<', b'World<', 3),
    ('in-end-tag', 'inside an end tag', b'</s3>', b'</methodName>', 3),
    ('in-root-end-tag', 'inside the end tag of the root element', b'</ROOT>', b'</ROOT>', 6),
    ('in-root-end-tag-gt', 'before the ">" of the root end tag', b'</ROOT>', b'</ROOT>', -1),
]


def _truncations(family, label):
    data = _markup_message(family)
    root = re.search(rb'\n<([^ >?]+)', data).group(1)
    out = []
    for name, where, soap_marker, xmlrpc_marker, keep in _CUT_POINTS:
        marker = xmlrpc_marker if family == 'xmlrpc' else soap_marker
        if marker is None:
            continue
        marker = marker.replace(b'ROOT', root)
        assert data.count(marker) == 1, (family, marker)
        if keep < 0:
            keep += len(marker)
        assert 0 < keep < len(marker), name
        cut = data[:data.index(marker) + keep]
        out.append(('truncated-%s-%s' % (label, name), family, 'truncated',
                    'ends %s (%s)' % (where, _tail(cut)), cut))
    # Before every end tag, in document order.
    ends = list(re.finditer(rb'</([^>]+)>', data))
    for i, m in enumerate(ends, 1):
        qname = m.group(1).decode()
        out.append(('truncated-%s-before-end-%02d-%s'
                    % (label, i, qname.replace(':', '-').lower()), family, 'truncated',
                    'ends just before end tag %d of %d, </%s>' % (i, len(ends), qname),
                    data[:m.start()]))
    return out


def _tail(cut):
    t = cut[-12:].decode('utf-8', 'replace').replace('\n', '\\n')
    return 'last bytes "%s"' % t


# ---------------------------------------------------------------- XML

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
    unicode_rpclit = _msg('soap11-rpc-literal', 'concat', list(inputs.UNICODE_STRINGS))

    laughs = ['<!DOCTYPE env:Envelope [', '  <!ENTITY lol0 "lol">']
    for i in range(1, 10):
        laughs.append('  <!ENTITY lol%d "%s">' % (i, ('&lol%d;' % (i - 1)) * 10))
    laughs.append(']>')
    laughs = '\n'.join(laughs)

    def utf8(name, bad, note, data=concat_rpclit, old=b'Hello', new=None):
        new = new if new is not None else b'Hel' + bad + b'lo'
        return ('invalid-utf8-' + name, 'soap11-rpc-literal', 'invalid-utf8', note,
                _replace_once(data, old, new))

    files = [
        # --- truncated (the first four and unclosed-root predate the systematic set)
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
        ('truncated-empty', None, 'truncated', 'zero bytes: no root element', b''),
        ('truncated-whitespace-only', None, 'truncated',
         'only whitespace (spaces and newlines): no root element', b'  \n\n  \n'),
    ]
    files += _truncations('soap11-rpc-encoded', 'soap')
    files += _truncations('xmlrpc', 'xmlrpc')

    files += [
        # --- mismatched and unclosed tags
        ('mismatched-tag', 'soap12-doc-literal', 'mismatched-tag',
         '<s1> closed by </s2>', concat_soap12.replace(b'</s1>', b'</s2>', 1)),
        ('mismatched-tag-xmlrpc', 'xmlrpc', 'mismatched-tag',
         '<string> closed by </int>', _replace_once(concat_xmlrpc, b'</string>', b'</int>')),
        ('mismatched-tag-prefix', 'soap11-rpc-literal', 'mismatched-tag',
         '<SOAP-ENV:Body> closed by </soap:Body> (other prefix, same local name; soap is '
         'undeclared)', _replace_once(concat_rpclit, b'</SOAP-ENV:Body>', b'</soap:Body>')),
        ('mismatched-tag-case', 'soap11-rpc-literal', 'mismatched-tag',
         '<s3> closed by </S3> (names are case-sensitive)',
         _replace_once(concat_rpclit, b'</s3>', b'</S3>')),
        ('unclosed-element', 'soap11-rpc-literal', 'mismatched-tag',
         '<s2> never closed; its parent </ns1:concat> closes while it is open',
         _replace_once(concat_rpclit, b', </s2>', b', ')),
        ('overlapping-tags', 'xmlrpc', 'mismatched-tag',
         '<value><string>Hello</value></string>: end tags in the wrong order',
         _replace_once(concat_xmlrpc, b'<value><string>Hello</string></value>',
                       b'<value><string>Hello</value></string>')),
        ('stray-end-tag', 'soap11-rpc-literal', 'mismatched-tag',
         'an end tag </s9> with no start tag, inside the operation element',
         _replace_once(concat_rpclit, b'</s3>', b'</s3></s9>')),
        ('end-tag-after-root', 'soap11-rpc-literal', 'mismatched-tag',
         'a second </SOAP-ENV:Envelope> after the root element is closed',
         concat_rpclit + b'</SOAP-ENV:Envelope>\n'),

        # --- invalid UTF-8 (in text unless the note says otherwise)
        ('invalid-utf8-overlong', 'soap11-rpc-literal', 'invalid-utf8',
         'overlong encoding C0 AF of "/" in text',
         concat_rpclit.replace(b'Hello', b'Hel\xc0\xaflo', 1)),
        utf8('overlong-lt', b'\xc0\xbc', 'overlong 2-byte encoding C0 BC of "<" in text'),
        utf8('overlong-lt-3byte', b'\xe0\x80\xbc', 'overlong 3-byte encoding E0 80 BC of "<"'),
        utf8('overlong-lt-4byte', b'\xf0\x80\x80\xbc',
             'overlong 4-byte encoding F0 80 80 BC of "<"'),
        utf8('overlong-letter', b'\xc1\x81', 'overlong 2-byte encoding C1 81 of "A" in text'),
        ('invalid-utf8-surrogate', 'soap11-rpc-literal', 'invalid-utf8',
         'UTF-16 surrogate U+D800 encoded in UTF-8 (ED A0 80) in text',
         concat_rpclit.replace(b'Hello', b'Hel\xed\xa0\x80lo', 1)),
        utf8('surrogate-low', b'\xed\xb0\x80',
             'UTF-16 low surrogate U+DC00 encoded in UTF-8 (ED B0 80)'),
        utf8('surrogate-pair', b'\xed\xa0\xbd\xed\xb8\x80',
             'U+1F600 as a surrogate pair, each half encoded in UTF-8 (CESU-8: ED A0 BD ED B8 80)'),
        ('invalid-utf8-cut', 'soap11-rpc-literal', 'invalid-utf8',
         'multi-byte sequence cut short (E6 97, then "<")',
         concat_rpclit.replace(b'World', b'World\xe6\x97', 1)),
        utf8('cut-middle', b'\xe6\x97',
             'multi-byte sequence cut short in the middle of text (E6 97, then "l")'),
        ('invalid-utf8-cut-at-end', 'soap11-rpc-literal', 'invalid-utf8',
         'complete message, then a multi-byte sequence cut at the end of the file (E6 97)',
         concat_rpclit + b'\xe6\x97'),
        utf8('lone-continuation', b'\x80', 'a continuation byte 80 with no lead byte'),
        utf8('5byte', b'\xf8\x88\x80\x80\x80', 'obsolete 5-byte form F8 88 80 80 80'),
        utf8('6byte', b'\xfc\x84\x80\x80\x80\x80', 'obsolete 6-byte form FC 84 80 80 80 80'),
        utf8('fe', b'\xfe', 'byte FE (never valid in UTF-8)'),
        utf8('ff', b'\xff', 'byte FF (never valid in UTF-8)'),
        utf8('above-max', b'\xf4\x90\x80\x80',
             'F4 90 80 80: code point U+110000, above the Unicode range'),
        utf8('in-name', b'', 'overlong C0 B1 ("1") in an element name, start and end tag',
             old=b'<s1>Hello</s1>', new=b'<s\xc0\xb1>Hello</s\xc0\xb1>'),
        ('invalid-utf8-in-attribute', 'soap11-rpc-encoded', 'invalid-utf8',
         'byte FF in an attribute value (SOAP-ENV:encodingStyle)',
         _replace_once(concat_enc, b'/soap/encoding/"', b'/soap/encoding/\xff"')),

        # --- undefined entities
        ('undefined-entity', 'soap11-rpc-encoded', 'undefined-entity',
         'reference to the undeclared entity &bogus;',
         concat_enc.replace(b'Hello', b'Hello&bogus;', 1)),
        ('undefined-entity-attribute', 'soap11-rpc-encoded', 'undefined-entity',
         'reference to the undeclared entity &bogus; in an attribute value',
         _replace_once(concat_enc, b'/soap/encoding/"', b'/soap/encoding/&bogus;"')),
        ('undefined-entity-html', 'xmlrpc', 'undefined-entity',
         'the HTML entity &nbsp; (not predefined in XML) in a string',
         _replace_once(concat_xmlrpc, b'Hello', b'Hello&nbsp;')),

        # --- characters XML forbids: NUL, C0 controls, references to them
        ('nul-in-text', 'soap11-rpc-literal', 'invalid-char', 'a NUL byte in character data',
         _replace_once(concat_rpclit, b'Hello', b'Hel\x00lo')),
        ('nul-in-tag', 'xmlrpc', 'invalid-char', 'a NUL byte inside a start tag name',
         _replace_once(concat_xmlrpc, b'<methodName>', b'<method\x00Name>')),
        ('control-char-in-text', 'soap11-rpc-literal', 'invalid-char',
         'the C0 control U+0001 in character data',
         _replace_once(concat_rpclit, b'Hello', b'Hel\x01lo')),
        ('char-ref-nul', 'soap11-rpc-literal', 'invalid-char',
         'character reference &#0; (NUL is not an XML character)',
         _replace_once(concat_rpclit, b'Hello', b'Hel&#0;lo')),
        ('char-ref-surrogate', 'soap11-rpc-literal', 'invalid-char',
         'character reference &#xD800; (a surrogate is not an XML character)',
         _replace_once(concat_rpclit, b'Hello', b'Hel&#xD800;lo')),
        ('char-ref-out-of-range', 'soap11-rpc-literal', 'invalid-char',
         'character reference &#x110000; (above U+10FFFF)',
         _replace_once(concat_rpclit, b'Hello', b'Hel&#x110000;lo')),

        # --- DTDs (well-formed; rejected by policy)
        ('doctype', 'soap11-rpc-encoded', 'doctype',
         'DOCTYPE with a harmless internal subset in a SOAP message',
         _with_doctype(rate, '<!DOCTYPE SOAP-ENV:Envelope [\n'
                             '  <!ELEMENT SOAP-ENV:Envelope ANY>\n]>')),
        ('doctype-no-subset', 'soap12-doc-literal', 'doctype',
         'DOCTYPE with neither internal nor external subset in a SOAP 1.2 message',
         _with_doctype(concat_soap12, '<!DOCTYPE env:Envelope>')),
        ('doctype-xmlrpc', 'xmlrpc', 'doctype',
         'DOCTYPE with a harmless internal subset in an XML-RPC call',
         _with_doctype(concat_xmlrpc, '<!DOCTYPE methodCall [\n'
                                      '  <!ELEMENT methodCall ANY>\n]>')),
        ('doctype-internal-entity', 'soap11-rpc-literal', 'doctype',
         'internal entity &greeting; ("Bonjour") declared in the DTD and used in a string',
         _with_doctype(concat_rpclit, '<!DOCTYPE SOAP-ENV:Envelope [\n'
                                      '  <!ENTITY greeting "Bonjour">\n]>')
         .replace(b'Hello', b'&greeting;', 1)),

        # --- external entities: never read, never fetched
        ('external-general-entity', 'xmlrpc', 'external-entity',
         'external general entity SYSTEM "file:///etc/hostname" used in a string',
         _with_doctype(concat_xmlrpc, '<!DOCTYPE methodCall [\n'
                                      '  <!ENTITY xxe SYSTEM "%s">\n]>' % HOSTNAME_FILE)
         .replace(b'Hello', b'&xxe;', 1)),
        ('external-general-entity-soap', 'soap11-rpc-literal', 'external-entity',
         'external general entity SYSTEM "file:///etc/hostname" used in a SOAP parameter',
         _with_doctype(concat_rpclit, '<!DOCTYPE SOAP-ENV:Envelope [\n'
                                      '  <!ENTITY xxe SYSTEM "%s">\n]>' % HOSTNAME_FILE)
         .replace(b'Hello', b'&xxe;', 1)),
        ('external-general-entity-http', 'soap12-doc-literal', 'external-entity',
         'external general entity SYSTEM "http://127.0.0.1:9/evil.xml" used in a parameter',
         _with_doctype(concat_soap12, '<!DOCTYPE env:Envelope [\n'
                                      '  <!ENTITY xxe SYSTEM "%sevil.xml">\n]>' % EVIL_HOST)
         .replace(b'Hello', b'&xxe;', 1)),
        ('external-general-entity-public', 'soap11-doc-literal', 'external-entity',
         'external general entity PUBLIC "-//soapbench//evil" "http://127.0.0.1:9/evil.xml"',
         _with_doctype(rate_doc, '<!DOCTYPE soap:Envelope [\n'
                                 '  <!ENTITY xxe PUBLIC "-//soapbench//evil" "%sevil.xml">\n]>'
                       % EVIL_HOST).replace(b'USA', b'&xxe;', 1)),
        ('external-parameter-entity', 'soap11-doc-literal', 'external-entity',
         'external parameter entity SYSTEM "http://127.0.0.1:9/evil.dtd" referenced in the DTD',
         _with_doctype(rate_doc, '<!DOCTYPE soap:Envelope [\n'
                                 '  <!ENTITY % ext SYSTEM "http://127.0.0.1:9/evil.dtd">\n'
                                 '  %ext;\n]>')),
        ('external-parameter-entity-file', 'soap11-rpc-literal', 'external-entity',
         'external parameter entity SYSTEM "file:///etc/hostname" referenced in the DTD '
         '(its text would surface in a DTD syntax error)',
         _with_doctype(concat_rpclit, '<!DOCTYPE SOAP-ENV:Envelope [\n'
                                      '  <!ENTITY %% ext SYSTEM "%s">\n'
                                      '  %%ext;\n]>' % HOSTNAME_FILE)),
        ('external-dtd-subset', 'soap11-doc-literal', 'external-entity',
         'external DTD subset SYSTEM "http://127.0.0.1:9/soap.dtd"',
         _with_doctype(add_doc, '<!DOCTYPE soap:Envelope SYSTEM "%ssoap.dtd">' % EVIL_HOST)),

        # --- entity expansion
        ('billion-laughs', 'soap12-doc-literal', 'entity-expansion',
         'entities nested 10 levels x10 (10^9 "lol") referenced in a string',
         _with_doctype(concat_soap12, laughs).replace(b'Hello', b'&lol9;', 1)),
        ('billion-laughs-attribute', 'soap12-doc-literal', 'entity-expansion',
         'entities nested 10 levels x10 (10^9 "lol") referenced in an attribute value',
         _with_doctype(concat_soap12, laughs).replace(
             b'<env:Envelope ', b'<env:Envelope sb:note="&lol9;" xmlns:sb="urn:soapbench:note" ',
             1)),
        ('quadratic-blowup', 'soap11-doc-literal', 'entity-expansion',
         'one 50 KiB internal entity referenced 50,000 times (2.4 GiB expanded) in '
         'echoStrings items', _quadratic_blowup()),

        # --- deep nesting
        ('deep-nesting', 'xmlrpc', 'deep-nesting',
         'XML-RPC arrays nested to an element depth of 100,002',
         _nested_xmlrpc_arrays(100000)),
        ('deep-nesting-soap', 'soap11-doc-literal', 'deep-nesting',
         'plain elements <x> nested 100,000 deep inside a SOAP parameter (depth 100,004)',
         _replace_once(add_doc, b'<a>2</a>',
                       b'<a>' + b'<x>' * 100000 + b'2' + b'</x>' * 100000 + b'</a>')),

        # --- well-formed resource attacks (the tests bound their time and memory)
        ('large-attribute', 'soap11-rpc-encoded', 'large-attribute',
         'a 16 MiB attribute value (sb:note on the Envelope)',
         _replace_once(rate, b'<SOAP-ENV:Envelope ',
                       b'<SOAP-ENV:Envelope xmlns:sb="urn:soapbench:note" sb:note="'
                       + b'A' * (16 * MIB) + b'" ')),
        ('many-attributes', 'soap11-rpc-encoded', 'many-attributes',
         '100,000 distinct attributes a0..a99999 on the Envelope',
         _replace_once(rate, b'<SOAP-ENV:Envelope ',
                       b'<SOAP-ENV:Envelope ' + b''.join(b'a%d="" ' % i for i in range(100000)))),

        # --- encoding declarations that lie
        ('wrong-encoding-utf16-decl', 'soap11-rpc-literal', 'wrong-encoding',
         'declares encoding="UTF-16" (no BOM) while the bytes are UTF-8 with multi-byte text',
         _replace_once(unicode_rpclit, b'encoding="UTF-8"', b'encoding="UTF-16"')),
        ('wrong-encoding-latin1-decl', 'soap11-rpc-literal', 'wrong-encoding',
         'declares encoding="ISO-8859-1" while the bytes are UTF-8 with multi-byte text '
         '(well-formed as Latin-1: read as declared, the text is mojibake)',
         _replace_once(unicode_rpclit, b'encoding="UTF-8"', b'encoding="ISO-8859-1"')),
        ('wrong-encoding-utf16-doc', 'soap11-rpc-literal', 'wrong-encoding',
         'a UTF-16LE document (with BOM) whose XML declaration says encoding="UTF-8"',
         b'\xff\xfe' + unicode_rpclit.decode('utf-8').encode('utf-16-le')),
    ]
    return files + _pi_files()


def _quadratic_blowup():
    n, size = 50000, 50 * KIB
    data = _msg('soap11-doc-literal', 'echoStrings', [['Q'] * n],
                DEFAULT_STYLE._replace(pretty=False))
    data = data.replace(b'<item>Q</item>', b'<item>&a;</item>')
    assert data.count(b'&a;') == n
    return _with_doctype(data, '<!DOCTYPE soap:Envelope [<!ENTITY a "%s">]>' % ('a' * size))


# ---------------------------------------------------------------- JSON

def _json_truncations():
    concat = encode('jsonrpc', Message('concat', 'call', inputs.json_escape_strings()),
                    with_digest=False)[0]
    rate = encode('jsonrpc', Message('getRate', 'response', 1.25), with_digest=False)[0]
    yes = encode('jsonrpc', Message('boolean', 'response', True), with_digest=False)[0]
    # (name, where, message, marker, bytes of the marker kept)
    points = [
        ('in-key', 'inside a key', concat, b'"jsonrpc"', 4),
        ('after-key', 'after a key, before ":"', concat, b'"jsonrpc"', 9),
        ('after-colon', 'after ":", before the value', concat, b'"jsonrpc":', 10),
        ('in-string', 'inside a string value', concat, b'"2.0"', 3),
        ('after-comma', 'after a "," between members', concat, b',"method"', 1),
        ('in-array', 'inside an array, after a ","', concat, b'end",', 5),
        ('in-escape', 'inside a \\n escape', concat, b'\\nline2', 1),
        ('in-unicode-escape', 'inside a \\u escape', concat, b'\\u00e9', 4),
        ('in-surrogate-pair', 'between the two halves of a \\u surrogate pair', concat,
         b'\\ud83d\\ude00', 6),
        ('before-array-end', 'before the "]" of the params array', concat, b'],"id"', 0),
        ('before-object-end', 'before the final "}"', concat, b'1}', 1),
        ('in-number', 'inside a number (1.2 of 1.25)', rate, b'1.25', 3),
        ('in-literal', 'inside the literal true', yes, b'true', 2),
    ]
    out = [('truncated-empty', None, 'truncated', 'zero bytes: no value', b''),
           ('truncated-whitespace-only', None, 'truncated', 'only whitespace: no value',
            b' \n\t\n')]
    for name, where, data, marker, keep in points:
        assert data.count(marker) == 1, marker
        cut = data[:data.index(marker) + keep]
        out.append(('truncated-' + name, 'jsonrpc', 'truncated',
                    'ends %s (%s)' % (where, _tail(cut)), cut))
    return out


def json_files():
    """(name, family, error_class, note, bytes) of every hostile JSON file."""
    def rpc(method, params):
        return '{"jsonrpc":"2.0","method":"%s","params":%s,"id":1}' % (method, params)

    def person(extra=''):
        return ('{"id":1,%s"name":"Ana","weight":61.5,"birthdate":"1975-02-14T08:30:00",'
                '"children":[]}' % extra)

    files = [
        ('trailing-comma-array', 'jsonrpc', 'trailing-comma',
         'trailing comma in an array', rpc('echoInts', '[[1,2,3,]]')),
        ('trailing-comma-object', 'jsonrpc', 'trailing-comma',
         'trailing comma in an object', rpc('add', '[2,3]')[:-1] + ',}'),
        ('lone-surrogate', 'jsonrpc', 'lone-surrogate',
         'string holding the lone surrogate escape \\ud800',
         rpc('concat', '["Hello","\\ud800","World"]')),
        ('lone-surrogate-low', 'jsonrpc', 'lone-surrogate',
         'string holding the lone low surrogate escape \\udc00',
         rpc('concat', '["Hello","\\udc00","World"]')),
        ('lone-surrogate-unpaired', 'jsonrpc', 'lone-surrogate',
         'high surrogate escape \\ud800 followed by \\u0041 (not a low surrogate)',
         rpc('concat', '["Hello","\\ud800\\u0041","World"]')),
        ('nan', 'jsonrpc', 'nan', 'the non-standard literal NaN as a number',
         rpc('echoDoubles', '[[1.5,NaN,2.5]]')),
        ('infinity', 'jsonrpc', 'nan', 'the non-standard literals Infinity and -Infinity',
         rpc('echoDoubles', '[[1.5,Infinity,-Infinity]]')),
        ('minus-infinity', 'jsonrpc', 'nan', 'the non-standard literal -Infinity alone',
         rpc('echoDoubles', '[[1.5,-Infinity]]')),
        ('number-overflow', 'jsonrpc', 'number-overflow',
         'the number 1e999999 (valid JSON grammar, beyond the range of a double)',
         rpc('echoDoubles', '[[1.5,1e999999]]')),
        ('number-overflow-negative', 'jsonrpc', 'number-overflow',
         'the number -1e999999 (valid JSON grammar, beyond the range of a double)',
         rpc('echoDoubles', '[[1.5,-1e999999]]')),
        ('deep-nesting', 'jsonrpc', 'deep-nesting', 'arrays nested 100,000 deep',
         rpc('echoArray', '[' * 100000 + ']' * 100000)),
        ('deep-nesting-objects', 'jsonrpc', 'deep-nesting',
         'objects {"a": ...} nested 100,000 deep in the params array',
         rpc('echoArray', '[' + '{"a":' * 100000 + '1' + '}' * 100000 + ']')),
        ('many-members', 'jsonrpc', 'many-members',
         'a Person struct with 100,000 extra members m0..m99999 (1 MB): nlohmann::ordered_json '
         'and Poco::JSON in insertion order search keys linearly, quadratic in members',
         rpc('complex', '[[%s]]' % person(''.join('"m%d":0,' % i for i in range(100000))))),
        ('duplicate-key-method', 'jsonrpc', 'duplicate-key',
         '"method" twice (getRate, then concat; both fit the params): JSON allows duplicate '
         'names, which one wins is up to the parser',
         '{"jsonrpc":"2.0","method":"getRate","params":["USA","japan"],"method":"concat",'
         '"id":1}'),
        ('duplicate-key-struct', 'jsonrpc', 'duplicate-key',
         'a Person struct with "id" twice (1, then 2): JSON allows duplicate names',
         rpc('complex', '[[%s]]' % person('"id":2,'))),
        ('zero-significand-exponents', 'jsonrpc', 'number-edge',
         'valid zeros whose exponent is outside RapidJSON\'s fast path (-0e99, 0e-30, 0E+40): '
         'found by the fuzz_decode smoke, RapidJSON 1.1.0 parses -0e99 as -6.5e296 (clz(0)); '
         'every adapter must accept and decode zeros',
         rpc('echoDoubles', '[[1.5,-0e99,0e-30,0E+40]]')),
        ('invalid-escape-x', 'jsonrpc', 'invalid-escape', 'the escape \\x41 (not JSON)',
         rpc('concat', '["Hello","\\x41","World"]')),
        ('invalid-escape-short-u', 'jsonrpc', 'invalid-escape',
         'a \\u escape with two hex digits (\\u12)', rpc('concat', '["Hello","\\u12","World"]')),
        ('invalid-escape-upper-u', 'jsonrpc', 'invalid-escape',
         'the escape \\U0041 (JSON has only lowercase \\u)',
         rpc('concat', '["Hello","\\U0041","World"]')),
        ('control-char-in-string', 'jsonrpc', 'control-char',
         'the raw control character U+0001 in a string', rpc('concat', '["Hel\x01lo",", ","W"]')),
        ('newline-in-string', 'jsonrpc', 'control-char', 'a raw line feed in a string',
         rpc('concat', '["Hel\nlo",", ","World"]')),
        ('nul-in-string', 'jsonrpc', 'control-char', 'a raw NUL byte in a string',
         rpc('concat', '["Hel\x00lo",", ","World"]')),
        ('invalid-utf8-overlong', 'jsonrpc', 'invalid-utf8',
         'overlong encoding C0 AF of "/" in a string',
         rpc('concat', '["Hel@@lo",", ","World"]').encode().replace(b'@@', b'\xc0\xaf')),
        ('invalid-utf8-surrogate', 'jsonrpc', 'invalid-utf8',
         'UTF-16 surrogate U+D800 encoded in UTF-8 (ED A0 80) in a string',
         rpc('concat', '["Hel@@lo",", ","World"]').encode().replace(b'@@', b'\xed\xa0\x80')),
        ('invalid-utf8-cut', 'jsonrpc', 'invalid-utf8',
         'multi-byte sequence cut short (E6 97, then the closing quote)',
         rpc('concat', '["Hello@@",", ","World"]').encode().replace(b'@@', b'\xe6\x97')),
        ('nul-after-message', 'jsonrpc', 'trailing-content',
         'a NUL byte and text after a complete message: nlohmann/json 3.11.2 takes a NUL where a '
         'token may start for the end of the input', rpc('add', '[2,3]') + '\x00xyz'),
        ('text-after-message', 'jsonrpc', 'trailing-content',
         'text after a complete message', rpc('add', '[2,3]') + ' xyz'),
        ('text-after-root-string', 'jsonrpc', 'trailing-content',
         'content right after a root string (""x): simdjson 3.0.1 On-Demand does not check what '
         'follows a root string', '""x'),
        ('bom', 'jsonrpc', 'bom',
         'a UTF-8 byte order mark before the message (RFC 8259: must not be sent, may be '
         'ignored)', b'\xef\xbb\xbf' + rpc('add', '[2,3]').encode()),
    ]
    return files + _json_truncations()
