#!/usr/bin/python3
"""Tests of tools/compare (tools/sbtools/compare.py): verdicts on timing and instruction-count
files, thresholds, the baseline gate (label unit)."""
import json
import os
import re
import unittest

from tools_common import *  # noqa: E402,F401,F403  (paths, tool(), the samples, Tmp)
from sbtools import buildkey  # noqa: E402

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
        ctx = {"compiler": "g++ 12.2.0", "build": "release", "lib_pugixml": "1.13",
               "cpu_model": "AMD EPYC", "caches": "L1d=32K", "host_name": "vm", "machine_id": "a",
               "adapter:simdjson/dom": "mode=dom::parser with the 'haswell' kernel"}
        runtime = {"isa_level": "x86-64-v3", "glibc": "glibc 2.36", "valgrind": "valgrind-3.19.0",
                   "shared_libraries": ["libc.so.6"]}
        build = buildkey.icount_build(ctx, runtime)
        self.assertEqual(build["simdjson_kernels"], ["haswell"])
        self.assertEqual(build["libraries"], {"pugixml": "1.13"})
        other_machine = dict(ctx, cpu_model="Intel Xeon", caches="L1d=48K", host_name="ci",
                             machine_id="b")
        self.assertEqual(buildkey.icount_build_key(buildkey.icount_build(other_machine, runtime)),
                         buildkey.icount_build_key(build))
        for changed in (dict(ctx, lib_pugixml="1.14"), dict(ctx, compiler="g++ 13.1.0")):
            self.assertNotEqual(buildkey.icount_build_key(buildkey.icount_build(changed, runtime)),
                                buildkey.icount_build_key(build))
        self.assertNotEqual(buildkey.icount_build_key(
            buildkey.icount_build(ctx, dict(runtime, isa_level="x86-64-v2"))),
            buildkey.icount_build_key(build))

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
        proc = tool("compare", "--results-dir", results, "--against-baseline", self.BASE, check=0)
        self.assertIn(f"no baseline for machine {mid}: run tools/results baseline", proc.stdout)
        # A result file named but missing (its benchmark did not run or crashed): the gate fails.
        proc = tool("compare", "--results-dir", results, "--against-baseline", self.BASE,
                    self.path("missing.json"), check=1)
        self.assertIn("missing.json does not exist", proc.stdout)
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


class GateTest(Tmp):
    """The instruction-count gate fails closed (issue 25): a broken, empty or short count file is
    a failure with one line, never a pass."""

    COUNTS = {"decode/a/xmlrpc/add.call": 1000.0, "decode/b/xmlrpc/add.call": 2000.0,
              "parse/a/xmlrpc/add.call": 500.0}

    def setUp(self):
        super().setUp()
        self.results = self.path("results")
        self.key = build_key(BUILD)
        base = self.counts(self.path("base.json"), self.COUNTS)
        os.makedirs(os.path.join(self.results, "icount", self.key))
        shutil.copy(base, os.path.join(self.results, "icount", self.key, "baseline.json"))
        self.good = self.counts(self.path("icount.json"), self.COUNTS)

    def counts(self, path, instructions):
        dump({"context": {"machine_id": "m", "date": "2025-01-01T00:00:00+00:00",
                          "git_sha": "x"},
              "instructions": dict(instructions),
              "icount": {"iterations": 10, "build_key": self.key, "build": dict(BUILD)}}, path)
        return path

    def gate(self, *files, check):
        proc = tool("compare", "--results-dir", self.results, "--only-changes",
                    "--against-baseline", *files, check=check)
        return proc.stdout

    def test_a_whole_file_passes(self):
        self.assertIn("verdict (instruction counts): PASS", self.gate(self.good, check=0))

    def test_a_truncated_file_fails(self):
        with open(self.good, "rb") as f:
            raw = f.read()
        with open(self.good, "wb") as f:
            f.write(raw[:len(raw) // 2])
        out = self.gate(self.good, check=1)
        self.assertRegex(out, r"tools/compare: FAIL: .*icount\.json: cannot read JSON")
        self.assertNotIn("PASS", out)

    def test_an_empty_file_fails(self):
        open(self.good, "w").close()
        self.assertIn("cannot read JSON", self.gate(self.good, check=1))

    def test_a_file_without_counts_fails(self):
        self.counts(self.good, {})
        self.assertIn("holds no instruction counts", self.gate(self.good, check=1))

    def test_a_file_that_is_no_result_fails(self):
        dump({"something": "else"}, self.good)
        self.assertIn("neither Google Benchmark JSON nor a tools/icount file",
                      self.gate(self.good, check=1))

    def test_a_file_that_lies_fails(self):
        # Issue 39 item 13: a NaN row (or every row NaN) compared as "same"; a key written twice
        # (+50%, then the original) let the last value win; both now fail with the place.
        self.counts(self.good, dict(self.COUNTS, **{"parse/a/xmlrpc/add.call": float("nan")}))
        out = self.gate(self.good, check=1)
        self.assertIn('instructions["parse/a/xmlrpc/add.call"]: NaN is not a number', out)
        self.assertNotIn("PASS", out)
        self.counts(self.good, {k: float("nan") for k in self.COUNTS})
        self.assertNotIn("PASS", self.gate(self.good, check=1))
        with open(self.good, "w", encoding="utf-8") as f:
            f.write(json.dumps(load(self.path("base.json"))).replace(
                '"instructions": {', '"instructions": {"decode/a/xmlrpc/add.call": 1500.0, '))
        self.assertIn("written twice", self.gate(self.good, check=1))

    def test_a_missing_file_or_empty_folder_fails(self):
        self.assertIn("does not exist", self.gate(self.path("nothing.json"), check=1))
        os.makedirs(self.path("empty"))
        self.assertIn("holds no result files", self.gate(self.path("empty"), check=1))

    def test_a_short_file_fails_unless_the_baseline_marks_the_rest_removed(self):
        short = {k: v for k, v in self.COUNTS.items() if not k.startswith("decode/b/")}
        self.counts(self.good, short)
        out = self.gate(self.good, check=1)
        self.assertIn("lacks 1 benchmarks the baseline has (e.g. decode/b/xmlrpc/add.call)", out)
        self.assertIn("verdict (instruction counts): FAIL", out)
        baseline = os.path.join(self.results, "icount", self.key, "baseline.json")
        doc = load(baseline)
        doc["removed"] = {"decode/b/xmlrpc/add.call": "adapter b retired"}
        dump(doc, baseline)
        self.assertIn("verdict (instruction counts): PASS", self.gate(self.good, check=0))

    def test_another_tools_document_in_the_folder_is_not_judged(self):
        folder = self.path("build-results")
        os.makedirs(folder)
        shutil.copy(self.good, os.path.join(folder, "icount.json"))
        dump({"tool": "tools/load_bench", "machine_id": "m", "runs": []},
             os.path.join(folder, "load_bench.json"))
        self.assertIn("PASS", self.gate(folder, check=0))
        # ... but a folder with only such documents has nothing to judge: a failure.
        os.remove(os.path.join(folder, "icount.json"))
        self.assertIn("no result files to compare", self.gate(folder, check=1))


if __name__ == "__main__":
    main()
