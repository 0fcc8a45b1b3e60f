"""Benchmark names: the schema in bench/benchmark_names.json, parsed here and nowhere else.

Every tool that needs a part of a benchmark name (its level, adapter, family, call ...) asks
parse(); every name a tool builds comes from build(). The C++ registers names of the same
shapes, checked by tests/tools/test_names.py against every registered benchmark.
"""
import functools
import json
import os
import re

from sbtools.paths import REPO

SCHEMA_PATH = os.path.join(REPO, "bench", "benchmark_names.json")


@functools.lru_cache(maxsize=1)
def schema():
    with open(SCHEMA_PATH, encoding="utf-8") as f:
        return json.load(f)


def _regex(kind):
    """A pattern as a regex: literal segments, a field per segment, the last field the rest."""
    parts = re.split(r"(\{\w+\})", kind["pattern"])
    fields = [p[1:-1] for p in parts if p.startswith("{")]
    out = ""
    for p in parts:
        if not p.startswith("{"):
            out += re.escape(p)
            continue
        name = p[1:-1]
        allowed = kind.get("values", {}).get(name)
        body = "|".join(map(re.escape, allowed)) if allowed else \
            (".+" if name == fields[-1] else "[^/]+")
        out += f"(?P<{name}>{body})"
    return re.compile(out + "$")


@functools.lru_cache(maxsize=1)
def _kinds():
    return [(k["kind"], _regex(k), k["pattern"]) for k in schema()["kinds"]]


@functools.lru_cache(maxsize=65536)
def _parse(name):
    for kind, rx, _pattern in _kinds():
        m = rx.match(name)
        if m:
            return kind, tuple(m.groupdict().items())
    return None


def parse(name):
    """(kind, {field: value}) of a benchmark name (without suffixes or with them: the last field
    keeps them), or (None, {}) for a name of no known shape."""
    got = _parse(name)
    return (got[0], dict(got[1])) if got else (None, {})


def fields(name, kind):
    """The fields of a name of one kind, or None when it is of another."""
    k, f = parse(name)
    return f if k == kind else None


def field(value):
    """A value as a name field: the schema's rule, '/' written '-' (pugixml/dom -> pugixml-dom)."""
    return str(value).replace("/", "-")


def build(kind, **values):
    """The name of a benchmark of one kind (each value written by field())."""
    pattern = next(p for k, _rx, p in _kinds() if k == kind)
    return pattern.format(**{k: field(v) for k, v in values.items()})


def pair(client, server):
    """stacks_bench's parser field: <client>~<server>."""
    return f"{client}{schema()['pair_separator']}{server}"


def split_pair(value):
    """(client, server) of a <client>~<server> field, or None for a plain parser."""
    sep = schema()["pair_separator"]
    return tuple(value.split(sep, 1)) if sep in value else None

