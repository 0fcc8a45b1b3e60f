#!/usr/bin/python3
"""Checks the layering of docs/architecture.md on every #include of the tree.

Arrows run one way (docs/architecture.md "Layers"; ALLOWED below is the whole rule): cli/,
bench/, peers/ -> measure/ and the folders harness/ serves (server/, client/, binary/, load/,
record/, conformance/; binary/, load/ and record/ -> client/; server/ and record/, the two
listeners, -> listener/) -> harness/ -> parsers/ -> codecs/ -> core/; listener/ -> core/. A folder may include only itself and the folders below it, and only parsers/ may
include a parser library (the "# headers:" patterns of cmake/dependencies.cmake; LIBRARY_EXCEPTIONS names the one
file outside parsers/ allowed one). tests/ and tools/ stand outside the layers (tests may read a file back with a library of their
choice). Usage: check_includes.py [ROOT]      (exit 1 and one line per violation)
       check_includes.py --self-test          (checks that a planted violation is caught)
"""
import fnmatch
import pathlib
import re
import sys
import tempfile
import unittest

# What each layer may include from the project's own folders.
BASE = {'core', 'codecs', 'parsers', 'harness'}  # below every folder that harness/ serves
# harness/'s users, one job each.
SERVED = {'server', 'client', 'binary', 'load', 'record', 'conformance'}
# What every HTTP listener shares (request rules, deadlines, connection cap, accept loop): below
# both listeners, beside harness/ (it needs none of it), so a framing fix lands in both.
LISTENER = {'core', 'listener'}
ALLOWED = {
    'core': {'core'},
    'codecs': {'core', 'codecs'},
    'parsers': {'core', 'codecs', 'parsers'},
    'harness': BASE,
    'listener': LISTENER,
    'server': BASE | LISTENER | {'server'},
    'client': BASE | {'client'},
    'conformance': BASE | {'conformance'},
    'binary': BASE | {'client', 'binary'},
    'load': BASE | {'client', 'load'},
    'record': BASE | LISTENER | {'client', 'record'},
    'measure': BASE | {'measure'},
    'cli': BASE | SERVED | LISTENER | {'measure', 'cli'},
    'bench': BASE | SERVED | LISTENER | {'measure', 'bench'},
    'peers': BASE | SERVED | LISTENER | {'measure', 'peers'},
}
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
    for layer, allowed in ALLOWED.items():
        for path in sorted((root / layer).rglob('*')):
            if path.suffix not in ('.h', '.hpp', '.cpp', '.inc') or not path.is_file():
                continue
            for number, line in enumerate(path.read_text(errors='replace').splitlines(), 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                header = m.group(2)
                where = f'{path.relative_to(root)}:{number}'
                top = header.split('/', 1)[0]
                if m.group(1) == '"' and '/' in header and top in ALLOWED and top not in allowed:
                    found.append(f'{where}: {layer}/ may not include {top}/ ({header})')
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
                (root / layer).mkdir()
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
            (root / 'load' / 'ok.cpp').write_text('#include "client/http_request.h"\n'
                                                  '#include "harness/corpus.h"\n')
            (root / 'server' / 'side.cpp').write_text('#include "client/http_client.h"\n')
            (root / 'client' / 'up.cpp').write_text('#include "load/load_point.h"\n')
            # The listeners share listener/; it includes nothing of theirs, nor of harness/.
            (root / 'record' / 'ok.cpp').write_text('#include "listener/request_rules.h"\n')
            (root / 'listener' / 'up.h').write_text('#include "harness/corpus.h"\n')
            (root / 'harness' / 'srv.h').write_text('#include "server/server_config.h"\n')
            (root / 'bench' / 'ok.cpp').write_text('#include "binary/binary_rpc.h"\n')
            # The manifest reader's one library, and only that one, and only in that file.
            (root / 'harness' / 'manifest_reader.cpp').write_text('#include <rapidjson/document.h>\n'
                                                                  '#include <pugixml.hpp>\n')
            found = violations(root)
            self.assertEqual(len(found), 9, found)
            self.assertIn('listener/up.h:1: listener/ may not include harness/', ''.join(found))
            self.assertIn("SB_HAVE_NEWLIB's block has no", ''.join(found))
            self.assertIn('harness/manifest_reader.cpp:2: only parsers/', ''.join(found))
            self.assertIn('server/side.cpp:1: server/ may not include client/', ''.join(found))
            self.assertIn('client/up.cpp:1: client/ may not include load/', ''.join(found))
            self.assertIn('harness/srv.h:1: harness/ may not include server/', ''.join(found))
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
