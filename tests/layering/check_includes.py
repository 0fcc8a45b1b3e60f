#!/usr/bin/python3
"""Checks the layering of docs/architecture.md on every #include of the tree.

Arrows run one way (docs/architecture.md "Layers"; ALLOWED below is the whole rule): cli/,
bench/, peers/ -> measure/ and the round-trip machinery under harness/ (harness/server/,
harness/client/, harness/binary/, harness/load/, harness/record/, harness/conformance/;
binary, load and record -> client; server and record, the two listeners, -> harness/listener/)
-> harness/ (its own files) -> parsers/ -> codecs/ -> core/; harness/listener/ -> core/. A layer
is a folder path; a file belongs to the longest one its path starts with. A layer may include
only itself and the layers below it, and only parsers/ may include a parser library (the
"# headers:" patterns of cmake/dependencies.cmake; LIBRARY_EXCEPTIONS names the one file outside
parsers/ allowed one). tests/ and tools/ stand outside the layers (tests may read a file back with a library of their
choice). Usage: check_includes.py [ROOT]      (exit 1 and one line per violation)
       check_includes.py --self-test          (checks that a planted violation is caught)
"""
import fnmatch
import pathlib
import re
import sys
import tempfile
import unittest

# What each layer may include from the project's own folders. harness/'s own files are one
# layer; each folder under it is a layer of its own above it.
BASE = {'core', 'codecs', 'parsers', 'harness'}  # below every folder that harness/ serves
# harness/'s users, one job each.
SERVED = {'harness/server', 'harness/client', 'harness/binary', 'harness/load', 'harness/record',
          'harness/conformance'}
# What every HTTP listener shares (request rules, deadlines, connection cap, accept loop): below
# both listeners, beside harness/'s own files (it needs none of them), so a framing fix lands in
# both.
LISTENER = {'core', 'harness/listener'}
ALLOWED = {
    'core': {'core'},
    'codecs': {'core', 'codecs'},
    'parsers': {'core', 'codecs', 'parsers'},
    'harness': BASE,
    'harness/listener': LISTENER,
    'harness/server': BASE | LISTENER | {'harness/server'},
    'harness/client': BASE | {'harness/client'},
    'harness/conformance': BASE | {'harness/conformance'},
    'harness/binary': BASE | {'harness/client', 'harness/binary'},
    'harness/load': BASE | {'harness/client', 'harness/load'},
    'harness/record': BASE | LISTENER | {'harness/client', 'harness/record'},
    'measure': BASE | {'measure'},
    'cli': BASE | SERVED | LISTENER | {'measure', 'cli'},
    'bench': BASE | SERVED | LISTENER | {'measure', 'bench'},
    'peers': BASE | SERVED | LISTENER | {'measure', 'peers'},
}


def layer_of(path):
    """The layer a project path ('harness/server/x.h') belongs to: the longest layer it starts
    with, or None outside the layers."""
    found = [layer for layer in ALLOWED if path.startswith(layer + '/')]
    return max(found, key=len) if found else None


DEPENDENCIES = 'cmake/dependencies.cmake'  # its "# headers:" lines: the parser libraries' includes


def parser_library_patterns(root):
    """The include patterns (shell style) of every parser library: the "# headers:" line of its
    block in cmake/dependencies.cmake, so a new parser's block brings its own."""
    patterns = []
    for line in (root / DEPENDENCIES).read_text().splitlines():
        if line.startswith('# headers:'):
            patterns += line.split(':', 1)[1].split()
    return patterns


def is_parser_library(header, patterns):
    return any(fnmatch.fnmatchcase(header, p) for p in patterns)


def unlisted_parser_blocks(root):
    """Switches of parser libraries (the sb_adapter() declaration in their block of
    cmake/dependencies.cmake) whose block has no "# headers:" line (their includes would go
    unchecked)."""
    missing = []
    for block in (root / DEPENDENCIES).read_text().split('\n# --- ')[1:]:
        switches = set(re.findall(r'^sb_adapter\((SB_HAVE_\w+)', block, re.MULTILINE))
        if switches and '\n# headers:' not in block:
            missing += sorted(switches)
    return missing


# Files outside parsers/ allowed one parser library, and why: the corpus manifest is the suite's
# own data, read beside the corpus code.
LIBRARY_EXCEPTIONS = {'harness/manifest_reader.cpp': 'rapidjson/'}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')


def violations(root):
    """Every broken rule under root, as 'file:line: reason' strings."""
    found = [f'{DEPENDENCIES}: {switch}\'s block has no "# headers:" line'
             for switch in unlisted_parser_blocks(root)]
    patterns = parser_library_patterns(root)
    tops = sorted({layer.split('/', 1)[0] for layer in ALLOWED})
    for path in sorted(p for top in tops for p in (root / top).rglob('*')):
        if path.suffix not in ('.h', '.hpp', '.cpp', '.inc') or not path.is_file():
            continue
        layer = layer_of(path.relative_to(root).as_posix())
        allowed = ALLOWED[layer]
        for number, line in enumerate(path.read_text(errors='replace').splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            header = m.group(2)
            where = f'{path.relative_to(root)}:{number}'
            target = layer_of(header)
            if m.group(1) == '"' and target and target not in allowed:
                found.append(f'{where}: {layer}/ may not include {target}/ ({header})')
            excepted = LIBRARY_EXCEPTIONS.get(str(path.relative_to(root)))
            if excepted and header.startswith(excepted):
                continue
            if layer != 'parsers' and is_parser_library(header, patterns):
                found.append(f'{where}: only parsers/ includes a parser library ({header})')
    return found


class SelfTest(unittest.TestCase):
    """The checker finds what it is for: a planted upward include and a library include."""

    def test_planted_violations_are_found(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = pathlib.Path(tmp)
            for layer in ALLOWED:
                (root / layer).mkdir(parents=True, exist_ok=True)
            (root / 'cmake').mkdir()
            (root / DEPENDENCIES).write_text(
                '# --- RapidJSON ---\n# apt: rapidjson-dev\n# headers: rapidjson/*\n'
                'set(SB_HAVE_RAPIDJSON ON)\nsb_adapter(SB_HAVE_RAPIDJSON sb::rapidjson JSON)\n'
                '# --- pugixml ---\n# headers: pugixml.hpp\nset(SB_HAVE_PUGIXML ON)\n'
                'sb_adapter(SB_HAVE_PUGIXML x XML)\n# --- newlib ---\n# apt: libnew-dev\n'
                'set(SB_HAVE_NEWLIB ON)\nsb_adapter(SB_HAVE_NEWLIB sb::newlib XML)\n'
                '# --- zlib ---\n# apt: zlib1g-dev\nfind_package(ZLIB)\n')
            (root / 'core' / 'ok.h').write_text('#include <vector>\n#include "core/events.h"\n')
            (root / 'codecs' / 'up.h').write_text('#include "parsers/registry.h"\n')
            (root / 'harness' / 'lib.cpp').write_text('#include <rapidjson/document.h>\n')
            (root / 'parsers' / 'fine.cpp').write_text('#include <pugixml.hpp>\n'
                                                       '#include "codecs/value.h"\n')
            (root / 'harness' / 'timing.h').write_text('#include "measure/ranking.h"\n')
            (root / 'cli' / 'ok.cpp').write_text('#include "measure/compare_run.h"\n')
            # The folders harness/ serves: each on harness/, none on a sibling it does not use.
            (root / 'harness' / 'load' / 'ok.cpp').write_text('#include "harness/client/http_request.h"\n'
                                                  '#include "harness/corpus.h"\n')
            (root / 'harness' / 'server' / 'side.cpp').write_text(
                '#include "harness/client/http_client.h"\n')
            (root / 'harness' / 'client' / 'up.cpp').write_text(
                '#include "harness/load/load_point.h"\n')
            # The listeners share listener/; it includes nothing of theirs, nor of harness/.
            (root / 'harness' / 'record' / 'ok.cpp').write_text(
                '#include "harness/listener/request_rules.h"\n')
            (root / 'harness' / 'listener' / 'up.h').write_text('#include "harness/corpus.h"\n')
            (root / 'harness' / 'srv.h').write_text('#include "harness/server/server_config.h"\n')
            (root / 'bench' / 'ok.cpp').write_text('#include "harness/binary/binary_rpc.h"\n')
            # The manifest reader's one library, and only that one, and only in that file.
            (root / 'harness' / 'manifest_reader.cpp').write_text('#include <rapidjson/document.h>\n'
                                                                  '#include <pugixml.hpp>\n')
            found = violations(root)
            self.assertEqual(len(found), 9, found)
            self.assertIn('harness/listener/up.h:1: harness/listener/ may not include harness/', ''.join(found))
            self.assertIn("SB_HAVE_NEWLIB's block has no", ''.join(found))
            self.assertIn('harness/manifest_reader.cpp:2: only parsers/', ''.join(found))
            self.assertIn('harness/server/side.cpp:1: harness/server/ may not include '
                          'harness/client/', ''.join(found))
            self.assertIn('harness/client/up.cpp:1: harness/client/ may not include harness/load/', ''.join(found))
            self.assertIn('harness/srv.h:1: harness/ may not include harness/server/', ''.join(found))
            self.assertIn('codecs/up.h:1: codecs/ may not include parsers/', ''.join(found))
            self.assertIn('harness/lib.cpp:1: only parsers/', ''.join(found))
            self.assertIn('harness/timing.h:1: harness/ may not include measure/', ''.join(found))


def main():
    if sys.argv[1:] == ['--self-test']:
        sys.argv[1:] = []
        unittest.main(module=__name__, defaultTest='SelfTest')
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parents[2])
    found = violations(root)
    for v in found:
        print(v)
    print(f'{len(found)} layering violations' if found else 'layering ok')
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
