#!/usr/bin/python3
"""Tests of sbtools.track.importers (ctest label unit): every result format read into a run with
every repetition, the committed results/ folder imported whole, and bad input refused with one
line naming the file and the reason."""
import glob
import json
import os
import shutil
import tempfile
import unittest

import track_testlib as lib
from sbtools import gbench
from sbtools.track import TrackError, importers


class ReadTest(unittest.TestCase):
    def test_google_benchmark_every_repetition_and_counter(self):
        doc = lib.load(lib.RUN1)
        run = importers.read(lib.RUN1)
        self.assertEqual(run.machine_id, doc["context"]["machine_id"])
        self.assertEqual(run.machine, gbench.hardware_id(doc["context"]))
        self.assertEqual(run.commit, doc["context"]["git_sha"])
        self.assertEqual(run.suite, "parse_bench")
        entries = [e for e in doc["benchmarks"] if e.get("run_type") == "iteration"]
        first = entries[0]
        name = importers.series_name(first["run_name"])
        self.assertNotIn("/repeats:", name)
        reps = [e for e in entries if e["run_name"] == first["run_name"]]
        scale = {"ns": 1, "us": 1e3, "ms": 1e6}[first["time_unit"]]
        self.assertEqual(run.samples[(name, "real_time")], [e["real_time"] * scale for e in reps])
        self.assertEqual(run.samples[(name, "cpu_time")], [e["cpu_time"] * scale for e in reps])
        self.assertEqual(run.samples[(name, "allocs_per_msg")], [e["allocs_per_msg"] for e in reps])
        self.assertIn((name, "bytes_per_second"), run.samples)
        self.assertEqual(run.build["libraries"]["pugixml"], doc["context"]["lib_pugixml"])
        self.assertRegex(run.date, r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")

    def test_icount_file(self):
        doc = lib.load(lib.ICOUNT)
        run = importers.read(lib.ICOUNT)
        self.assertEqual(run.suite, "icount")
        self.assertEqual(run.build_key, doc["icount"]["build_key"])
        self.assertEqual(len(run.samples), len(doc["instructions"]))
        name, value = next(iter(doc["instructions"].items()))
        self.assertEqual(run.samples[(importers.series_name(name), "instructions")], [value])
        self.assertIn("shared_libraries", run.build)

    def test_the_matrices(self):
        folder = os.path.join(lib.RESULTS, "bab0702471ef")
        expect = {"conformance.json": ("conformance", "accepted"),
                  "interop.json": ("interop", "passed"),
                  "server_load.json": ("server_load", "cpu_us_per_call"),
                  "load_bench.json": ("load_bench", "tps")}
        for base, (suite, metric) in expect.items():
            run = importers.read(os.path.join(folder, base))
            self.assertEqual(run.suite, suite)
            self.assertEqual(run.machine, "bab0702471ef")
            self.assertTrue(any(m == metric for _b, m in run.samples), (base, metric))
        cells = lib.load(os.path.join(folder, "server_load.json"))["cells"]
        run = importers.read(os.path.join(folder, "server_load.json"))
        c = cells[0]
        key = (f"{c['server_id']}/{c['parser']}/{c['family']}/{c['call']}/c{c['connections']}", "rps")
        self.assertEqual(run.samples[key], [r["rps"] for r in c["runs"]])  # every repetition

    def test_every_kind_the_store_keeps_is_read(self):
        from sbtools import store
        self.assertEqual(set(importers._MATRICES), set(store.MACHINE_FILES))

    def test_conformance_suites(self):
        import test_conformance_suites as tcs
        tmp = tempfile.mkdtemp(prefix="sb-track-suites-")
        self.addCleanup(shutil.rmtree, tmp, True)
        run = importers.read(lib.dump(tcs.document(), os.path.join(tmp, "suites.json")))
        self.assertEqual((run.suite, run.machine, run.commit), ("conformance_suites", "m", "s"))
        self.assertEqual(run.samples[("w3c-xml/policy/fast/dom", "valid_accepted_pct")], [90.0])
        self.assertEqual(run.samples[("w3c-xml/library/fast/dom", "not_wf_rejected_pct")], [30.0])
        self.assertEqual(run.samples[("w3c-xml/policy/strict/sax", "crashes")], [1.0])
        self.assertIn(("json-test-suite/policy/lax/dom", "hangs"), run.samples)
        from sbtools.track.metrics import METRICS
        self.assertTrue(all(METRICS[m].analyzed and METRICS[m].exact for _b, m in run.samples))

    def test_build_is_the_result_tools_build(self):
        # The build of a Google Benchmark run is sbtools.buildkey's (simdjson's kernels
        # included), keyed as tools/icount keys builds.
        from sbtools import buildkey
        run = importers.read(lib.RUN1)
        self.assertEqual(run.build, buildkey.context_build(lib.load(lib.RUN1)["context"]))
        self.assertIn("simdjson_kernels", run.build)
        self.assertEqual(run.build_key, buildkey.icount_build_key(run.build))

    def test_matrices_take_commit_and_date_from_their_run(self):
        folder = os.path.join(lib.RESULTS, "bab0702471ef")
        runs = [importers.read(os.path.join(folder, f)) for f in
                ("20261202-174809_6790742da1f5.parse_bench.json", "load_bench.json")]
        self.assertEqual(runs[1].commit, "")  # tools/load_bench writes no git_sha
        importers.fill_from_siblings(runs)
        self.assertEqual(runs[1].commit, "6790742da1f5")

    def test_the_machine_is_the_hardware_not_the_build(self):
        # Issue 44 item 10: machine_id names the compiler, so an upgrade started new series.
        # The tracker's machine is machine_id's recipe (run_context.cpp) without the compiler;
        # a matrix (only a machine_id) joins the hardware of its run's other files.
        ctx = lib.load(lib.RUN1)["context"]
        recipe = "|".join(ctx[k] for k in ("cpu_model", "cpu_cores", "caches", "compiler"))
        self.assertEqual(gbench._fnv12(recipe), ctx["machine_id"])
        tmp = tempfile.mkdtemp(prefix="sb-track-machine-")
        self.addCleanup(shutil.rmtree, tmp, True)
        doc = lib.load(lib.RUN1)
        doc["context"].update(compiler="g++ 12.3.0", machine_id="c425c425c425")
        upgraded = importers.read(lib.dump(doc, os.path.join(tmp, "new.json")))
        old = importers.read(lib.RUN1)
        self.assertEqual(upgraded.machine, old.machine)
        self.assertNotEqual(upgraded.build_key, old.build_key)
        folder = os.path.join(lib.RESULTS, "bab0702471ef")
        runs = [importers.read(os.path.join(folder, f)) for f in
                ("20261202-174809_6790742da1f5.parse_bench.json", "load_bench.json")]
        self.assertEqual(runs[1].machine, "bab0702471ef")
        importers.resolve_machines(runs)
        self.assertEqual(runs[1].machine, runs[0].machine)
        self.assertNotEqual(runs[0].machine, "bab0702471ef")
        alone = importers.read(os.path.join(folder, "interop.json"))
        importers.resolve_machines([alone], {"bab0702471ef": "from-the-store"}.get)
        self.assertEqual(alone.machine, "from-the-store")

    def test_a_stored_matrix_takes_its_date_from_its_name(self):
        # soapbench conformance writes no date: the stored name's stamp dates the run, so a
        # machine folder holding only matrices imports (no sibling run to borrow a date from).
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "20261203-072501_b243d88cbec1.conformance_suites.json")
            doc = lib.load(glob.glob(os.path.join(lib.RESULTS, "*",
                                                  "*.conformance_suites.json"))[0])
            doc.pop("git_sha", None)
            with open(path, "w") as f:
                json.dump(doc, f)
            run = importers.read(path)
        self.assertEqual((run.commit, run.date), ("b243d88cbec1", "2026-12-03T07:25:01Z"))

    def test_stored_files_skip_copies(self):
        files = importers.stored_files(lib.RESULTS)
        self.assertTrue(files)
        self.assertFalse([f for f in files if os.path.basename(f).startswith("baseline")])
        self.assertIn(lib.ICOUNT, files)


class BadInputTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="sb-track-bad-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write(self, name, text):
        path = os.path.join(self.tmp, name)
        with open(path, "w" if isinstance(text, str) else "wb") as f:
            f.write(text)
        return path

    def refused(self, path, *words):
        with self.assertRaises(TrackError) as ctx:
            importers.read(path)
        msg = str(ctx.exception)
        self.assertEqual(len(msg.splitlines()), 1, msg)
        self.assertTrue(msg.startswith(path + ": "), msg)
        for w in words:
            self.assertIn(w, msg)
        return msg

    def test_truncated(self):
        with open(lib.ICOUNT, encoding="utf-8") as f:
            text = f.read()
        self.refused(self.write("cut.json", text[:len(text) // 2]), "not valid JSON", "truncated")

    def test_foreign_json(self):
        self.refused(self.write("package.json", json.dumps({"name": "x", "version": "1"})),
                     "not a result file", "Google Benchmark")
        self.refused(self.write("list.json", "[1, 2]"), "not a result file")

    def test_not_text(self):
        self.refused(self.write("bin.json", bytes(range(256))), "not UTF-8")

    def test_unknown_machine(self):
        doc = lib.load(lib.RUN1)
        del doc["context"]["machine_id"]
        path = lib.dump(doc, os.path.join(self.tmp, "nomachine.json"))
        self.refused(path, "unknown machine", "--machine")
        self.assertEqual(importers.read(path, machine="m9").machine, "m9")

    def test_no_results(self):
        doc = lib.load(lib.RUN1)
        doc["benchmarks"] = []
        self.refused(lib.dump(doc, os.path.join(self.tmp, "empty.json")), "no results")

    def test_malformed_matrix(self):
        self.refused(self.write("m.json", json.dumps({"tool": "soapbench interop",
                                                       "cells": [{"client": "x"}]})), "malformed")

    def test_missing_file(self):
        self.refused(os.path.join(self.tmp, "nope.json"), "cannot read")


if __name__ == "__main__":
    unittest.main(verbosity=2)
