#!/usr/bin/python3
"""Tests of tools/results (tools/sbtools/results.py, store.py): save, baseline, list (label
unit)."""
import os
import re
import unittest

from tools_common import *  # noqa: E402,F401,F403  (paths, tool(), the samples, Tmp)


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
        # An interop matrix is kept per run in the machine folder (its machine_id in "context";
        # no date in it: the file's modification time), as <date>_<sha>.interop.json.
        dump({"tool": "soapbench interop", "context": {"machine_id": mid}, "cells": []},
             os.path.join(src, "interop.json"))
        proc = tool("results", "--results-dir", results, "save", "--from", src, check=1)
        self.assertIn("interop.json -> ", proc.stdout)  # (exit 1: stray.json is still refused)
        kept = [f for f in os.listdir(os.path.join(results, mid)) if "interop" in f]
        self.assertEqual(len(kept), 1, kept)
        self.assertRegex(kept[0], r"^\d{8}-\d{6}_unknown\.interop\.json$")
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


if __name__ == "__main__":
    main()
