#!/usr/bin/python3
"""README's adapter table against `soapbench list --json` (label unit).

Every adapter this build has is a row of README's "Adapters" table with the same library, format
and model; every row marked "yes" (in every build) is built. Usage: test_readme_adapters.py
SOAPBENCH
"""
import json
import pathlib
import re
import subprocess
import sys
import unittest

README = pathlib.Path(__file__).resolve().parents[2] / 'README.md'
ROW = re.compile(r'^\| `([^`]+)` \| ([^|]+) \| (xml|json) \| (\w+) \| ([^|]+) \|$')
SOAPBENCH = None


def readme_rows(text):
    """{name: (library, format, model, in_every_build)} of the Adapters section's table."""
    section = text.split('\n## Adapters\n', 1)[1].split('\n## ', 1)[0]
    rows = {}
    for line in section.splitlines():
        m = ROW.match(line)
        if m:
            name, library, fmt, model, every = (g.strip() for g in m.groups())
            rows[name] = (library, fmt, model, every == 'yes')
    return rows


class ReadmeAdapters(unittest.TestCase):
    def test_table_matches_the_build(self):
        listed = json.loads(subprocess.run([SOAPBENCH, 'list', '--json'], check=True,
                                           stdout=subprocess.PIPE, text=True).stdout)
        rows = readme_rows(README.read_text())
        self.assertGreater(len(rows), 20, 'the Adapters table was not found')
        built = set()
        for a in listed:
            built.add(a['name'])
            self.assertIn(a['name'], rows, f"{a['name']} is built but not in README's table")
            self.assertEqual(rows[a['name']][:3], (a['library'], a['format'], a['model']),
                             a['name'])
        for name, (_, _, _, every) in rows.items():
            if every:
                self.assertIn(name, built, f'README says {name} is in every build')

    def test_plain_output_is_tab_separated(self):
        out = subprocess.run([SOAPBENCH, 'list'], check=True, stdout=subprocess.PIPE,
                             text=True).stdout.splitlines()
        self.assertEqual(out[0].split('\t'), ['NAME', 'LIBRARY', 'VERSION', 'FORMAT', 'MODEL',
                                              'FLAGS'])
        for line in out[1:]:
            self.assertEqual(len(line.split('\t')), 6, line)

    def test_a_wrong_row_is_caught(self):
        rows = readme_rows('x\n## Adapters\n| `a/dom` | Qt 6 | xml | dom | yes |\n## Next\n')
        self.assertEqual(rows, {'a/dom': ('Qt 6', 'xml', 'dom', True)})


if __name__ == '__main__':
    SOAPBENCH = sys.argv.pop(1)
    unittest.main()
