#!/usr/bin/python3
"""README.md and docs/*.md: every relative link and #anchor resolves, README stays a front page
(label unit).

A link is `[text](target)` or `![alt](target)` outside code; a target with a scheme (https:,
mailto:) is not followed. The path must exist in the checkout, relative to the page; an anchor
must name a heading of the page it points to, spelled as GitHub spells it (lower case, spaces to
'-', punctuation dropped, a repeated heading's anchor suffixed -1, -2, ...). Also a pointer in
the source such as `docs/peers.md "gSOAP"` must name a heading (or a bold paragraph label) of
that page. README.md has at
most 300 lines and starts with the two commands (.ci/run runs the second).
Usage: test_doc_links.py [unittest options]
"""
import pathlib
import re
import subprocess
import unittest

REPO = pathlib.Path(__file__).resolve().parents[2]
MAX_README_LINES = 300
COMMANDS = ['tools/run_bench.sh', 'tools/run_tests.sh']

LINK = re.compile(r'!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^()\s]+)(?:\s+"[^"]*")?\)')
CODE_SPAN = re.compile(r'(`+).*?\1')
SCHEME = re.compile(r'^[a-zA-Z][a-zA-Z0-9+.-]*:')
# A pointer into the guides from anywhere in the tree: docs/<page>.md "<heading>".
POINTER = re.compile(r'docs/([a-z0-9-]+\.md),? \\?"([^"\\]+)\\?"')


def prose_lines(text):
    """(line number, line) outside fenced code blocks."""
    fence = None
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.lstrip()
        if stripped.startswith(('```', '~~~')):
            mark = stripped[:3]
            if fence is None:
                fence = mark
            elif fence == mark:
                fence = None
            continue
        if fence is None:
            yield number, line


def slug(heading):
    """GitHub's anchor for a heading's text."""
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', heading)  # a link: its text
    text = re.sub(r'<[^>]+>', '', text).replace('`', '').lower().strip()
    return ''.join(c for c in text if c.isalnum() or c in '-_ ').replace(' ', '-')


def anchors(text):
    """Every heading's anchor in a Markdown text, repeated ones numbered as GitHub numbers them."""
    seen, out = {}, set()
    for _, line in prose_lines(text):
        match = re.match(r'#{1,6}\s+(.*?)\s*#*\s*$', line)
        if not match:
            continue
        base = slug(match.group(1))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f'{base}-{n}')
    return out


def titles(text):
    """Every heading's and bold paragraph label's text, lower case, markup dropped: what a
    pointer from the source may name (a part of one is enough: "Recorded folders")."""
    out = []
    for _, line in prose_lines(text):
        match = re.match(r'#{1,6}\s+(.*?)\s*#*\s*$', line)
        out += [match.group(1)] if match else re.findall(r'\*\*(.+?)\*\*', line)
    return [title.replace('`', '').lower() for title in out]


def links(text):
    """(line number, target) of every link outside code; a link's text may span lines."""
    prose = dict(prose_lines(text))
    lines = [CODE_SPAN.sub('', prose.get(n, '')) for n in range(1, len(text.splitlines()) + 1)]
    joined = '\n'.join(lines)
    for match in LINK.finditer(joined):
        yield joined.count('\n', 0, match.start()) + 1, match.group(1)


def broken_links(page, root=REPO):
    """One line per link of `page` (a path under root) that does not resolve."""
    problems = []
    text = page.read_text(encoding='utf-8')
    for number, target in links(text):
        if SCHEME.match(target):
            continue
        path, _, anchor = target.partition('#')
        where = f'{page.relative_to(root)}:{number}: ({target})'
        dest = (page.parent / path).resolve() if path else page
        try:
            dest.relative_to(root)
        except ValueError:
            problems.append(f'{where}: outside the checkout')
            continue
        if not dest.exists():
            problems.append(f'{where}: no such file')
        elif anchor and dest.suffix == '.md' and anchor not in anchors(dest.read_text('utf-8')):
            problems.append(f'{where}: {dest.relative_to(root)} has no heading #{anchor}')
    return problems


def pages(root=REPO):
    return [root / 'README.md'] + sorted((root / 'docs').glob('*.md'))


def tracked_files(root=REPO):
    out = subprocess.run(['git', '-C', str(root), 'ls-files', '-z'], check=True,
                         stdout=subprocess.PIPE).stdout.decode('utf-8').split('\0')
    return [root / name for name in out
            if name and not name.startswith(('results/', 'corpus/')) and (root / name).is_file()
            and (root / name).stat().st_size < 2 << 20]


def broken_pointers(files, root=REPO):
    """One line per `docs/<page>.md "<title>"` in `files` whose page has no such heading or bold
    label."""
    cache, problems = {}, []
    for path in files:
        try:
            text = path.read_text(encoding='utf-8')
        except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            for page, heading in POINTER.findall(line):
                target = root / 'docs' / page
                if page not in cache:
                    cache[page] = titles(target.read_text('utf-8')) if target.exists() else None
                if cache[page] is None:
                    problems.append(f'{path.relative_to(root)}:{number}: no docs/{page}')
                elif not any(heading.lower() in title for title in cache[page]):
                    problems.append(f'{path.relative_to(root)}:{number}: docs/{page} has no '
                                    f'heading "{heading}"')
    return problems


class Links(unittest.TestCase):
    def test_every_link_of_readme_and_docs_resolves(self):
        problems = [p for page in pages() for p in broken_links(page)]
        self.assertEqual(problems, [], '\n' + '\n'.join(problems))

    def test_every_pointer_into_docs_names_a_heading(self):
        problems = broken_pointers(tracked_files())
        self.assertEqual(problems, [], '\n' + '\n'.join(problems))

    def test_readme_is_a_front_page_starting_with_the_two_commands(self):
        lines = (REPO / 'README.md').read_text(encoding='utf-8').splitlines()
        self.assertLessEqual(len(lines), MAX_README_LINES)
        self.assertEqual(lines[0], '# soapbench')
        self.assertEqual(lines[2], '```sh')
        self.assertEqual([line.split()[0] for line in lines[3:5]], COMMANDS)
        self.assertEqual(lines[5], '```')


class Rules(unittest.TestCase):
    """The checker itself, on pages made here."""

    def test_anchors_follow_githubs_rules(self):
        self.assertEqual(slug('History across CI runs: `tools/track`'),
                         'history-across-ci-runs-toolstrack')
        self.assertEqual(slug('Results, reports and regression gating'),
                         'results-reports-and-regression-gating')
        self.assertEqual(slug('Peers → Java stacks (JVM)'), 'peers--java-stacks-jvm')
        self.assertEqual(slug('`server_load` and [Load](load.md)'), 'server_load-and-load')
        self.assertEqual(anchors('# A\n## A\n```\n# A\n```\n### A\n'), {'a', 'a-1', 'a-2'})

    def test_links_in_code_are_not_links(self):
        text = ('See [x](a.md) and `[y](b.md)`.\n```\n[z](c.md)\n```\n![i](images/p.png "t") [two\n'
                'lines](d.md)\n')
        self.assertEqual(list(links(text)), [(1, 'a.md'), (5, 'images/p.png'), (5, 'd.md')])

    def test_a_broken_link_or_anchor_is_found(self):
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            root = pathlib.Path(tmp).resolve()
            (root / 'docs').mkdir()
            (root / 'docs' / 'a.md').write_text('# A page\n## Two words\n**Bold.** x\n',
                                                encoding='utf-8')
            readme = root / 'README.md'
            readme.write_text('[ok](docs/a.md#two-words) [ok](#top) [web](https://x.org/#q)\n'
                              '# Top\n[gone](docs/b.md) [bad](docs/a.md#three) [up](../x.md)\n',
                              encoding='utf-8')
            self.assertEqual(broken_links(readme, root),
                             ['README.md:3: (docs/b.md): no such file',
                              'README.md:3: (docs/a.md#three): docs/a.md has no heading #three',
                              'README.md:3: (../x.md): outside the checkout'])
            src = root / 'x.cpp'
            d = 'docs/'  # spelled apart, or this file's own scan would find these pointers
            src.write_text(f'// {d}a.md "two"; {d}a.md "Bold"; {d}a.md "Three"; {d}c.md "C"\n',
                           encoding='utf-8')
            self.assertEqual(broken_pointers([src], root),
                             ['x.cpp:1: docs/a.md has no heading "Three"', 'x.cpp:1: no docs/c.md'])


if __name__ == '__main__':
    unittest.main()
