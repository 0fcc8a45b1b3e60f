"""README's Adapters table, generated: `tools/readme_adapters SOAPBENCH [--check]`.

Every fact of a row is written once elsewhere: name, library, format and model in the adapter's
own file (read through the build: `soapbench list --json`), "in every build" in its declaration
(the sb_adapter() call of its block in cmake/dependencies.cmake: "yes", or "no: " and its
OPTIONAL reason). Rows come in registry order, then the declared adapters this build lacks (an
optional library), whose row README already has is kept as it is. Without --check the table in
README.md is rewritten; with it, the tool says whether README is current (the readme.adapters test)
and exits 1 when it is not.
"""
import argparse
import difflib
import json
import os
import re
import shlex
import subprocess
import sys

from sbtools.paths import REPO, rel

README = os.path.join(REPO, "README.md")
DEPENDENCIES = os.path.join(REPO, "cmake", "dependencies.cmake")
HEADER = "| adapter | library | format | model | in every build |\n|---|---|---|---|---|\n"
ROW = re.compile(r"^\| `([^`]+)` \| ([^|]+) \| (xml|json) \| (\w+) \| ([^|]+) \|$")
DECLARATION = re.compile(r"^sb_adapter\(([^)]*)\)", re.MULTILINE)
KEYWORDS = ("ADAPTERS", "WRITER", "OPTIONAL", "SOURCES")


class TableError(Exception):
    """The table cannot be made (an adapter without a declaration, a row without its facts)."""


def declarations(cmake_text):
    """{adapter name: OPTIONAL reason or None} of every sb_adapter() call, in declaration order."""
    declared = {}
    for m in DECLARATION.finditer(cmake_text):
        words = shlex.split(m.group(1).replace("\n", " "))
        keyword, optional, names = None, None, []
        for word in words[3:]:
            if word in KEYWORDS:
                keyword = word
            elif keyword == "ADAPTERS":
                names.append(word)
            elif keyword == "OPTIONAL":
                optional = word
        for name in names:
            declared[name] = optional
    return declared


def readme_rows(readme_text):
    """{name: (library, format, model, in every build)} of the Adapters section's table."""
    rows = {}
    for line in adapters_section(readme_text).splitlines():
        m = ROW.match(line)
        if m:
            rows[m.group(1)] = tuple(g.strip() for g in m.groups()[1:])
    return rows


def adapters_section(readme_text):
    if "\n## Adapters\n" not in readme_text:
        raise TableError("README has no '## Adapters' section")
    return readme_text.split("\n## Adapters\n", 1)[1].split("\n## ", 1)[0]


def table_rows(listed, declared, current):
    """The rows: `listed` (soapbench list --json) in its order, then the declared adapters it
    lacks, each kept from `current` (readme_rows) when optional."""
    rows = []
    for a in listed:
        if a["name"] not in declared:
            raise TableError(f"{a['name']} is built but no sb_adapter() call declares it")
        every = declared[a["name"]]
        rows.append((a["name"], a["library"], a["format"], a["model"],
                     "yes" if every is None else "no: " + every))
    built = {a["name"] for a in listed}
    for name, optional in declared.items():
        if name in built:
            continue
        if optional is None:
            raise TableError(f"{name} is declared for every build but this build lacks it: "
                             "make the table with a build that has every required library")
        if name not in current:
            raise TableError(f"{name} is not built here and README has no row for it yet: make "
                             "the table once with a build that has it")
        rows.append((name, *current[name][:3], "no: " + optional))
    return rows


def render(rows):
    return HEADER + "".join(f"| `{n}` | {lib} | {fmt} | {model} | {every} |\n"
                            for n, lib, fmt, model, every in rows)


def with_table(readme_text, table):
    """README's text with the Adapters section's table replaced by `table`."""
    section = adapters_section(readme_text)
    start = section.find(HEADER)
    if start < 0:
        raise TableError("README's Adapters section has no table headed " + HEADER.split("\n")[0])
    end = start + len(HEADER)
    while section.startswith("| ", end):
        end = section.index("\n", end) + 1
    new_section = section[:start] + table + section[end:]
    at = readme_text.index("\n## Adapters\n") + len("\n## Adapters\n")
    return readme_text[:at] + new_section + readme_text[at + len(section):]


def listed_adapters(soapbench):
    out = subprocess.run([soapbench, "list", "--json"], check=True, stdout=subprocess.PIPE,
                         text=True).stdout
    return json.loads(out)


def current_readme(soapbench, readme_text, cmake_text):
    """README's text as it should be for this build."""
    rows = table_rows(listed_adapters(soapbench), declarations(cmake_text),
                      readme_rows(readme_text))
    return with_table(readme_text, render(rows))


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="tools/readme_adapters", description=__doc__.split("\n\n")[0],
        epilog="The table's rows: `soapbench list --json` and the sb_adapter() declarations of "
               "cmake/dependencies.cmake (docs/architecture.md \"Adding a parser\").")
    parser.add_argument("soapbench", help="the soapbench of a build (build/soapbench)")
    parser.add_argument("--check", action="store_true",
                        help="only say whether README.md is current (exit 1 when not)")
    parser.add_argument("--readme", default=README, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    with open(args.readme, encoding="utf-8") as f:
        text = f.read()
    with open(DEPENDENCIES, encoding="utf-8") as f:
        cmake_text = f.read()
    try:
        wanted = current_readme(args.soapbench, text, cmake_text)
    except TableError as e:
        print(f"readme_adapters: {e}", file=sys.stderr)
        return 1
    if wanted == text:
        print(f"readme_adapters: {rel(args.readme)}'s Adapters table is current")
        return 0
    if args.check:
        diff = difflib.unified_diff(text.splitlines(True), wanted.splitlines(True),
                                    rel(args.readme), "generated", n=0)
        sys.stderr.writelines(diff)
        print(f"readme_adapters: {rel(args.readme)}'s Adapters table is not current: run "
              f"tools/readme_adapters {args.soapbench}", file=sys.stderr)
        return 1
    with open(args.readme, "w", encoding="utf-8") as f:
        f.write(wanted)
    print(f"readme_adapters: {rel(args.readme)}'s Adapters table rewritten")
    return 0
