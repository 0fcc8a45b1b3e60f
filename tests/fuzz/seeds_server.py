#!/usr/bin/python3
"""Writes seed HTTP requests for fuzz_server into DIR: one POST per corpus message of every
family (small files only), plus a WSDL GET. Usage: seeds_server.py CORPUS_DIR OUT_DIR"""
import os
import sys

corpus, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
paths = {"xmlrpc": ("/RPC2", "text/xml"), "soap12-doc-literal": ("/soap", "application/soap+xml"),
         "jsonrpc": ("/jsonrpc", "application/json")}
n = 0
for family in sorted(os.listdir(corpus)):
    d = os.path.join(corpus, family)
    if not os.path.isdir(d) or family == "hostile":
        continue
    path, ctype = paths.get(family, ("/soap", "text/xml"))
    for name in sorted(os.listdir(d)):
        f = os.path.join(d, name)
        if name.endswith(".gz") or os.path.getsize(f) > 8192:
            continue
        body = open(f, "rb").read()
        head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {ctype}\r\n"
                f"SOAPAction: \"urn:soapbench#x\"\r\nContent-Length: {len(body)}\r\n\r\n").encode()
        open(os.path.join(out, f"{family}-{name}.http"), "wb").write(head + body)
        n += 1
open(os.path.join(out, "wsdl.http"), "wb").write(b"GET /soap?wsdl HTTP/1.1\r\nHost: x\r\n\r\n")
print(f"{n + 1} seeds in {out}")
