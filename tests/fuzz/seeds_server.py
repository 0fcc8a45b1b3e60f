#!/usr/bin/python3
"""Writes seed HTTP requests for fuzz_server into DIR: one POST per corpus message of every
family (small files only), a WSDL GET, the request-smuggling framings the server refuses
(Transfer-Encoding variants, Content-Length beside it in both orders, HTTP/1.0 chunked, no Host)
and an absolute-form target. Usage: seeds_server.py CORPUS_DIR OUT_DIR"""
import os
import sys

corpus, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
paths = {"xmlrpc": ("/RPC2", "text/xml"), "soap12-doc-literal": ("/soap", "application/soap+xml"),
         "jsonrpc": ("/jsonrpc", "application/json")}
n = 0
for family in sorted(os.listdir(corpus)):
    d = os.path.join(corpus, family)
    # wild/ nests messages per stack beside its manifest and licences (docs/corpus.md), not
    # one family per folder; tools/wild checks those messages.
    if not os.path.isdir(d) or family in ("hostile", "wild"):
        continue
    path, ctype = paths.get(family, ("/soap", "text/xml"))
    for name in sorted(os.listdir(d)):
        f = os.path.join(d, name)
        if not os.path.isfile(f) or name.endswith(".gz") or os.path.getsize(f) > 8192:
            continue
        body = open(f, "rb").read()
        head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {ctype}\r\n"
                f"SOAPAction: \"urn:soapbench#x\"\r\nContent-Length: {len(body)}\r\n\r\n").encode()
        open(os.path.join(out, f"{family}-{name}.http"), "wb").write(head + body)
        n += 1
open(os.path.join(out, "wsdl.http"), "wb").write(b"GET /soap?wsdl HTTP/1.1\r\nHost: x\r\n\r\n")
n += 1

# Request smuggling through the framing (RFC 9112 §6.1, §6.3; docs/conformance.md "Hostile
# input and limits"): each body is itself a complete request, which the server must never run as
# a second one.
inner_body = b'{"jsonrpc":"2.0","method":"add","params":[2,3],"id":1}'
inner = (b"POST /jsonrpc HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
         b"Content-Length: %d\r\n\r\n" % len(inner_body)) + inner_body
chunked = b"%x\r\n" % len(inner) + inner + b"\r\n0\r\n\r\n"
framings = {
    "te-gzip": (b"Transfer-Encoding: gzip\r\n", inner),
    "te-identity": (b"Transfer-Encoding: identity\r\n", inner),
    "te-xchunked": (b"Transfer-Encoding: xchunked\r\n", inner),
    "te-chunked-identity": (b"Transfer-Encoding: chunked, identity\r\n", inner),
    "te-gzip-chunked": (b"Transfer-Encoding: gzip, chunked\r\n", chunked),
    "te-two-fields": (b"Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n", chunked),
    "cl-then-te": (b"Content-Length: %d\r\nTransfer-Encoding: chunked\r\n" % len(chunked),
                   chunked),
    "te-then-cl": (b"Transfer-Encoding: chunked\r\nContent-Length: %d\r\n" % len(chunked),
                   chunked),
    "te-gzip-then-cl": (b"Transfer-Encoding: gzip\r\nContent-Length: 5\r\n", inner),
    "te-http10": (b"Transfer-Encoding: chunked\r\n", chunked),
    "no-host": (b"Content-Length: %d\r\n" % len(inner_body), inner_body),
}
for name, (fields, body) in framings.items():
    version = b"HTTP/1.0" if name == "te-http10" else b"HTTP/1.1"
    host = b"" if name == "no-host" else b"Host: x\r\n"
    head = b"POST /jsonrpc " + version + b"\r\n" + host + b"Content-Type: application/json\r\n"
    open(os.path.join(out, f"smuggle-{name}.http"), "wb").write(head + fields + b"\r\n" + body)
    n += 1
absolute = (b"POST http://127.0.0.1/jsonrpc HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
            b"\r\nContent-Length: %d\r\n\r\n" % len(inner_body)) + inner_body
open(os.path.join(out, "absolute-form.http"), "wb").write(absolute)
n += 1
print(f"{n} seeds in {out}")
