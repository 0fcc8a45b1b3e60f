"""The peer stacks, as their declarations say (docs/peers.md "Declaring a peer"): one sb_peer() call
per stack in peers/<stack>/CMakeLists.txt (cmake/peer_list.cmake), read two ways that agree (the
tools.peers test checks it):

- built(soapbench): what a build declares, with its programs' paths, from `soapbench list --peers
  --json` (the load tools: they start those programs);
- declared(): the declarations themselves, from the source tree (the report: it renders committed
  results on any machine, with or without a build).

No other Python module names a stack (the layering.peer_names test).
"""
import functools
import glob
import json
import os
import re
import subprocess

from sbtools import names, paths

# What a peer declares, as `soapbench list --peers --json` writes it (its programs' paths and
# whether they were built are the build's, not the declaration's).
FACTS = ("name", "label", "families", "batch_client", "one_family", "jvm", "drift_ulps",
         "operations", "unexpressible", "no_common_protocol", "load", "parser", "cpu_target",
         "closes", "protocol", "transport")
# sb_peer()'s keywords (cmake/peer_list.cmake), as cmake_parse_arguments reads them.
FLAGS = ("ONE_FAMILY", "BATCH_CLIENT", "JVM", "LOAD")
VALUES = ("HAVE", "LABEL", "SERVER", "CLIENT", "DRIFT_ULPS", "PARSER", "CPU_TARGET", "CLOSES",
          "PROTOCOL", "TRANSPORT")
LISTS = ("FAMILIES", "DEPENDS", "OPERATIONS", "UNEXPRESSIBLE", "NO_COMMON_PROTOCOL")
DECLARATION = re.compile(r"^[ \t]*sb_peer\(", re.MULTILINE)


class DeclarationError(Exception):
    """An sb_peer() call this reader cannot read (CMake would refuse it too)."""


WORD = re.compile(r'[^\s()"#]+')  # an unquoted CMake argument


def cmake_arguments(text, at):
    """The arguments of the CMake command whose "(" is at text[at - 1]: unquoted words and quoted
    strings (escapes undone) as CMake reads them, nested parentheses and comments skipped."""
    args, depth, i = [], 0, at
    while i < len(text):
        c = text[i]
        if c == '"':
            j, word = i + 1, []
            while text[j] != '"':
                word.append(text[j + 1] if text[j] == "\\" else text[j])
                j += 2 if text[j] == "\\" else 1
            args.append("".join(word))
            i = j + 1
        elif c == "#":  # a comment, to the end of its line
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
        elif c == ")" and depth == 0:
            return args
        elif c in "()":
            depth += 1 if c == "(" else -1
            i += 1
        elif c.isspace():
            i += 1
        else:
            m = WORD.match(text, i)
            args.append(m.group(0))
            i = m.end()
    raise DeclarationError("an sb_peer( call without its )")


def parse(args):
    """One peer from its sb_peer() arguments, in the shape of `soapbench list --peers --json`
    (server and client: the programs as declared; built: None, a build's fact)."""
    name, fields, keyword = args[0], {k: [] for k in VALUES + LISTS}, None
    flags = set()
    for word in args[1:]:
        if word in FLAGS:
            flags.add(word)
            keyword = None
        elif word in VALUES or word in LISTS:
            keyword = word
        elif keyword is None or (keyword in VALUES and fields[keyword]):
            raise DeclarationError(f"sb_peer({name} ...): {word!r} follows no keyword")
        else:
            fields[keyword].append(word)
    one = {k: (v[0] if v else None) for k, v in fields.items() if k in VALUES}
    pairs = fields["UNEXPRESSIBLE"]
    return {"name": name, "label": one["LABEL"], "families": fields["FAMILIES"], "built": None,
            "server": one["SERVER"], "client": one["CLIENT"],
            "batch_client": "BATCH_CLIENT" in flags, "one_family": "ONE_FAMILY" in flags,
            "jvm": "JVM" in flags, "drift_ulps": int(one["DRIFT_ULPS"] or 0),
            "operations": fields["OPERATIONS"],
            "unexpressible": dict(zip(pairs[::2], pairs[1::2])),
            "no_common_protocol": fields["NO_COMMON_PROTOCOL"], "load": "LOAD" in flags,
            "parser": one["PARSER"],
            "cpu_target": float(one["CPU_TARGET"]) if one["CPU_TARGET"] else None,
            "closes": one["CLOSES"], "protocol": one["PROTOCOL"], "transport": one["TRANSPORT"]}


def declarations(text):
    """Every peer an sb_peer() call in `text` (a CMakeLists.txt) declares, in order."""
    out = []
    for m in DECLARATION.finditer(text):
        out.append(parse(cmake_arguments(text, m.end())))
    return out


@functools.lru_cache(maxsize=None)
def declared(root=paths.REPO):
    """Every declared peer of the tree at root: its peers/**/CMakeLists.txt in path order, each
    file's declarations in their order."""
    out = []
    pattern = os.path.join(root, "peers", "**", "CMakeLists.txt")
    for path in sorted(glob.glob(pattern, recursive=True)):
        with open(path, encoding="utf-8") as f:
            out += declarations(f.read())
    return tuple(out)


def built(soapbench):
    """The peers a build declares, as `soapbench list --peers --json` lists them (declaration
    order, this build's programs)."""
    out = subprocess.run([soapbench, "list", "--peers", "--json"], stdout=subprocess.PIPE,
                         text=True, check=True).stdout
    return json.loads(out)


def facts(peer):
    """What a peer declares, apart from where its programs are: FACTS and whether it has a
    client of its own."""
    return dict({k: peer[k] for k in FACTS}, has_client=peer["client"] is not None)


def jvm_names(peers=None):
    """The names of the peers that run on the JVM (declared JVM: timed after their warm-up)."""
    return {p["name"] for p in (declared() if peers is None else peers) if p["jvm"]}


def is_jvm_stack(stack, peers=None):
    """Whether a stack name (a server, a client, or either end of a <client>~<server> pair)
    is a JVM peer's: its times come after the JIT's warm-up, and every report table says so."""
    ends = names.split_pair(stack) or (stack,)
    return any(e in jvm_names(peers) for e in ends)


def joined(words):
    """'a', 'a and b', 'a, b and c'."""
    words = list(words)
    return " and ".join(filter(None, [", ".join(words[:-1]), words[-1]])) if words else ""
