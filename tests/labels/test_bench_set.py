#!/usr/bin/python3
"""`ctest -L bench`, in the user's own words, runs the default benchmark set and nothing else.

`ctest -L` takes a regular expression, so a label such as `bench-full` would also be selected by
`-L bench` (two hours instead of ten minutes). Checks on a configured build tree: `-L bench`
selects the same tests as `-L '^bench$'`, only tests of the default set, and every label in the
tree is one docs/benchmarks.md documents, none of them but `bench` containing "bench".

Usage: test_bench_set.py CTEST BUILD_DIR
"""
import re
import subprocess
import sys
import unittest

# The default set (docs/benchmarks.md); bench.stacks, bench.stacks.java and bench.server_load
# only where their peers, the JDK and wrk were found.
DEFAULT_SET = {"bench.headline", "bench.parse", "bench.roundtrip", "bench.icount", "bench.conformance",
               "bench.conformance_suites", "bench.wild",
               "bench.interop", "bench.stacks", "bench.stacks.java", "bench.server_load",
               "bench.compare"}
ALWAYS = {"bench.headline", "bench.parse", "bench.roundtrip", "bench.icount", "bench.wild", "bench.compare"}
# Every label and what it selects (docs/benchmarks.md "Benchmarks").
LABELS = {"unit", "bench", "full", "load", "scripting"}
CTEST, BUILD = sys.argv[1], sys.argv[2]


def ctest(*args):
    """ctest's output on the build tree (listing only)."""
    proc = subprocess.run([CTEST, "--test-dir", BUILD, *args], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=120)
    if proc.returncode != 0:
        raise AssertionError(f"ctest {' '.join(args)} failed: {proc.stdout}")
    return proc.stdout


def selected(label_regex):
    """The names of the tests `ctest -N -L label_regex` lists."""
    return set(re.findall(r"Test\s+#\d+: (\S+)", ctest("-N", "-L", label_regex)))


class BenchSetTest(unittest.TestCase):
    def test_bench_selects_the_default_set_only(self):
        tests = selected("bench")
        self.assertEqual(tests, selected("^bench$"))
        self.assertLessEqual(tests, DEFAULT_SET, f"beyond the default set: {tests - DEFAULT_SET}")
        self.assertLessEqual(ALWAYS, tests)

    def test_every_label_is_documented_and_only_bench_says_bench(self):
        text = ctest("--print-labels")
        labels = set(re.findall(r"^\s+(\S+)$", text.split("All Labels:", 1)[-1], re.M))
        self.assertLessEqual(labels, LABELS, f"undocumented labels: {labels - LABELS}")
        self.assertEqual({label for label in labels if re.search("bench", label)}, {"bench"})


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
