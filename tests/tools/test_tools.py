#!/usr/bin/python3
"""Tests of tools/results, tools/report, tools/compare and tools/icount (ctest label unit).

Data: tests/data/results/ (see its README.md):
  parse_bench.run1.json         a real parse_bench run, narrow filter, 5 repetitions
  parse_bench.rerun_a/b.json    two real runs of one filter (7 repetitions each, random
                                interleaving); they differ only by noise, so `same` is tested
                                on real reruns, not on synthetic jitter
  roundtrip_bench.sample.json   hand-made roundtrip_bench result (docs/results.md layout)
  parse_bench.ranking.json      hand-made decode results: a clear winner, a tie, single runs

Usage: tests/tools/test_tools.py [TestClass ...]; SB_PARSE_BENCH=path/to/parse_bench for
IcountTest (skipped when unset, missing, or valgrind is not installed).
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
sys.path.insert(0, TOOLS)
import sbresults as sb  # noqa: E402


# The build facts of a tools/icount file (sbresults.icount_build), for hand-made files.
BUILD = {"compiler": "g++ 12.2.0", "build": "release", "libraries": {"pugixml": "1.13"},
         "simdjson_kernels": ["haswell"], "isa_level": "x86-64-v3", "glibc": "glibc 2.36",
         "valgrind": "valgrind-3.19.0", "shared_libraries": ["libc.so.6"]}


def build_key(build):
    sys.path.insert(0, TOOLS)
    import sbresults
    return sbresults.icount_build_key(build)


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


class CompareTest(Tmp):
    # The 10% slowdown is injected into a copy of parse_bench.rerun_b.json (7 repetitions).
    BASE = RERUN_B

    def slowed(self, factor, name="slow.json"):
        doc = load(self.BASE)
        names = separable(doc, factor)
        self.assertGreaterEqual(len(names), 3, "the sample needs 3 benchmarks with a small spread")
        out, hit = scaled(doc, "^(" + "|".join(re.escape(n) for n in names) + ")$", factor)
        self.assertEqual(sorted(hit), names)
        dump(out, self.path(name))
        return self.path(name), names

    def test_slowdown_of_10_percent_is_a_regression(self):
        slow, names = self.slowed(1.10)
        proc, v = self.compare(self.BASE, slow, check=1)
        for name in names:
            self.assertEqual(v[name], "regression", proc.stdout)
        others = {n: x for n, x in v.items() if n not in names}
        self.assertTrue(others)
        self.assertEqual(set(others.values()), {"same"}, proc.stdout)
        self.assertIn("geometric mean of new/base", proc.stdout)

    def test_slowdown_of_every_benchmark_is_never_an_improvement(self):
        doc, _hit = scaled(load(RUN1), ".", 1.10)
        dump(doc, self.path("all.json"))
        proc, v = self.compare(RUN1, self.path("all.json"))
        self.assertNotIn("improvement", v.values())
        self.assertEqual(proc.returncode, 1 if "regression" in v.values() else 0)

    def test_speedup_is_an_improvement_and_exits_0(self):
        fast, names = self.slowed(0.85, "fast.json")
        _proc, v = self.compare(self.BASE, fast, check=0)
        for name in names:
            self.assertEqual(v[name], "improvement")

    def test_unchanged_rerun_is_same(self):
        # Two real runs of the same filter (not a synthetic copy): every verdict is `same`.
        proc, v = self.compare(RERUN_A, RERUN_B, check=0)
        self.assertEqual(len(v), 10)
        self.assertEqual(set(v.values()), {"same"}, proc.stdout)

    def test_identical_files_are_same(self):
        _proc, v = self.compare(RUN1, RUN1, check=0)
        self.assertEqual(set(v.values()), {"same"})

    def test_too_few_repetitions_is_inconclusive(self):
        doc = load(self.BASE)
        few = copy.deepcopy(doc)
        few["benchmarks"] = [e for e in doc["benchmarks"]
                             if e.get("run_type") == "iteration" and e["repetition_index"] < 2]
        dump(few, self.path("few.json"))
        slow, _hit = scaled(few, ".", 1.5)
        dump(slow, self.path("few_slow.json"))
        # Even a 50% slowdown cannot be called with 2 repetitions a side: exit 0.
        proc, v = self.compare(self.path("few.json"), self.path("few_slow.json"), check=0)
        self.assertEqual(set(v.values()), {"inconclusive"}, proc.stdout)
        self.assertIn("--benchmark_repetitions", proc.stdout)
        # 2 against 7 repetitions: still inconclusive.
        _proc, v = self.compare(self.path("few.json"), self.BASE, check=0)
        self.assertEqual(set(v.values()), {"inconclusive"})
        # 3 against 3 cannot reach p <= 0.01 either (smallest two-sided p = 0.1).
        three = copy.deepcopy(doc)
        three["benchmarks"] = [e for e in doc["benchmarks"]
                               if e.get("run_type") == "iteration" and e["repetition_index"] < 3]
        dump(three, self.path("three.json"))
        dump(scaled(three, ".", 1.5)[0], self.path("three_slow.json"))
        _proc, v = self.compare(self.path("three.json"), self.path("three_slow.json"), check=0)
        self.assertEqual(set(v.values()), {"inconclusive"})

    def test_thresholds_json_overrides(self):
        slow, names = self.slowed(1.10)
        first = names[0]
        os.makedirs(self.path("results"))
        # 15% for one benchmark: it becomes `same`, the others still regress.
        dump({"^" + re.escape(first) + "$": 15, "icount": {".*": 50}},
             self.path("results", "thresholds.json"))
        proc, v = self.compare(self.BASE, slow, check=1)
        for name in names:
            self.assertEqual(v[name], "same" if name == first else "regression", proc.stdout)
        # Everything at 20%: no regression left, exit 0.
        dump({".*": 20}, self.path("results", "thresholds.json"))
        _proc, v = self.compare(self.BASE, slow, check=0)
        self.assertNotIn("regression", v.values())
        # --threshold changes the default; --thresholds names another file.
        dump({}, self.path("results", "thresholds.json"))
        self.compare(self.BASE, slow, "--threshold", "12", check=0)
        dump({"^" + re.escape(first) + "$": 3}, self.path("other.json"))
        _proc, v = self.compare(self.BASE, slow, "--threshold", "12",
                                "--thresholds", self.path("other.json"), check=1)
        self.assertEqual([n for n, x in v.items() if x == "regression"], [first])

    def icount_file(self, path, instr, iterations=20, machine="m1", build=None):
        """A tools/icount file; build: the icount build facts (keyed) or None (an older file)."""
        meta = {"iterations": iterations}
        if build is not None:
            meta.update(build=build, build_key=build_key(build))
        dump({"context": {"machine_id": machine, "git_sha": "x",
                          "date": "2025-01-01T00:00:00+00:00"},
              "instructions": {f"{n}/iterations:{iterations}": c for n, c in instr.items()},
              "icount": meta}, path)

    def test_icount_files(self):
        base = {"decode/a/xmlrpc/add.call": 10000.0, "decode/b/xmlrpc/add.call": 20000.0,
                "decode/c/xmlrpc/add.call": 30000.0, "parse/d/xmlrpc/x": 1000.0}
        new = {"decode/a/xmlrpc/add.call": 10150.0,   # +1.5%: regression
               "decode/b/xmlrpc/add.call": 20100.0,   # +0.5%: same
               "decode/c/xmlrpc/add.call": 29000.0,   # -3.3%: improvement
               "parse/d/xmlrpc/x": 1000.0}
        self.icount_file(self.path("a.json"), base, iterations=20)
        self.icount_file(self.path("b.json"), new, iterations=7)  # paired without /iterations:N
        proc, v = self.compare(self.path("a.json"), self.path("b.json"), check=1)
        self.assertEqual(v, {"decode/a/xmlrpc/add.call": "regression",
                             "decode/b/xmlrpc/add.call": "same",
                             "decode/c/xmlrpc/add.call": "improvement",
                             "parse/d/xmlrpc/x": "same"}, proc.stdout)
        # The icount section of thresholds.json applies to instruction counts only.
        os.makedirs(self.path("results"))
        dump({".*": 0.1, "icount": {"^decode/a/": 2}}, self.path("results", "thresholds.json"))
        _proc, v = self.compare(self.path("a.json"), self.path("b.json"), check=0)
        self.assertEqual(v["decode/a/xmlrpc/add.call"], "same")
        self.assertEqual(v["decode/c/xmlrpc/add.call"], "improvement")

    def test_icount_against_baseline(self):
        # Counts are keyed by build, not machine: a baseline made on machine m1 applies on m2.
        results = self.path("results")
        build = dict(BUILD)
        self.icount_file(self.path("build-icount.json"), {"decode/a/x/y": 1000.0}, machine="m1",
                         build=build)
        self.icount_file(self.path("new-icount.json"), {"decode/a/x/y": 1020.0}, machine="m2",
                         build=build)
        key = build_key(build)
        proc = tool("compare", "--results-dir", results, "--against-baseline",
                    self.path("new-icount.json"), check=0)
        self.assertIn(f"no baseline for build {key}: run tools/results baseline --icount",
                      proc.stdout)
        tool("results", "--results-dir", results, "save", self.path("build-icount.json"),
             check=0)
        self.assertEqual(os.listdir(os.path.join(results, "icount", key)),
                         ["20250101-000000_x.json"])
        tool("results", "--results-dir", results, "baseline", "--icount", check=0)
        self.assertTrue(os.path.exists(os.path.join(results, "icount", key, "baseline.json")))
        proc = tool("compare", "--results-dir", results, "--against-baseline",
                    self.path("new-icount.json"), check=1)   # +2% instructions, other machine
        self.assertIn("verdict (instruction counts): FAIL", proc.stdout)
        self.assertNotIn("different machines", proc.stdout)
        proc = tool("results", "--results-dir", results, "list", check=0)
        self.assertIn(f"icount build {key}: g++ 12.2.0", proc.stdout)
        # Another compiler is another build: no baseline, and the message says what differs.
        other = dict(build, compiler="clang 14.0.6")
        self.icount_file(self.path("clang.json"), {"decode/a/x/y": 1000.0}, build=other)
        proc = tool("compare", "--results-dir", results, "--against-baseline",
                    self.path("clang.json"), check=0)
        self.assertIn(f"no baseline for build {build_key(other)}", proc.stdout)
        self.assertIn("compiler: g++ 12.2.0 -> clang 14.0.6", proc.stdout)

    def test_icount_build_key_ignores_the_machine(self):
        sys.path.insert(0, TOOLS)
        import sbresults
        ctx = {"compiler": "g++ 12.2.0", "build": "release", "lib_pugixml": "1.13",
               "cpu_model": "AMD EPYC", "caches": "L1d=32K", "host_name": "vm", "machine_id": "a",
               "adapter:simdjson/dom": "mode=dom::parser with the 'haswell' kernel"}
        runtime = {"isa_level": "x86-64-v3", "glibc": "glibc 2.36", "valgrind": "valgrind-3.19.0",
                   "shared_libraries": ["libc.so.6"]}
        build = sbresults.icount_build(ctx, runtime)
        self.assertEqual(build["simdjson_kernels"], ["haswell"])
        self.assertEqual(build["libraries"], {"pugixml": "1.13"})
        other_machine = dict(ctx, cpu_model="Intel Xeon", caches="L1d=48K", host_name="ci",
                             machine_id="b")
        self.assertEqual(sbresults.icount_build_key(sbresults.icount_build(other_machine, runtime)),
                         sbresults.icount_build_key(build))
        for changed in (dict(ctx, lib_pugixml="1.14"), dict(ctx, compiler="g++ 13.1.0")):
            self.assertNotEqual(sbresults.icount_build_key(sbresults.icount_build(changed, runtime)),
                                sbresults.icount_build_key(build))
        self.assertNotEqual(sbresults.icount_build_key(
            sbresults.icount_build(ctx, dict(runtime, isa_level="x86-64-v2"))),
            sbresults.icount_build_key(build))

    def test_pairs_across_repeats_and_iterations_suffixes(self):
        # parse_bench's headline benchmarks carry Google Benchmark's /repeats:5 (per-benchmark
        # repetitions); a rename to the plain form must still pair (and the report find them).
        renamed = copy.deepcopy(load(RUN1))
        for e in renamed["benchmarks"]:
            for k in ("name", "run_name"):
                if k in e and e[k].startswith("decode/"):
                    e[k] = re.sub(r"^(decode/[^ ]*?)(_(mean|median|stddev|cv))?$",
                                  lambda m: m.group(1) + "/repeats:5" + (m.group(2) or ""), e[k])
        dump(renamed, self.path("renamed.json"))
        proc, v = self.compare(RUN1, self.path("renamed.json"), check=0)
        self.assertNotIn("only in new", proc.stdout)
        self.assertTrue(any(n.startswith("decode/") for n in v), proc.stdout)

    def test_mixed_kinds_are_refused(self):
        self.icount_file(self.path("a.json"), {"x": 1.0})
        proc, _v = self.compare(self.path("a.json"), RUN1, check=2)
        self.assertIn("cannot compare", proc.stderr)

    def test_against_baseline(self):
        results = self.path("results")
        mid = load(self.BASE)["context"]["machine_id"]
        # No baseline: the message, exit 0.
        proc = tool("compare", "--results-dir", results, "--against-baseline", self.BASE,
                    self.path("missing.json"), check=0)
        self.assertIn(f"no baseline for machine {mid}: run tools/results baseline", proc.stdout)
        # A baseline and a regressed run: exit 1; an unchanged run: exit 0.
        os.makedirs(os.path.join(results, mid))
        shutil.copy(self.BASE, os.path.join(results, mid, "baseline.parse_bench.json"))
        slow, _names = self.slowed(1.10, "parse_bench.json")
        tool("compare", "--results-dir", results, "--against-baseline", slow, check=1)
        tool("compare", "--results-dir", results, "--against-baseline", RERUN_A, check=0)
        # --gate icount (ctest's bench.compare): the timing regression is printed, exit 0.
        proc = tool("compare", "--results-dir", results, "--gate", "icount",
                    "--against-baseline", slow, check=0)
        self.assertIn("regression", proc.stdout)
        self.assertIn("not gated", proc.stdout)

    def test_help(self):
        proc = tool("compare", "--help", check=0)
        for word in ("regression", "improvement", "inconclusive", "thresholds.json", "icount"):
            self.assertIn(word, proc.stdout)


class ResultsTest(Tmp):
    def test_save_baseline_list(self):
        results = self.path("results")
        src = self.path("build-results")
        os.makedirs(src)
        shutil.copy(RUN1, os.path.join(src, "parse_bench.json"))
        shutil.copy(ROUNDTRIP, os.path.join(src, "roundtrip_bench.json"))
        # A file from another machine is refused; the others are saved.
        other = load(RERUN_A)
        other["context"]["machine_id"] = "0123456789ab"
        dump(other, os.path.join(src, "stray.json"))
        proc = tool("results", "--results-dir", results, "save", "--from", src, check=1)
        self.assertIn("refusing", proc.stderr)
        self.assertIn("0123456789ab", proc.stderr)
        mid = load(RUN1)["context"]["machine_id"]
        saved = sorted(os.listdir(os.path.join(results, mid)))
        self.assertEqual(len(saved), 2, saved)
        for f in saved:
            self.assertRegex(f, r"^\d{8}-\d{6}_[0-9a-f]{12}(-dirty)?\.(parse|roundtrip)_bench\.json$")
        self.assertFalse(os.path.exists(os.path.join(results, "0123456789ab")))
        # Unmodified copies.
        pb = next(f for f in saved if f.endswith(".parse_bench.json"))
        with open(RUN1, "rb") as a, open(os.path.join(results, mid, pb), "rb") as b:
            self.assertEqual(a.read(), b.read())
        # An interop matrix is kept as the machine's interop.json (its machine_id in "context").
        dump({"tool": "soapbench interop", "context": {"machine_id": mid}, "cells": []},
             os.path.join(src, "interop.json"))
        proc = tool("results", "--results-dir", results, "save", "--from", src, check=1)
        self.assertIn("interop.json -> ", proc.stdout)  # (exit 1: stray.json is still refused)
        self.assertTrue(os.path.exists(os.path.join(results, mid, "interop.json")))
        os.remove(os.path.join(src, "interop.json"))
        # Saving again changes nothing; no baseline was set by save.
        os.remove(os.path.join(src, "stray.json"))
        proc = tool("results", "--results-dir", results, "save", "--from", src, check=0)
        self.assertIn("already saved", proc.stdout)
        self.assertFalse([f for f in os.listdir(os.path.join(results, mid))
                          if f.startswith("baseline")])
        # An explicit baseline, by run prefix.
        prefix = pb[:-len(".parse_bench.json")]
        tool("results", "--results-dir", results, "--machine", mid, "baseline", prefix, check=0)
        self.assertTrue(os.path.exists(os.path.join(results, mid, "baseline.parse_bench.json")))
        self.assertTrue(os.path.exists(os.path.join(results, mid, "baseline.roundtrip_bench.json")))
        proc = tool("results", "--results-dir", results, "--machine", mid, "list", check=0)
        self.assertIn("[baseline]", proc.stdout)
        self.assertIn(mid, proc.stdout)
        # A run that does not exist.
        tool("results", "--results-dir", results, "--machine", mid, "baseline", "19990101",
             check=1)

    def test_a_stacks_bench_set_is_its_own_kind(self):
        # stacks_bench --set=scripting must not shadow the default set's newest run.
        results = self.path("results")
        src = self.path("build-results")
        os.makedirs(src)
        mid = load(RUN1)["context"]["machine_id"]
        for bench_set in ("default", "scripting"):
            doc = load(ROUNDTRIP)
            doc["context"].update(executable="/b/peers/stacks_bench", bench_set=bench_set)
            dump(doc, os.path.join(src, f"stacks_{bench_set}.json"))
        tool("results", "--results-dir", results, "save", "--from", src, check=0)
        kinds = sorted(f.split(".", 1)[1] for f in os.listdir(os.path.join(results, mid)))
        self.assertEqual(kinds, ["stacks_bench.json", "stacks_bench_scripting.json"])

    def test_help(self):
        proc = tool("results", "--help", check=0)
        for word in ("save", "baseline", "list"):
            self.assertIn(word, proc.stdout)


class ReportTest(Tmp):
    def run_report(self, *extra):
        results = self.path("results")
        mid = load(RUN1)["context"]["machine_id"]
        mdir = os.path.join(results, mid)
        os.makedirs(mdir, exist_ok=True)
        tool("results", "--results-dir", results, "save", RUN1, ROUNDTRIP, check=0)
        proc = tool("report", "--results-dir", results, "--machine", mid, "--summary", *extra,
                    check=0)
        return proc, mdir

    def check_charts(self, mdir, text, at_least=8):
        links = re.findall(r"\]\((charts/[^)]+)\)", text)
        self.assertGreaterEqual(len(links), at_least, links)
        for link in links:
            path = os.path.join(mdir, link)
            self.assertTrue(os.path.exists(path), link)
            root = ET.parse(path).getroot()
            self.assertEqual(root.tag.rsplit("}", 1)[-1], "svg", link)
        return links

    def test_report_from_the_committed_samples(self):
        proc, mdir = self.run_report()
        with open(os.path.join(mdir, "report.md"), encoding="utf-8") as f:
            text = f.read()
        links = self.check_charts(mdir, text)
        # Every chart in the folder is linked (no stale ones).
        self.assertEqual(sorted(os.listdir(os.path.join(mdir, "charts"))),
                         sorted(os.path.basename(l) for l in links))
        for heading in ("Decode throughput per adapter and family", "Parse vs walk vs decode",
                        "Throughput against message size", "Allocations and peak memory",
                        "Round trip: where the time goes", "Wire bytes per family",
                        "Parser share of a call per link model", "Adapter flags",
                        "2001 DOM vs pull, now", "Adapter overhead vs direct calls",
                        "Run and reproduction"):
            self.assertIn(f"## {heading}", text)
        self.assertNotIn("## Conformance", text)   # no conformance.json: skipped silently
        # The link model comes from the roundtrip file's context (the sample carries it).
        self.assertIn("projected call time = client_encode_ns + server_decode_ns", text)
        self.assertIn("LAN 1 Gbit/s, 0.5 ms RTT", text)
        self.assertIn("Decode per protocol family on its headline message", text.split("##")[0])
        self.assertIn("on loopback", text.split("##")[0])
        self.assertIn("`rapidxml/dom-fastest`", text)   # flags of every adapter in the context
        self.assertIn("decode per family on its headline message", proc.stdout)  # --summary
        self.assertIn("## Statistics", text)

    def stacks_report(self, benchmarks):
        """report.md from RUN1 and a stacks_bench file holding `benchmarks`."""
        ctx = dict(load(RUN1)["context"], executable="build/peers/stacks_bench")
        ctx["default_adapter:xml"] = "pugixml/dom"  # RUN1 predates the key
        stacks = self.path("stacks_bench.json")
        dump({"context": ctx, "benchmarks": benchmarks}, stacks)
        out = self.path("out")
        tool("report", RUN1, stacks, "--out-dir", out, "--no-charts", check=0)
        with open(os.path.join(out, "report.md"), encoding="utf-8") as f:
            return f.read()

    def test_real_stacks_section(self):
        # A small stacks_bench file: round trips of every pair on one call (the xmlrpc-c client
        # counts no bytes) and one stack deserializer row on a message parse_bench ran.
        def row(name, us, **counters):
            return dict({"name": name, "run_name": name, "run_type": "iteration", "iterations": 100,
                         "real_time": us, "cpu_time": us, "time_unit": "us"}, **counters)
        rt = "roundtrip/keepalive/xmlrpc/{}/getRate"
        text = self.stacks_report([
            row(rt.format("soapbench~soapbench"), 100, total_ns=100e3, bytes_sent=328,
                bytes_received=218),
            row(rt.format("xmlrpc-c"), 250, total_ns=250e3),
            row(rt.format("xmlrpc-c~soapbench"), 150, total_ns=150e3),
            row(rt.format("soapbench~xmlrpc-c"), 200, total_ns=200e3, bytes_sent=328,
                bytes_received=360),
            row("decode/gsoap/soap11-rpc-encoded/getRate.call", 30)])
        section = text.split("## Real stacks", 1)[1].split("\n## ", 1)[0]
        self.assertIn("| call | `soapbench~soapbench` µs | bytes | `xmlrpc-c` µs | bytes | "
                      "`xmlrpc-c~soapbench` µs | bytes | `soapbench~xmlrpc-c` µs | bytes |", section)
        self.assertIn("| `getRate` | 100 | 328 / 218 | 250 (2.5×) | – | 150 (1.5×) | – | "
                      "200 (2×) | 328 / 360 |", section)
        self.assertIn("No byte counts for `xmlrpc-c`, `xmlrpc-c~soapbench`", section)
        self.assertIn("no phase split", section)
        # The deserializer beside our fastest and our default adapter on the same file.
        ours = load(RUN1)
        default = "pugixml-dom"
        times = {b["run_name"].split("/")[1]: b["real_time"] for b in ours["benchmarks"]
                 if b["run_name"].endswith("/soap11-rpc-encoded/getRate.call")
                 and b.get("run_type") == "iteration" and b["run_name"].startswith("decode/")}
        self.assertIn(default, times)
        decode_row = next(l for l in section.splitlines() if l.startswith("| `gsoap` |"))
        self.assertIn(f"`{min(times, key=times.get)}`", decode_row)
        self.assertIn("| s11-enc | `getRate.call` | 30 |", decode_row)
        # Stack rows stay out of the adapters' sections.
        self.assertNotIn("gsoap", text.split("## Real stacks", 1)[0].split("## Contents", 1)[1]
                         .split("## ", 1)[1])

    def test_load_section(self):
        # tools/load_bench's file: TPS per connection count per family and server, the open-loop
        # latency table, the charts; a point with errors shows its count.
        def point(mode, conns, tps, errors=0, rate=None):
            return {"mode": mode, "connections": conns, "rate": rate, "tps": tps,
                    "p50_us": 100.0, "p90_us": 150.0, "p99_us": 900.0, "p999_us": 4000.0,
                    "errors_total": errors, "unsent": 0, "server_cpu_us_per_call": 42.0}
        runs = [
            {"server": "soapbench", "server_id": "soapbench-default", "parser": "pugixml/dom",
             "family": "soap11-rpc-encoded", "call": "respond.2500B", "mode": "closed",
             "points": [point("closed", 1, 3790), point("closed", 16, 8738)]},
            {"server": "gsoap", "server_id": "gsoap", "parser": "gSOAP's own",
             "family": "soap11-rpc-encoded", "call": "respond.2500B", "mode": "closed",
             "points": [point("closed", 1, 3469),
                        dict(point("closed", 16, 5336, errors=3), generator_cpu_share=0.97)]},
            {"server": "soapbench", "server_id": "soapbench-default", "parser": "pugixml/dom",
             "family": "soap11-doc-literal", "call": "respond.2500B", "mode": "open",
             "points": [point("open", 64, 2000, rate=2000.0), point("open", 64, 7595, rate=8000.0)]},
        ]
        # The capacity step: 36,000 TPS against nginx with the generator 45% busy: 80,000 calls
        # per CPU-second, against our peak 8,738: 9.16x, a PASS.
        nginx = dict(point("closed", 64, 36000), calls=36000, elapsed_s=1.0,
                     generator_cpu_share=0.45, generator_threads=1)
        capacity = {"server": "nginx", "parser": "none (fixed answer)",
                    "family": "soap11-doc-literal", "call": "getRate", "connections": 64,
                    "generator_cpus": 1, "points": [nginx], "calls_per_cpu_s": 80000.0,
                    "ceiling_tps": 80000.0}
        path = self.path("load_bench.json")

        def render():
            """The report of runs and capacity (and its folder)."""
            dump({"tool": "tools/load_bench", "machine_id": "x", "context": {"command": "lb"},
                  "runs": runs, "capacity": capacity}, path)
            proc, mdir = self.run_report("--load", path)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            with open(os.path.join(mdir, "report.md"), encoding="utf-8") as f:
                return f.read(), mdir

        text, mdir = render()
        section = text.split("## Load: transactions per second against concurrency", 1)[1]
        self.assertIn("| family | server | TPS c=1 | TPS c=16 | errors | CPU µs/call |", section)
        self.assertIn("| `soap11-rpc-encoded` | soapbench (pugixml/dom) | 3,790 | 8,738 | 0 | 42 |",
                      section)
        self.assertIn("| `soap11-rpc-encoded` | gsoap | 3,469 | 5,336 | 3 | 42 |", section)
        self.assertIn("| `soap11-doc-literal` | respond.2500B | 8,000 | 7,595 | 100 | 900 | 4,000 "
                      "| 0 | 0 |", section)
        self.assertIn("Generator-bound points (1;", section)
        self.assertIn("`gsoap` soap11-rpc-encoded respond.2500B c=16.", section)
        self.assertIn("its ceiling is **80,000 calls/s** against the fixed answer", section)
        self.assertIn("Our server's peak in the same run: 8,738 TPS (`soap11-rpc-encoded` "
                      "respond.2500B, soapbench (pugixml/dom), c=16); ceiling / peak = 9.16× "
                      "(target 3×): **PASS**.", section)
        # A ceiling under 3x the peak: the figures above a third of it are flagged.
        self.assertIn("where nginx on its one CPU was the limit.)", section)
        capacity["ceiling_tps"] = 20000.0
        nginx["generator_cpu_share"] = 1.0  # the generator, not nginx, limited what was driven
        text, mdir = render()
        self.assertIn("ceiling / peak = 2.29× (target 3×): **generator-bound: figures above "
                      "6,667 TPS may be limited by the generator**.", text)
        self.assertIn("where the generator's threads, busy all the time, were the limit.)", text)
        for chart in ("load_tps_respond.2500B.svg", "load_latency_rate.svg"):
            self.assertTrue(os.path.exists(os.path.join(mdir, "charts", chart)), chart)

    def test_scripting_section(self):
        # stacks_bench --set=scripting rows: per server and query, µs per call and the server's
        # split; the ratio of server times between the servers per query.
        def row(name, us, handling, send):
            return {"name": name, "run_name": name, "run_type": "iteration", "iterations": 50,
                    "real_time": us, "cpu_time": us, "time_unit": "us", "total_ns": us * 1e3,
                    "server_handling_ns": handling * 1e3, "server_send_ns": send * 1e3,
                    "bytes_sent": 300, "bytes_received": 400}
        text = self.stacks_report([
            row("roundtrip/keepalive/soap11-rpc-encoded/soapbench~soaplite/add", 2000, 1500, 100),
            row("roundtrip/newconn/xmlrpc/soapbench~frontier/add", 600, 300, 100),
            row("roundtrip/newconn/xmlrpc/soapbench~python-xmlrpc/add", 300, 120, 40),
            row("roundtrip/newconn/xmlrpc/soapbench~python-xmlrpc/getChain", 5000, 200, 4000),
            row("roundtrip/keepalive/xmlrpc/soapbench~soapbench/add", 50, 0, 0)])
        section = text.split("## Scripting stacks", 1)[1].split("\n## ", 1)[0]
        self.assertIn("| server | family | connection | call | µs per call | handling µs | "
                      "sending µs | rest µs | server share |", section)
        self.assertIn("| `soaplite` | s11-enc | keepalive | `add` | 2,000 | 1,500 | 100 | 400 | "
                      "80% |", section)
        self.assertIn("| `python-xmlrpc` | xmlrpc | newconn | `getChain` | 5,000 | 200 | 4,000 | "
                      "800 | 84% |", section)
        # soaplite 1600 µs against python-xmlrpc 160 µs on add: ten times.
        self.assertIn("- `add`: `python-xmlrpc` 160 µs, `frontier` 400 µs (2.5×), `soaplite` "
                      "1,600 µs (10.0×)\n", section)
        self.assertNotIn("- `getChain`", section)  # one server only: no ratio
        self.assertNotIn("soapbench~soapbench", section)
        self.assertIn("[Scripting stacks](#scripting-stacks)", text)

    def test_floor_and_classic_messaging_sections(self):
        # The roundtrip sample plus floor rows and binary-newconn messaging rows, and a synthetic
        # stacks_bench file with the CORBA and gRPC messaging rows other stacks write.
        doc = load(ROUNDTRIP)
        def row(name, ns, **counters):
            return dict({"name": name, "run_name": name, "run_type": "iteration",
                         "iterations": 100, "real_time": ns, "cpu_time": ns, "time_unit": "ns",
                         "total_ns": ns}, **counters)
        doc["benchmarks"] += [
            row("roundtrip/floor/blocking/300", 20000, bytes_sent=304, bytes_received=304),
            row("roundtrip/floor/blocking/2500", 26000, bytes_sent=2504, bytes_received=2504),
            row("roundtrip/floor/same-cpu/300", 9000, bytes_sent=304, bytes_received=304),
            row("roundtrip/floor/busy-poll/300", 7000, bytes_sent=304, bytes_received=304)]
        doc["benchmarks"] += [row(f"messaging/binary-newconn/{c}/iterations:5000", 90000,
                                  bytes_sent=46, bytes_received=30)
                              for c in ("sendString", "receiveString", "sendInt")]
        rt_path = self.path("roundtrip_bench.json")
        dump(doc, rt_path)
        ctx = dict(load(RUN1)["context"], executable="build/peers/stacks_bench")
        stacks = self.path("stacks_bench.json")
        dump({"context": ctx, "benchmarks": [
            row("messaging/corba/sendInt/iterations:5000", 10000, bytes_sent=60, bytes_received=24),
            row("messaging/grpc/sendInt/iterations:5000", 40000, bytes_sent=120,
                bytes_received=80)]}, stacks)
        res = sb.results_of(doc)
        def total(name):
            return res[name].counter("total_ns")
        def wire(name):
            return res[name].counter("bytes_sent") + res[name].counter("bytes_received")
        def report(*files):
            out = self.path("out")
            tool("report", RUN1, *files, "--out-dir", out, "--no-charts", check=0)
            with open(os.path.join(out, "report.md"), encoding="utf-8") as f:
                return f.read()
        def section(text, title):
            return text.split(f"## {title}", 1)[1].split("\n## ", 1)[0]

        text = report(rt_path, stacks)
        floor = section(text, "Raw loopback floor")
        self.assertIn("| mode | 300 B | 2,500 B |", floor)
        self.assertIn("| `blocking` | 20 | 26 |", floor)
        self.assertIn("| `same-cpu` | 9 | – |", floor)
        # The binary control against the floor nearest its bytes, PASS/SHORT at 1.3×.
        bin_rate = "roundtrip/keepalive/binary/none/getRate"
        ratio = total(bin_rate) / 20000
        self.assertLess(ratio, 1.3)
        self.assertRegex(floor, r"\| `getRate` \| [0-9.]+ \| 76 \| 300 B \| 20 \| "
                         + re.escape(f"{ratio:.2f}×") + r" \| PASS \|")
        self.assertRegex(floor, r"\| `respond\.7500B` \|.*\| SHORT \|")
        # Every keep-alive round trip as a multiple of the blocking floor nearest its bytes.
        rtsec = section(text, "Round trip: where the time goes")
        self.assertIn("| total | × floor | bytes sent |", rtsec)
        xml = "roundtrip/keepalive/xmlrpc/pugixml-dom/getRate"
        self.assertIn(f"| {total(xml) / 20000:.1f}× | {res[xml].counter('bytes_sent'):.0f} |",
                      rtsec)
        # The classic table: every stack's µs and bytes, CORBA and gRPC from stacks_bench.
        msg = section(text, "Messaging (the classic table)")
        self.assertIn("| raw socket, new connection per call | 90 | 76 |", msg)
        self.assertRegex(msg, r"\| CORBA \(omniORB, stacks_bench\) \| – \| – \| 10 \| 84 \|")
        self.assertIn("| gRPC (stacks_bench) |", msg)
        soap = "messaging/soap11-rpc-encoded/sendInt/iterations:5000"
        xr = "messaging/xmlrpc/sendInt/iterations:5000"
        binary = "messaging/binary/sendInt/iterations:5000"
        self.assertIn(f"| SOAP ÷ CORBA, bytes per call | 14× | {wire(soap) / 84:.1f}× | "
                      f"{wire(soap) / wire(binary):.1f}× |", msg)
        self.assertIn(f"| SOAP ÷ CORBA, time for 5,000 integers | 882× | {total(soap) / 1e4:.1f}× |",
                      msg)
        self.assertIn(f"| XML-RPC ÷ CORBA, time for 5,000 integers | 66× | {total(xr) / 1e4:.1f}× |",
                      msg)
        # Per call: the binary control against omniORB, gRPC and the floor.
        b = total(binary)
        self.assertIn(f"| `sendInt` | {b / 1e3:.3g} | 10 ({b / 1e4:.2f}×) | 40 ({b / 4e4:.2f}×) | "
                      f"20 ({b / 2e4:.2f}×, 300 B) |", msg)
        # Without stacks_bench and floor rows: the CORBA column is empty and says why.
        text = report(ROUNDTRIP)
        self.assertNotIn("## Raw loopback floor", text)
        self.assertIn("No `messaging/corba/...` rows were loaded", text)
        self.assertIn("| SOAP ÷ CORBA, time for 5,000 integers | 882× | – |", text)
        self.assertIn("No floor rows in these results", text)

    def test_conformance_section(self):
        results = self.path("results")
        mid = load(RUN1)["context"]["machine_id"]
        os.makedirs(os.path.join(results, mid))
        # The shape `soapbench conformance --json` writes (tests/cli_test.cpp checks the writer).
        def record(adapter, name, error_class, mode, error=None, time_ns=1000, peak=4096):
            return {"adapter": adapter, "file": f"hostile/xml/{name}", "error_class": error_class,
                    "mode": mode, "result": "accepted" if error is None else "rejected",
                    "accepted": error is None, "error": error or "", "time_ns": time_ns,
                    "peak_bytes": peak}
        dump({"tool": "soapbench conformance", "machine_id": mid, "git_sha": "abc", "level": "walk",
              "records": [
                  record("pugixml/dom", "billion-laughs.xml", "entity-expansion", "policy",
                         "DTD not allowed", 1200),
                  record("libxml2/sax", "billion-laughs.xml", "entity-expansion", "policy",
                         "line 2: DOCTYPE", 4000),
                  record("pugixml/dom", "deep.xml", "deep-nesting", "policy", None, 3500),
                  record("libxml2/sax", "deep.xml", "deep-nesting", "policy",
                         "nesting deeper than 256", 2000, 48 << 20),
                  record("pugixml/dom", "billion-laughs.xml", "entity-expansion", "library",
                         None, 9000)]}, os.path.join(results, mid, "conformance.json"))
        _proc, mdir = self.run_report()
        with open(os.path.join(mdir, "report.md"), encoding="utf-8") as f:
            text = f.read()
        self.assertIn("## Conformance: hostile inputs", text)
        self.assertIn("DTD not allowed", text)
        section = text.split("## Conformance: hostile inputs", 1)[1].split("\n## ", 1)[0]
        self.assertIn("**policy**", section)
        self.assertIn("**library**", section)
        # pugixml accepted the deep file (a bold cell: a library fact), libxml2 rejected it.
        self.assertRegex(section, r"\| `deep-nesting` \| \*\*0/1\*\* \| 1/1 \|")
        self.assertIn("| policy | `pugixml-dom` | `deep.xml` | `deep-nesting` |", section)
        self.assertIn("48.0", section)   # the largest peak heap, MiB

    def test_interop_section(self):
        results = self.path("results")
        mid = load(RUN1)["context"]["machine_id"]
        os.makedirs(os.path.join(results, mid))
        # The shape `soapbench interop --json` writes (tests/interop/test_interop_command.py).
        def cell(client, server, family, op, status="ok", detail=""):
            return {"client": client, "server": server, "family": family, "operation": op,
                    "status": status, "detail": detail}
        dump({"tool": "soapbench interop",
              "context": {"machine_id": mid, "git_sha": "abc", "only": "all"},
              "cells": [cell("soapbench", "gsoap", "soap11-doc-literal", "add"),
                        cell("soapbench", "gsoap", "soap11-doc-literal", "complex", "fail",
                             "canonical JSON differs at 3: got 0 expected 5"),
                        cell("gsoap", "gsoap", "soap11-doc-literal", "add"),
                        cell("xmlrpc-c", "gsoap", "soap11-doc-literal", "*", "off",
                             "no common protocol"),
                        cell("malformed", "gsoap", "soap11-doc-literal", "add", "fault-ok",
                             "HTTP 500 fault"),
                        cell("soapbench", "xmlrpc-c", "xmlrpc", "*", "off", "xmlrpc-c not built"),
                        # A scripting server leaves operations out: not counted in its cell.
                        cell("soapbench", "soaplite", "soap11-rpc-encoded", "add"),
                        cell("soapbench", "soaplite", "soap11-rpc-encoded", "complex", "off",
                             "not expressible (not implemented by that server)")]},
             os.path.join(results, mid, "interop.json"))
        _proc, mdir = self.run_report()
        with open(os.path.join(mdir, "report.md"), encoding="utf-8") as f:
            text = f.read()
        section = text.split("## Interop", 1)[1].split("\n## ", 1)[0]
        self.assertIn("**soap11-doc-literal**", section)
        self.assertIn("| client \\ server | gsoap |", section)
        self.assertIn("| soapbench | **1/2** |", section)
        self.assertIn("| gsoap | 1/1 |", section)
        self.assertIn("| xmlrpc-c | no common protocol |", section)
        self.assertIn("| malformed request | fault |", section)
        self.assertIn("| soapbench | off (not built) |", section)
        self.assertIn("| client \\ server | soaplite |\n|---|---|\n| soapbench | 1/1 |", section)
        self.assertIn("| soapbench | gsoap | soap11-doc-literal | `complex` | canonical JSON differs",
                      section)

    def test_parse_results_only(self):
        out = self.path("out")
        tool("report", RERUN_A, "--out-dir", out, check=0)
        with open(os.path.join(out, "report.md"), encoding="utf-8") as f:
            text = f.read()
        self.assertNotIn("## Round trip", text)
        self.check_charts(out, text, at_least=1)

    def test_help(self):
        proc = tool("report", "--help", check=0)
        self.assertIn("report.md", proc.stdout)
        self.assertIn("--icount", proc.stdout)

    _reports = {}   # (files, extra) -> (stdout, report.md): the sample reports are made once

    def ranking_report(self, *files, extra=()):
        key = (files, tuple(extra))
        if key not in self._reports:
            out = self.path("out")
            proc = tool("report", *(files or (RANKING,)), "--out-dir", out, "--no-charts",
                        "--summary", *extra, check=0)
            with open(os.path.join(out, "report.md"), encoding="utf-8") as f:
                ReportTest._reports[key] = (proc, f.read())
        return self._reports[key]

    @staticmethod
    def clause(text, family):
        """The opening paragraph's clause about one family's headline decode."""
        opening = text.split("\n## ", 1)[0]
        m = re.search(re.escape(family) + r" `complex\.call`: ([^;]*?)(;|\. )", opening)
        assert m, opening
        return m.group(1)

    def test_clear_winner_gets_a_ranking_word(self):
        proc, text = self.ranking_report()
        self.assertRegex(self.clause(text, "xmlrpc"),
                         r"^`rapidxml-dom` fastest, 1\.30× ahead of `pugixml-dom` \(p = ")
        self.assertRegex(proc.stdout, r"xmlrpc +complex\.call +rapidxml-dom fastest")

    def test_overlapping_samples_are_tied_within_noise(self):
        proc, text = self.ranking_report()
        clause = self.clause(text, "soap11-rpc-encoded")
        self.assertEqual(clause, "tied within noise: `pugixml-dom`, `rapidxml-dom`")
        self.assertIn("tied within noise: pugixml-dom, rapidxml-dom", proc.stdout)
        # libxml2-sax is apart from the leader: not among the tied ones, "behind" in the table.
        self.assertRegex(text, r"\| s11-enc \| `complex\.call` \| `libxml2-sax` \| 5 \|.*behind")

    def test_single_repetitions_get_no_ranking_word(self):
        proc, text = self.ranking_report()
        clause = self.clause(text, "jsonrpc")
        self.assertTrue(clause.startswith("not ranked"), clause)
        for word in ("fastest", "ahead", "slower", "tied"):
            self.assertNotIn(word, clause)
        line = next(l for l in proc.stdout.splitlines() if l.strip().startswith("jsonrpc"))
        self.assertNotIn("fastest", line)
        # Nor across families: jsonrpc's single run cannot be ranked against the others.
        cross = re.search(r"Decoding the same call[^.]*", text).group(0)
        self.assertNotIn("fastest", cross)

    def test_no_ranking_word_without_its_statistics(self):
        # Every ranking word of the opening paragraph is backed by p <= 0.01 and apart intervals:
        # on the committed roundtrip sample (3 repetitions, p >= 0.1) none may appear.
        _proc, text = self.ranking_report(ROUNDTRIP)
        opening = text.split("\n## ", 1)[0]
        self.assertNotIn("fastest", opening)
        self.assertNotIn("ahead of", opening)
        self.assertIn("tied within noise", opening)

    def test_facts_from_the_context_and_old_files(self):
        # New files: families in the context's order, default adapters for the link rows.
        _proc, text = self.ranking_report()
        head = re.search(r"\| adapter \| ([^\n]*) \|\n", text).group(1)
        self.assertEqual(head.split(" | "), ["xmlrpc", "s11-enc", "jsonrpc"])
        self.assertNotIn("predate the context keys", text)
        # Old files (no facts in the context): said so, and the link section declines.
        old = load(ROUNDTRIP)
        for k in list(old["context"]):
            if k.startswith(("link", "families", "default_adapter", "variant:")):
                del old["context"][k]
        dump(old, self.path("old.json"))
        _proc, text = self.ranking_report(self.path("old.json"))
        self.assertIn("predate the context keys `families`", text)
        self.assertIn("These result files carry no link model", text)
        self.assertNotIn("projected call time =", text)

    def test_instruction_columns(self):
        # Without an icount file the report says so.
        _proc, text = self.ranking_report()
        self.assertIn("No instruction counts were given", text)
        # With one, the headline table shows the counts and their ratio to the fewest.
        doc = {"context": load(RANKING)["context"], "icount": {"iterations": 20},
               "instructions": {"decode/rapidxml-dom/xmlrpc/complex.call/iterations:20": 200000.0,
                                "decode/pugixml-dom/xmlrpc/complex.call/iterations:20": 250000.0}}
        dump(doc, self.path("icount.json"))
        _proc, text = self.ranking_report(extra=("--icount", self.path("icount.json")))
        self.assertNotIn("No instruction counts were given", text)
        self.assertRegex(text, r"\| `pugixml-dom` \| 5 \| [^|]+ \| 1\.30 \| 250,000 \| 1\.25 \|")
        # Overhead and level ratios are stated from the counts (the committed run1 sample).
        doc["instructions"] = {"parse/pugixml-dom-direct/xmlrpc/respond.64KB.response": 1000000.0,
                               "parse/pugixml-dom/xmlrpc/respond.64KB.response": 1000400.0,
                               "walk/pugixml-dom/xmlrpc/respond.64KB.response": 1300000.0,
                               "decode/pugixml-dom/xmlrpc/respond.64KB.response": 1200000.0}
        dump(doc, self.path("icount.json"))
        _proc, text = self.ranking_report(RUN1, extra=("--icount", self.path("icount.json")))
        self.assertIn("`pugixml/dom` +0.04% in instructions (1 file; time: ", text)
        self.assertRegex(text, r"`walk` costs [0-9.–]*1\.30×?[0-9.–]*× `parse` in instructions|"
                               r"`walk` costs 1\.30× `parse` in instructions")

    # tools/sbresults.py: the interval of the median and the ranking rule.

    @staticmethod
    def result(times):
        r = sb.Result("x")
        r.times = list(times)
        return r

    def test_median_interval_from_order_statistics(self):
        self.assertIsNone(sb.median_ci([1.0]))
        lo, hi, cov = sb.median_ci([5, 1, 4, 2, 3])     # n = 5: [min, max] covers 93.75%
        self.assertEqual((lo, hi), (1, 5))
        self.assertAlmostEqual(cov, 0.9375)
        lo, hi, cov = sb.median_ci(range(1, 10))        # n = 9: [x2, x8] covers 96.1%
        self.assertEqual((lo, hi), (2, 8))
        self.assertAlmostEqual(cov, 1 - 2 * 10 / 512)
        self.assertEqual(sb.min_ci_n(), 6)

    def test_ranking(self):
        fast, slow = self.result([10, 11, 10.5, 10.2, 10.8]), self.result([20, 21, 20.5, 20.2, 20.8])
        rk = sb.Ranking({"slow": slow, "fast": fast})
        self.assertTrue(rk.clear)
        self.assertEqual((rk.leader, rk.tied), ("fast", ["fast"]))
        rk = sb.Ranking({"a": fast, "b": self.result([10.1, 10.9, 10.4, 10.3, 10.7]), "c": slow})
        self.assertFalse(rk.clear)
        self.assertEqual(sorted(rk.tied), ["a", "b"])
        rk = sb.Ranking({"a": self.result([1.0]), "b": self.result([2.0])})
        self.assertFalse(rk.clear)
        self.assertFalse(rk.repeated)


class IcountTest(Tmp):
    # libxml2 (hash seeds from time()) and Expat (a random hash salt per document) are the
    # adapters whose counts would vary without tools/icount's determinism shim.
    FILTER = (r"^decode/(pugixml-dom|libxml2-dom|libxml2-sax|expat-sax|rapidjson-dom)/"
              r"(xmlrpc|soap11-rpc-encoded|jsonrpc)/(getRate|complex)\.call")

    def setUp(self):
        super().setUp()
        self.bench = os.environ.get("SB_PARSE_BENCH", "")
        if not self.bench or not os.access(self.bench, os.X_OK):
            self.skipTest("SB_PARSE_BENCH does not name a parse_bench binary")
        if not shutil.which("valgrind"):
            self.skipTest("valgrind is not installed")

    def test_two_runs_give_identical_counts(self):
        docs = []
        for i in range(2):
            out = self.path(f"icount{i}.json")
            tool("icount", "--bench", self.bench, "--filter", self.FILTER, "--iterations", "3",
                 "--out", out, "--quiet", check=0)
            docs.append(load(out))
        a, b = (d["instructions"] for d in docs)
        self.assertEqual(len(a), 18, sorted(a))
        self.assertEqual(a, b)
        for name, count in a.items():
            self.assertGreater(count, 100, name)
        self.assertTrue(docs[0]["context"].get("machine_id"))
        self.assertEqual(docs[0]["icount"]["iterations"], 3)
        # Keyed by build: the facts that decide counts, the same for both runs.
        meta = docs[0]["icount"]
        self.assertRegex(meta["build_key"], r"^[0-9a-f]{12}$")
        self.assertEqual(meta["build_key"], docs[1]["icount"]["build_key"])
        self.assertRegex(meta["build"]["isa_level"], r"^x86-64-v\d$")
        self.assertTrue(any(n.startswith("libc.so") for n in meta["build"]["shared_libraries"]))
        self.assertIn("pugixml", meta["build"]["libraries"])
        # And compare calls two identical counts `same`.
        _proc, v = self.compare(self.path("icount0.json"), self.path("icount1.json"), check=0)
        self.assertEqual(set(v.values()), {"same"})


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], *sys.argv[1:]], verbosity=2)
