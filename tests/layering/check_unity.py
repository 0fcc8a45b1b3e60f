#!/usr/bin/python3
"""Checks that the files compiled as one unity file (soapbench's commands, cli/CMakeLists.txt)
can share it: no two of them define the same file-local name, and none leaves a macro defined.

In a unity file every source follows the ones before it, so a helper in one file's anonymous
namespace (or a static function) can silently become an overload of another file's helper of
the same name, and a #define leaks into every later file: the unity build would then be another
program than the files compiled one by one (-DSB_UNITY=OFF), with no error to say so.

Usage: check_unity.py FILE...          (exit 1 and one line per clash)
       check_unity.py --self-test      (checks that a planted clash is caught)
"""
import pathlib
import re
import sys
import tempfile
import unittest

# A name defined at the top of an anonymous namespace or by a static function: types, functions,
# variables and aliases (the project's style: one definition starts a line, unindented).
DEFINITION = re.compile(
    r'^(?:template\s*<[^>]*>\s*)?(?:\[\[[^\]]*\]\]\s*)?(?:(?:struct|class|enum(?:\s+class)?|union)\s+(\w+)'
    r'|using\s+(\w+)\s*='
    r'|(?:static\s+|inline\s+|constexpr\s+|const\s+|thread_local\s+)*[\w:<>,*&\s]+?[\s*&](\w+)\s*(?:\(|=|\{|\[))')
DEFINE = re.compile(r'^\s*#\s*define\s+(\w+)')
UNDEF = re.compile(r'^\s*#\s*undef\s+(\w+)')


def local_names(text):
    """The file-local names a source defines: in anonymous namespaces, or static at file scope."""
    names = set()
    depth = 0       # brace depth
    anonymous = []  # depths at which an anonymous namespace opened
    for line in text.splitlines():
        stripped = line.split('//')[0]
        in_anonymous = bool(anonymous) and depth == anonymous[-1] + 1
        static_at_top = line.startswith('static ') and not anonymous
        if (in_anonymous or static_at_top) and line[:1] not in ('', ' ', '}', '#', '/'):
            match = DEFINITION.match(line)
            if match:
                names.add(next(g for g in match.groups() if g))
        if re.match(r'^\s*namespace\s*\{', stripped):
            anonymous.append(depth)
        for ch in stripped:
            if ch == '{':
                depth += 1
            elif ch == '}':
                depth -= 1
                if anonymous and depth == anonymous[-1]:
                    anonymous.pop()
    return names


def leaked_macros(text):
    """Macros a source defines and does not #undef (they reach every later file)."""
    defined = set()
    for line in text.splitlines():
        if m := DEFINE.match(line):
            defined.add(m.group(1))
        elif m := UNDEF.match(line):
            defined.discard(m.group(1))
    return defined


def clashes(paths):
    """Every name two files define locally, and every leaked macro, as printable lines."""
    found, owner = [], {}
    for path in paths:
        text = pathlib.Path(path).read_text(errors='replace')
        for name in sorted(local_names(text)):
            if name in owner:
                found.append(f'{path}: {name} is also file-local in {owner[name]}')
            owner.setdefault(name, path)
        for name in sorted(leaked_macros(text)):
            found.append(f'{path}: #define {name} without #undef reaches the files after it')
    return found


class SelfTest(unittest.TestCase):
    """The check catches a planted clash and passes clean files."""

    def write(self, directory, name, text):
        path = pathlib.Path(directory) / name
        path.write_text(text)
        return str(path)

    def test_clash_and_macro_are_caught(self):
        with tempfile.TemporaryDirectory() as d:
            a = self.write(d, 'a.cpp', 'namespace sb {\nnamespace {\n\n[[noreturn]] int fail(int code) {\n'
                           '  return code;\n}\n\nstruct Row {\n  int x;\n};\n\n}  // namespace\n}\n')
            b = self.write(d, 'b.cpp', '#define LEAK 1\nnamespace sb {\nnamespace {\n\n'
                           'void fail(const char* why) {\n  (void)why;\n}\n\n}  // namespace\n}\n')
            c = self.write(d, 'c.cpp', 'static std::string Row_helper(int x) {\n  return {};\n}\n')
            found = clashes([a, b, c])
            self.assertEqual(len(found), 2, found)
            self.assertIn('fail is also file-local', found[0] + found[1])
            self.assertIn('#define LEAK', found[0] + found[1])

    def test_clean_files_pass(self):
        with tempfile.TemporaryDirectory() as d:
            a = self.write(d, 'a.cpp', 'namespace {\nconstexpr int kA = 1;\nint helper_a() {\n'
                           '  if (kA) { return 1; }\n  return 0;\n}\n}  // namespace\n'
                           '#define TMP 1\n#undef TMP\nvoid public_a() {}\n')
            b = self.write(d, 'b.cpp', 'namespace {\nconstexpr int kB = 2;\n}  // namespace\n'
                           'void public_a_user() {}\n')
            self.assertEqual(clashes([a, b]), [])


def main(argv):
    if argv[1:] == ['--self-test']:
        result = unittest.main(argv=argv[:1], exit=False).result
        return 0 if result.wasSuccessful() else 1
    found = clashes(argv[1:])
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
