"""What the tests of the result tools share (tests/tools/test_*.py, label unit): paths, running a
tool, the sample files (tests/data/results/, see its README.md) and a temporary folder per test.

  parse_bench.run1.json         a real parse_bench run, narrow filter, 5 repetitions
  parse_bench.rerun_a/b.json    two real runs of one filter (7 repetitions each, random
                                interleaving); they differ only by noise, so `same` is tested
                                on real reruns, not on synthetic jitter
  roundtrip_bench.sample.json   hand-made roundtrip_bench result (docs/results.md layout)
  parse_bench.ranking.json      hand-made decode results: a clear winner, a tie, single runs
"""
import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(REPO, "tests", "data", "results")
TOOLS = os.path.join(REPO, "tools")
PY = "/usr/bin/python3"
RUN1 = os.path.join(DATA, "parse_bench.run1.json")
RERUN_A = os.path.join(DATA, "parse_bench.rerun_a.json")
RERUN_B = os.path.join(DATA, "parse_bench.rerun_b.json")
ROUNDTRIP = os.path.join(DATA, "roundtrip_bench.sample.json")
RANKING = os.path.join(DATA, "parse_bench.ranking.json")
sys.dont_write_bytecode = True
from sbtools import buildkey, gbench  # noqa: E402


# The build facts of a tools/icount file (sbtools.buildkey.icount_build), for hand-made files.
BUILD = {"compiler": "g++ 12.2.0", "build": "release", "libraries": {"pugixml": "1.13"},
         "simdjson_kernels": ["haswell"], "isa_level": "x86-64-v3", "glibc": "glibc 2.36",
         "valgrind": "valgrind-3.19.0", "shared_libraries": ["libc.so.6"]}


def build_key(build):
    return buildkey.icount_build_key(build)


def tool(name, *args, check=None):
    proc = subprocess.run([PY, os.path.join(TOOLS, name), *args], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=600, cwd=REPO)
    if check is not None and proc.returncode != check:
        raise AssertionError(f"tools/{name} {' '.join(args)} exited {proc.returncode}, wanted "
                             f"{check}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}")
    return proc


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def dump(doc, path):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
    return path


def scaled(doc, pattern, factor):
    """A copy where every entry (repetitions and aggregates) of benchmarks matching pattern
    takes factor × its time; rates shrink accordingly (cv stays: it is a ratio)."""
    out = copy.deepcopy(doc)
    rx = re.compile(pattern)
    hit = set()
    for e in out["benchmarks"]:
        if not rx.search(e.get("run_name", e["name"])):
            continue
        hit.add(e.get("run_name"))
        if e.get("aggregate_name") == "cv":
            continue
        for k in ("real_time", "cpu_time"):
            e[k] *= factor
        for k in ("bytes_per_second", "msgs_per_s"):
            if k in e:
                e[k] /= factor
    assert hit, pattern
    return out, hit


class Tmp(unittest.TestCase):
    maxDiff = 2000  # a report is 4,000 lines: a failed assertIn shows its start only
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="sb-tools-test-")
        self.addCleanup(shutil.rmtree, self.tmp, True)  # also when setUp skips

    def path(self, *parts):
        return os.path.join(self.tmp, *parts)

    def compare(self, base, new, *extra, check=None):
        out = self.path("verdicts.json")
        proc = tool("compare", base, new, "--json", out, "--results-dir", self.path("results"),
                    *extra, check=check)
        verdicts = {}
        if os.path.exists(out):
            for comp in load(out):
                for r in comp["rows"]:
                    verdicts[r["name"]] = r["verdict"]
            os.remove(out)
        return proc, verdicts


def separable(doc, factor):
    """Benchmarks whose repetitions all move past each other when scaled by factor
    (max/min spread below it): a Mann-Whitney test must call those. With the shared, noisy
    machines the samples were measured on, noisier benchmarks may overlap after a 10% shift
    and rightly stay `same`."""
    times = {}
    for e in doc["benchmarks"]:
        if e.get("run_type") == "iteration":
            times.setdefault(e["run_name"], []).append(e["real_time"])
    spread = factor if factor > 1 else 1 / factor
    return sorted(n for n, t in times.items() if len(t) >= 5 and max(t) / min(t) < spread)




def gb_result(time, **counters):
    """A real sbtools.gbench.Result: one repetition of `time` ns with these counters."""
    entry = {"name": "x", "run_type": "iteration", "real_time": time, "cpu_time": time,
             "time_unit": "ns", "iterations": 1, **counters}
    return gbench.results_of({"benchmarks": [entry]})["x"]


def headline_doc(times, decisions=None):
    """A hand-made results file of complex.call decodes: times {(adapter, family): [ns per
    repetition]}; with decisions [(family, base, head, state, shift, rounds)] a
    tools/bench_rounds file (context "rounds", the decisions under rounds_until_decided)."""
    entries = []
    for (a, fam), reps in sorted(times.items()):
        name = f"decode/{a}/{fam}/complex.call"
        entries += [{"name": name, "run_name": name, "run_type": "iteration",
                     "repetitions": len(reps), "repetition_index": i, "real_time": t,
                     "cpu_time": t, "time_unit": "ns", "iterations": 100}
                    for i, t in enumerate(reps)]
    doc = {"context": {"executable": "/b/bench/parse_bench", "bench_set": "default",
                       "date": "2026-12-05T10:00:00+00:00", "git_sha": "abc123"},
           "benchmarks": entries}
    if decisions is not None:
        doc["context"]["rounds"] = "until decided (tools/bench_rounds)"
        rows = [{"key": f"{fam}: {b} vs {h}", "family": fam, "state": state, "shift": shift,
                 "base": f"decode/{b}/{fam}/complex.call",
                 "head": f"decode/{h}/{fam}/complex.call", "rounds": n, "p": 1e-4,
                 "low": None, "high": None, "alpha": 0.01 / len(decisions)}
                for fam, b, h, state, shift, n in decisions]
        doc["rounds_until_decided"] = {
            "alpha": 0.01, "margin": 0.02, "leaders": 2, "top": 4, "budget_s": 100, "seconds": 50.0,
            "rounds": 40, "pilot_rounds": 3, "stopped": "decided", "row_rounds": {},
            "failed": {}, "comparisons": rows}
    return doc


def main():
    unittest.main(argv=[sys.argv[0], *sys.argv[1:]], verbosity=2)
