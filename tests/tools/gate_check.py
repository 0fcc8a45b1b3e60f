#!/usr/bin/python3
"""The instruction-count gate has no false alarms and no misses (ctest bench.gate_check, label
`bench`: it runs callgrind five times and relinks parse_bench twice, several minutes).

Counts of one build (tools/icount, a subset) are compared with counts of
  - the same binary on a corpus with one more file (a manifest change: heap history),
  - a relinked binary whose version string is longer (context strings, static layout),
which must move no count by more than 0.5% and pass tools/compare; and of
  - a relinked binary whose pugixml adapter does 2% more work per parse (a stride loop over
    the message in PugixmlDom::parse),
which must fail tools/compare with regressions in the pugixml rows only, while every other
adapter's count moves by at most 0.5%.

Variants are built from the release tree's own compile and link commands
(build/compile_commands.json, `ninja -t commands`): one source compiled again with the change,
its object swapped into a copy of the static library, parse_bench linked again (sbtools/plant.py,
which tools/track_study plants with too).

Usage: ctest -R bench.gate_check, or PYTHONPATH=tools:tests tests/tools/gate_check.py [--build DIR]
(default: build/, which must hold parse_bench)
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

from sbtools.paths import REPO
from sbtools.plant import ANCHOR, INJECTION, PY, counts, variant

TOOLS = os.path.join(REPO, "tools")
BUILD = os.path.join(REPO, "build")
NOISE_PCT = 0.5  # what a change outside the measured code may move a count by


def corpus_plus_one(work):
    """The corpus with one more file (a copy of xmlrpc/add.call.xml under another name)."""
    src = os.path.join(REPO, "corpus")
    dst = os.path.join(work, "corpus-plus")
    os.makedirs(os.path.join(dst, "extra"))
    for d in os.listdir(src):
        if d != "manifest.json":
            os.symlink(os.path.join(src, d), os.path.join(dst, d))
    with open(os.path.join(src, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    entry = next(e for e in manifest["entries"] if e["path"] == "xmlrpc/add.call.xml")
    manifest["entries"].append(dict(entry, path="extra/add-copy.call.xml"))
    manifest["entries"].sort(key=lambda e: e["path"])
    shutil.copy(os.path.join(src, "xmlrpc", "add.call.xml"),
                os.path.join(dst, "extra", "add-copy.call.xml"))
    with open(os.path.join(dst, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1)
    return dst


def changes(base, new):
    """{benchmark: percent change} over the benchmarks of both."""
    return {k: (new[k] / base[k] - 1) * 100 for k in base if k in new}


def gate(base_path, new_path):
    return subprocess.run([PY, os.path.join(TOOLS, "compare"), "--only-changes", base_path,
                           new_path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, check=False)


class GateCheck(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.bench = os.path.join(BUILD, "bench", "parse_bench")
        if not os.access(cls.bench, os.X_OK) or not shutil.which("valgrind"):
            raise unittest.SkipTest(f"needs {cls.bench} and valgrind")
        cls.work = tempfile.mkdtemp(prefix="sb-gate-check-")
        cls.base_path = os.path.join(cls.work, "base.json")
        cls.base = counts(cls.bench, cls.base_path)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def assert_quiet(self, what, moved, only=lambda name: True):
        checked = {k: v for k, v in moved.items() if only(k)}
        big = {k: round(v, 3) for k, v in checked.items() if abs(v) > NOISE_PCT}
        print(f"{what}: {len(checked)} benchmarks, largest move "
              f"{max(abs(v) for v in checked.values()):.3f}%", file=sys.stderr)
        self.assertEqual(big, {}, f"{what} moved counts by more than {NOISE_PCT}%")

    def test_a_corpus_file_more_moves_no_count(self):
        new_path = os.path.join(self.work, "plus.json")
        new = counts(self.bench, new_path, corpus_plus_one(self.work))
        self.assert_quiet("one more corpus file", changes(self.base, new))
        self.assertEqual(gate(self.base_path, new_path).returncode, 0)

    def test_a_longer_version_string_moves_no_count(self):
        work = tempfile.mkdtemp(dir=self.work)
        source = os.path.join(REPO, "harness", "run_context.cpp")
        old = '{"soapbench_version", SB_VERSION}'

        def lengthen(text):
            self.assertIn(old, text, "the version entry moved: update gate_check.py")
            return text.replace(old, '{"soapbench_version", SB_VERSION "-and-a-longer-tail"}')

        exe = variant(BUILD, work, source, lengthen)
        new_path = os.path.join(work, "version.json")
        self.assert_quiet("a longer version string", changes(self.base, counts(exe, new_path)))
        self.assertEqual(gate(self.base_path, new_path).returncode, 0)

    def test_a_2_percent_slower_adapter_fails_the_gate(self):
        work = tempfile.mkdtemp(dir=self.work)
        source = os.path.join(REPO, "parsers", "pugixml_dom.cpp")

        def inject(text):
            self.assertIn(ANCHOR, text, "the injection point moved: update gate_check.py")
            return text.replace(ANCHOR, ANCHOR + "\n" + INJECTION, 1)

        exe = variant(BUILD, work, source, inject)
        new_path = os.path.join(work, "slow.json")
        moved = changes(self.base, counts(exe, new_path))
        pugixml = re.compile(r"^[a-z]+/pugixml-dom(-inplace)?/")
        hit = {k: round(v, 2) for k, v in moved.items() if k.startswith("parse/") and pugixml.match(k)}
        print(f"injected slowdown: {hit}", file=sys.stderr)
        self.assertTrue(hit and all(1.5 <= v <= 3.0 for v in hit.values()), hit)
        self.assert_quiet("a change in pugixml_dom.cpp, for other adapters", moved,
                          only=lambda k: not pugixml.match(k))
        proc = gate(self.base_path, new_path)
        print(proc.stdout, file=sys.stderr)
        self.assertEqual(proc.returncode, 1)
        regressions = [l.split()[0] for l in proc.stdout.splitlines() if "regression (" in l]
        self.assertTrue(regressions)
        self.assertTrue(all(pugixml.match(n) for n in regressions), regressions)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--build", default=BUILD)
    args, rest = ap.parse_known_args()
    BUILD = os.path.abspath(args.build)
    unittest.main(argv=[sys.argv[0], *rest], verbosity=2)
