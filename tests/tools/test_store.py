#!/usr/bin/python3
"""sbtools.store (label unit): results/ as the tools read it, on the committed folders: machine
folders (not icount/ nor the pages' assets/), stored runs oldest first and the newest of each
bench, the matrices under their kinds (and the single file older folders kept), where a
document came from, the instruction counts a run's report reads, and this machine's id."""
import os
import shutil
import unittest

from tools_common import REPO, Tmp, dump, load, main
from sbtools import store
from sbtools.gbench import ResultError

RESULTS = os.path.join(REPO, "results")
BAB = os.path.join(RESULTS, "bab0702471ef")
RUN = os.path.join(BAB, "20261202-174809_6790742da1f5.parse_bench.json")


class NamesTest(unittest.TestCase):
    def test_a_run_is_stored_under_its_date_commit_and_bench(self):
        self.assertEqual(store.run_file_name(load(RUN)), os.path.basename(RUN))
        self.assertEqual(store.parse_run_file_name(os.path.basename(RUN)),
                         ("20261202-174809", "6790742da1f5", "parse_bench"))
        self.assertIsNone(store.parse_run_file_name("baseline.parse_bench.json"))

    def test_a_matrix_without_a_date_takes_the_files_time(self):
        doc = {"tool": "soapbench interop", "machine_id": "m", "git_sha": "abc/def"}
        path = os.path.join(BAB, "interop.json")
        stamp = store.machine_file_name(doc, path).split("_")[0]
        self.assertRegex(stamp, r"^\d{8}-\d{6}$")
        self.assertTrue(store.machine_file_name(doc, path).endswith("_abc_def.interop.json"))
        self.assertEqual(store.machine_doc_id({"context": {"machine_id": "x"}}), "x")
        self.assertIsNone(store.doc_sha({}))


class CommittedResultsTest(unittest.TestCase):
    def test_machine_folders(self):
        self.assertEqual(store.machine_dirs(RESULTS),
                         ["5efeddd69169", "bab0702471ef", "da5acefad890"])
        self.assertEqual(store.machine_dirs(os.path.join(REPO, "no-such-folder")), [])

    def test_runs_oldest_first_and_the_newest_of_each_bench(self):
        runs = store.run_files(BAB)
        self.assertEqual([r[0] for r in runs], sorted(r[0] for r in runs))
        self.assertEqual({r[2] for r in runs}, {"parse_bench", "roundtrip_bench", "stacks_bench"})
        self.assertEqual(store.newest_runs(BAB)["parse_bench"], RUN)

    def test_matrices_by_tool_and_where_they_came_from(self):
        self.assertEqual(store.machine_files(BAB, "soapbench interop"),
                         [os.path.join(BAB, "interop.json")])
        self.assertIsNone(store.newest_machine_file(BAB, "soapbench conformance --suite"))
        suites = store.newest_machine_file(os.path.join(RESULTS, "da5acefad890"),
                                           "soapbench conformance --suite")
        when, sha = store.file_origin(suites, {})
        self.assertEqual((when.strftime("%Y%m%d-%H%M%S"), sha),
                         ("20261203-072501", "b243d88cbec1"))

    def test_every_stored_file_and_the_counts_a_report_reads(self):
        files = store.stored_files(RESULTS)
        self.assertIn(RUN, files)
        self.assertFalse(any(os.path.basename(p).startswith("baseline.") for p in files))
        self.assertTrue(set(store.stored_icount_files(RESULTS)) <= set(files))
        counts = store.icount_for_run(RESULTS, load(RUN)["context"])
        self.assertEqual(os.path.basename(counts), "20261202-175341_6790742da1f5.json")
        self.assertIsNone(store.icount_for_run(RESULTS, {"compiler": "clang 99"}))


class ThisMachineTest(Tmp):
    def test_given_then_the_builds_newest_file_then_the_only_folder(self):
        self.assertEqual(store.this_machine(RESULTS, self.path("b"), "given"), "given")
        os.makedirs(self.path("b", "results"))
        shutil.copy(RUN, self.path("b", "results"))
        self.assertEqual(store.this_machine(RESULTS, self.path("b")), "bab0702471ef")
        os.makedirs(self.path("r", "only0machine"))
        self.assertEqual(store.this_machine(self.path("r"), self.path("none")), "only0machine")
        os.makedirs(self.path("r", "another"))
        with self.assertRaisesRegex(ResultError, "pass --machine ID"):
            store.this_machine(self.path("r"), self.path("none"))

    def test_a_broken_file_in_the_build_is_passed_over(self):
        os.makedirs(self.path("b", "results"))
        with open(self.path("b", "results", "cut.json"), "w") as f:
            f.write('{"context": ')
        dump(load(RUN), self.path("b", "results", "whole.json"))
        self.assertEqual(store.this_machine(RESULTS, self.path("b")), "bab0702471ef")

    def test_the_checkouts_commit(self):
        self.assertRegex(store.source_sha(), r"^[0-9a-f]{12}(-dirty)?$")


if __name__ == "__main__":
    main()
