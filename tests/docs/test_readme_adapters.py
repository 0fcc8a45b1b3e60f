#!/usr/bin/python3
"""README's Adapters table is the one tools/readme_adapters makes for this build (label unit).

The table is generated from `soapbench list --json` and the sb_adapter() declarations of
cmake/dependencies.cmake (tools/sbtools/readme_adapters.py); this test fails, naming the command
that rewrites it, when README differs. Also: the plain `soapbench list` is tab-separated, and the
generator's rules. Usage: test_readme_adapters.py SOAPBENCH
"""
import subprocess
import sys
import unittest

from sbtools import readme_adapters as ra  # noqa: E402

SOAPBENCH = None

CMAKE = '''
sb_adapter(SB_HAVE_A sb::a XML ADAPTERS a/dom a/sax
           WRITER a SOURCES a_dom.cpp a_sax.cpp)
sb_adapter(SB_HAVE_B sb::b JSON ADAPTERS b/dom
           b/dom-fast OPTIONAL "B ≥ 2" SOURCES b_dom.cpp)
'''
README = '''# x

## Adapters

Text before.

| adapter | library | format | model | in every build |
|---|---|---|---|---|
| `a/dom` | A lib | xml | dom | yes |
| `b/dom` | B | json | dom | no: B ≥ 2 |

Text after.

## Next
'''
LISTED = [{'name': 'a/dom', 'library': 'A lib', 'format': 'xml', 'model': 'dom'},
          {'name': 'a/sax', 'library': 'A lib', 'format': 'xml', 'model': 'sax'}]


class ReadmeAdapters(unittest.TestCase):
    def test_readme_is_current_for_this_build(self):
        self.assertEqual(ra.main([SOAPBENCH, '--check']), 0,
                         'README.md differs from what tools/readme_adapters makes (above)')

    def test_plain_output_is_tab_separated(self):
        out = subprocess.run([SOAPBENCH, 'list'], check=True, stdout=subprocess.PIPE,
                             text=True).stdout.splitlines()
        self.assertEqual(out[0].split('\t'), ['NAME', 'LIBRARY', 'VERSION', 'FORMAT', 'MODEL',
                                              'FLAGS'])
        for line in out[1:]:
            self.assertEqual(len(line.split('\t')), 6, line)


class Generator(unittest.TestCase):
    def test_declarations_name_every_adapter_and_the_optional_reason(self):
        self.assertEqual(ra.declarations(CMAKE), {'a/dom': None, 'a/sax': None,
                                                  'b/dom': 'B ≥ 2', 'b/dom-fast': 'B ≥ 2'})

    def test_readme_rows_are_read_from_the_section(self):
        self.assertEqual(ra.readme_rows(README)['b/dom'], ('B', 'json', 'dom', 'no: B ≥ 2'))

    def test_a_new_adapter_gets_its_row_and_the_rest_of_readme_stays(self):
        b_kept = {'b/dom': ('B', 'json', 'dom', 'no: B ≥ 2'),
                  'b/dom-fast': ('B', 'json', 'dom', 'no: B ≥ 2')}
        rows = ra.table_rows(LISTED, ra.declarations(CMAKE), b_kept)
        self.assertEqual([r[0] for r in rows], ['a/dom', 'a/sax', 'b/dom', 'b/dom-fast'])
        self.assertEqual(rows[1], ('a/sax', 'A lib', 'xml', 'sax', 'yes'))
        out = ra.with_table(README, ra.render(rows))
        self.assertIn('| `a/sax` | A lib | xml | sax | yes |\n', out)
        self.assertTrue(out.startswith('# x\n\n## Adapters\n\nText before.\n\n| adapter |'))
        self.assertTrue(out.endswith('| no: B ≥ 2 |\n\nText after.\n\n## Next\n'), out)

    def test_what_cannot_be_made_is_refused(self):
        declared = ra.declarations(CMAKE)
        with self.assertRaisesRegex(ra.TableError, 'b/dom-fast is not built here'):
            ra.table_rows(LISTED, declared, ra.readme_rows(README))
        with self.assertRaisesRegex(ra.TableError, 'a/sax is declared for every build'):
            ra.table_rows(LISTED[:1], declared, {})
        with self.assertRaisesRegex(ra.TableError, 'c/dom is built but no sb_adapter'):
            ra.table_rows(LISTED + [dict(LISTED[0], name='c/dom')], declared, {})


if __name__ == '__main__':
    SOAPBENCH = sys.argv.pop(1)
    unittest.main()
