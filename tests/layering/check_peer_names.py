#!/usr/bin/python3
"""Checks that no code outside a peer's own folder names a peer stack (docs/architecture.md
"Adding a peer"): a peer is its folder and its sb_peer() declaration, and everything else reads
the list the build generates from the declarations (`soapbench list --peers --json`).

Scanned: the string literals of every C++ file of the layers (core/ ... cli/, bench/, and the
files peers/ keeps for every peer: stacks_bench, the shared round-trip code, the programs' command
line) and of every Python file under tools/ (docstrings included: they are --help texts);
comments are not scanned. A literal names a peer when it holds the peer's name as a word of
letters and digits ("gsoap" in "--gsoap-server", "xmlrpc-c" in "xmlrpc_c_server"), in the case the
declaration writes it. Outside: peers/<stack>/ (a peer's own code), tests/, docs/, the CMake files
(where the declarations are).

Usage: check_peer_names.py ROOT SOAPBENCH [--list]   (exit 1 and one line per literal found;
                                                       --list: every one, with a count per file)
       check_peer_names.py --self-test             (a planted name of each kind is found)
"""
import io
import json
import pathlib
import re
import subprocess
import sys
import tempfile
import tokenize
import unittest

# The C++ layers (docs/architecture.md "Layers"), scanned whole.
LAYERS = ('core', 'codecs', 'parsers', 'harness', 'server', 'client', 'binary', 'load', 'record',
          'conformance', 'measure', 'cli', 'bench')
CXX = ('.h', '.hpp', '.cpp', '.inc')
# A C++ comment, raw string, string literal or character literal (digit separators are none).
CXX_TOKEN = re.compile(r'//[^\n]*|/\*.*?\*/|R"([^(\s]*)\(.*?\)\1"|"(?:\\.|[^"\\\n])*"'
                       r"|'(?:\\.|[^'\\\n])'", re.DOTALL)


def words(text):
    """The words of letters and digits of text, in order."""
    return re.findall(r'[A-Za-z0-9]+', text)


def cxx_literals(path):
    """[(line, literal)] of a C++ file's string literals, comments skipped."""
    text = path.read_text(errors='replace')
    return [(text.count('\n', 0, m.start()) + 1, m.group(0)) for m in CXX_TOKEN.finditer(text)
            if not m.group(0).startswith(('//', '/*', "'"))]


def py_literals(path):
    """[(line, literal)] of a Python file's string literals (docstrings too), comments skipped."""
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(errors='replace')).readline)
    return [(t.start[0], t.string) for t in tokens if t.type == tokenize.STRING]


def is_python(path):
    """A .py file, or a script without a suffix whose #! line runs Python (tools/report ...)."""
    if path.suffix == '.py':
        return path.is_file()
    if path.suffix or not path.is_file():
        return False
    with open(path, 'rb') as f:
        first = f.readline()
    return first.startswith(b'#!') and b'python' in first


def scanned(root):
    """Every file the rule covers, with its literals' reader."""
    for layer in LAYERS:
        for path in sorted((root / layer).rglob('*')):
            if path.suffix in CXX and path.is_file():
                yield path, cxx_literals
    for path in sorted((root / 'peers').glob('*')):  # peers/'s shared files, not its folders
        if path.suffix in CXX and path.is_file():
            yield path, cxx_literals
    for path in sorted((root / 'tools').rglob('*')):
        if '__pycache__' not in path.parts and is_python(path):
            yield path, py_literals


def peer_names(peers):
    """name -> its words: every declared peer's name."""
    return {p['name']: words(p['name']) for p in peers}


def found(root, peers):
    """[(file, line, literal, peer)] of every literal naming a peer."""
    names = peer_names(peers)
    out = []
    for path, literals in scanned(root):
        for line, literal in literals(path):
            w = words(literal)
            for name, n in names.items():
                if any(w[i:i + len(n)] == n for i in range(len(w) - len(n) + 1)):
                    out.append((str(path.relative_to(root)), line, literal, name))
    return out


class SelfTest(unittest.TestCase):
    """A name planted in each kind of scanned literal is found; comments and peers' own folders
    are not scanned."""

    def test_planted_names_are_found(self):
        peers = [{'name': 'gsoap'}, {'name': 'xmlrpc-c'}]
        with tempfile.TemporaryDirectory() as tmp:
            root = pathlib.Path(tmp)
            for folder in ('cli', 'harness', 'peers/gsoap', 'tools/sbtools/load'):
                (root / folder).mkdir(parents=True)
            (root / 'cli' / 'a.cpp').write_text(
                '// gsoap in a comment\nint n = 1\'000;\nbool b = s == "gsoap";\n'
                'const char* o = "--xmlrpc-c-server"; /* "gsoap" */\nauto r = R"(gsoap)";\n')
            (root / 'harness' / 'b.h').write_text('#define P "xmlrpc_c_server"\n')
            (root / 'peers' / 'stacks.cpp').write_text('auto s = "gsoap";\n')
            (root / 'peers' / 'gsoap' / 'own.cpp').write_text('auto s = "gsoap";\n')
            (root / 'tools' / 'sbtools' / 'load' / 'x.py').write_text(
                '"""Loads gsoap_server."""\n# xmlrpc-c in a comment\nif sid == "gsoapy":\n'
                '    pass\nargv = f"--{name}-server"\n')
            (root / 'tools' / 'script').write_text('#!/usr/bin/python3\nX = "xmlrpc-c"\n')
            hits = sorted((f, line, name) for f, line, _lit, name in found(root, peers))
        self.assertEqual(hits, [('cli/a.cpp', 3, 'gsoap'), ('cli/a.cpp', 4, 'xmlrpc-c'),
                                ('cli/a.cpp', 5, 'gsoap'), ('harness/b.h', 1, 'xmlrpc-c'),
                                ('peers/stacks.cpp', 1, 'gsoap'),
                                ('tools/sbtools/load/x.py', 1, 'gsoap'),
                                ('tools/script', 2, 'xmlrpc-c')])


def main():
    if sys.argv[1:] == ['--self-test']:
        sys.argv[1:] = []
        unittest.main(module=__name__, defaultTest='SelfTest')
    if len(sys.argv) < 3:
        sys.exit(__doc__.split('\n\n')[-1])
    root, soapbench = pathlib.Path(sys.argv[1]), sys.argv[2]
    peers = json.loads(subprocess.run([soapbench, 'list', '--peers', '--json'], check=True,
                                      stdout=subprocess.PIPE, text=True).stdout)
    hits = found(root, peers)
    for f, line, literal, name in hits:
        print(f'{f}:{line}: {name}: {literal[:100]!s}')
    if '--list' in sys.argv:
        per_file = {}
        for f, *_ in hits:
            per_file[f] = per_file.get(f, 0) + 1
        for f, n in sorted(per_file.items()):
            print(f'{n:4} {f}')
    print(f'{len(hits)} literals name a peer outside its folder' if hits else
          f'peer names ok ({len(peers)} peers)')
    return 1 if hits else 0


if __name__ == '__main__':
    sys.exit(main())
