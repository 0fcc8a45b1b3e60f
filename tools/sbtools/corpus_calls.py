"""Corpus calls as HTTP requests, and the check of a server's answer against the corpus.

Shared by tools/soapbench_locustfile.py, tools/server_load and tools/load_bench. A corpus
call is a family and a call name (corpus/<family>/<name>.call.xml or .json: `getRate`,
`echoBase64.100`). An answer is right when it is HTTP 200 and `soapbench decode` turns it into
the canonical JSON that corpus/manifest.json holds for <name>.response.* (so prefixes, layout,
<i4> or <int> do not matter; the value does). Calls whose answer the server makes up (`now`,
`respond`, `receiveString`) have no corpus answer to match. Standard library only.
"""
import functools
import json
import os
import subprocess
import tempfile
from collections import namedtuple

from sbtools.corpusgen import contract  # the operations and their namespaces
from sbtools.corpusgen import families  # the family list, in corpus order
from sbtools.paths import CORPUS_DIR

CORPUS = CORPUS_DIR

# How a protocol travels (docs/service.md): the path on `soapbench serve`, the protocol name of
# `soapbench decode`, the Content-Type and how the SOAP action is sent (None: not at all).
Family = namedtuple("Family", "path protocol content_type action")
PROTOCOLS = {
    "soap11": Family("/soap", "soap11", "text/xml; charset=utf-8", "SOAPAction"),
    "soap12": Family("/soap", "soap12", "application/soap+xml; charset=utf-8", "action"),
    "xmlrpc": Family("/RPC2", "xmlrpc", "text/xml", None),
    "jsonrpc": Family("/jsonrpc", "jsonrpc", "application/json", None),
}


def protocol_of(family):
    """A family's protocol: the part of its name before the style (soap11-doc-literal -> soap11)."""
    return family.split("-", 1)[0]


def style_of(family):
    """A SOAP family's style (soap11-rpc-encoded -> rpc-encoded), None for the others."""
    parts = family.split("-", 1)
    return parts[1] if len(parts) == 2 else None


# Every family of the corpus (sbtools/corpusgen/families.py) with how it travels.
FAMILIES = {f: PROTOCOLS[protocol_of(f)] for f in families.FAMILIES}
XML_FAMILIES = list(families.XML_FAMILIES)

# A corpus call: family, call name, the operation it calls, the request's path, headers, body
# and the canonical JSON of the expected answer (corpus/manifest.json).
CorpusCall = namedtuple("CorpusCall", "family name operation path headers body expected")

# Different answers remembered per AnswerCheck: a server answers a fixed call with the same
# bytes, so each is decoded once; bounded for servers that do not.
CHECK_CACHE = 64


def operation_of(name):
    """The operation a corpus call name calls: `echoBase64.100` -> `echoBase64`."""
    return name.split(".", 1)[0]


def headers(family, operation):
    """The HTTP headers of a call: Content-Type, and the SOAP action where the family has one
    (the operation's namespace '#' its name, as the WSDL's soapAction)."""
    fam = FAMILIES[family]
    out = {"Content-Type": fam.content_type}
    action = f'"{contract.OPERATIONS[operation].namespace}#{operation}"'
    if fam.action == "SOAPAction":
        out["SOAPAction"] = action
    elif fam.action == "action":
        out["Content-Type"] += f"; action={action}"
    return out


def corpus_path(family, name, direction, corpus=CORPUS):
    """corpus/<family>/<name>.<direction>.xml (.json for JSON-RPC)."""
    ext = format_of(family)
    return os.path.join(corpus, family, f"{name}.{direction}.{ext}")


@functools.lru_cache(maxsize=4)
def _manifest(corpus):
    with open(os.path.join(corpus, "manifest.json"), encoding="utf-8") as f:
        return {e["path"]: e["canonical"] for e in json.load(f)["entries"] if "canonical" in e}


def load_call(family, name, corpus=CORPUS):
    """The corpus call, ready to POST. Raises KeyError (unknown family, or no response in the
    manifest) or OSError (no such call file)."""
    if family not in FAMILIES:
        raise KeyError(f"unknown family {family!r} (one of {', '.join(FAMILIES)})")
    with open(corpus_path(family, name, "call", corpus), "rb") as f:
        body = f.read()
    rel = os.path.relpath(corpus_path(family, name, "response", corpus), corpus)
    expected = _manifest(os.path.abspath(corpus)).get(rel)
    if expected is None:
        raise KeyError(f"corpus/manifest.json has no {rel}")
    op = operation_of(name)
    return CorpusCall(family, name, op, FAMILIES[family].path, headers(family, op), body,
                      expected)


def adapters(soapbench):
    """[(name, format, flags)] of `soapbench list`."""
    out = subprocess.run([soapbench, "list"], stdout=subprocess.PIPE, text=True, check=True).stdout
    rows = [line.split() for line in out.splitlines()[1:]]
    return [(r[0], r[3], r[5].split(",")) for r in rows if len(r) >= 6]


def format_of(family):
    """xml or json: the adapter format a family's messages need."""
    return "xml" if family in XML_FAMILIES else "json"


class AnswerCheck:
    """Checks answers with `soapbench decode --parser PARSER` (None: the first adapter of the
    call's format in `soapbench list`); each different answer is decoded once."""

    def __init__(self, soapbench, parser=None):
        self.soapbench_ = soapbench  # the soapbench program
        self.parser_ = parser  # the adapter answers are decoded with, or None
        self.seen_ = {}  # (call name, answer bytes) -> problem or None

    def decoded(self, call, body):
        """(canonical JSON, error text) of an answer, by `soapbench decode`."""
        parser = self.parser_ or next(a[0] for a in adapters(self.soapbench_)
                                      if a[1] == format_of(call.family))
        with tempfile.NamedTemporaryFile(suffix="." + format_of(call.family)) as tmp:
            tmp.write(body)
            tmp.flush()
            dec = subprocess.run([self.soapbench_, "decode", "--parser", parser, "--protocol",
                                  FAMILIES[call.family].protocol, "--method", call.operation,
                                  tmp.name], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True, timeout=60)
        return dec.stdout.strip() if dec.returncode == 0 else None, dec.stderr.strip()

    def problem(self, call, status, body):
        """None when the answer is HTTP 200 and decodes to the corpus response's canonical JSON,
        else what is wrong (the status, or the decoded answer against the expected one)."""
        if status != 200:
            return f"HTTP {status}: {bytes(body[:200])!r}"
        key = (call.family, call.name, bytes(body))
        if key not in self.seen_:
            got, err = self.decoded(call, body)
            self.seen_[key] = None if got == call.expected else \
                f"wrong answer: {got or err} (expected {call.expected})"
            if len(self.seen_) > CHECK_CACHE:
                self.seen_.pop(next(iter(self.seen_)))
        return self.seen_[key]
