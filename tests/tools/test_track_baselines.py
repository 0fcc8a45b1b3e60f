#!/usr/bin/python3
"""sbtools.track.baselines (label unit): the committed instruction-count baseline read as the
gate's reference (its build, its thresholds from results/thresholds.json, the benchmarks removed
on purpose), found by build key or as the nearest build, and refused with the file named."""
import glob
import os
import shutil

from tools_common import REPO, Tmp, dump, load, main
from sbtools.track import TrackError, baselines

RESULTS = os.path.join(REPO, "results")
BASELINE = glob.glob(os.path.join(RESULTS, "icount", "*", "baseline.json"))[0]
KEY = os.path.basename(os.path.dirname(BASELINE))


class BaselinesTest(Tmp):
    def results(self, doc=None, thresholds=None):
        """A results/ folder holding the committed baseline (or doc instead) and thresholds."""
        folder = self.path("results", "icount", KEY)
        os.makedirs(folder)
        if doc is None:
            shutil.copy(BASELINE, folder)
        else:
            dump(doc, os.path.join(folder, "baseline.json"))
        if thresholds is not None:
            dump(thresholds, self.path("results", "thresholds.json"))
        return self.path("results")

    def test_the_committed_baseline_of_its_build(self):
        got = baselines.for_build(RESULTS, KEY)
        self.assertEqual(got.path, BASELINE)
        want = load(BASELINE)["icount"]["build"]
        self.assertEqual({k: got.run.build.get(k) for k in want}, want)  # and what importers add
        self.assertEqual(got.threshold("parse/pugixml-dom/xmlrpc/add.call.xml"), 0.01)
        self.assertIsNone(baselines.for_build(RESULTS, "000000000000"))
        self.assertIsNone(baselines.for_build(RESULTS, ""))  # a run without a build key

    def test_the_nearest_build_when_none_has_this_key(self):
        build = dict(load(BASELINE)["icount"]["build"], compiler="g++ 13.1.0")
        self.assertEqual(baselines.nearest(RESULTS, build).path, BASELINE)
        self.assertIsNone(baselines.nearest(self.path("empty"), build))

    def test_thresholds_and_removed_benchmarks_come_with_it(self):
        doc = load(BASELINE)
        doc["removed"] = {"parse/gone/xmlrpc/add.call.xml": "the adapter was dropped"}
        results = self.results(doc, {"icount": {"^parse/": 5}})
        got = baselines.for_build(results, KEY)
        self.assertEqual(got.threshold("parse/pugixml-dom/xmlrpc/add.call.xml"), 0.05)
        self.assertEqual(got.threshold("decode/pugixml-dom/xmlrpc/add.call"), 0.01)
        self.assertEqual(got.removed, doc["removed"])

    def test_a_broken_or_foreign_baseline_is_refused_by_name(self):
        results = self.results({"context": {}, "benchmarks": []})
        with self.assertRaisesRegex(TrackError, "baseline.json: the committed baseline is not a "
                                                "tools/icount file"):
            baselines.for_build(results, KEY)
        with open(os.path.join(results, "icount", KEY, "baseline.json"), "w") as f:
            f.write('{"icount": {"build_key": ')
        with self.assertRaisesRegex(TrackError, "^the committed baseline "):
            baselines.for_build(results, KEY)

    def test_bad_thresholds_are_refused(self):
        results = self.results(thresholds={"icount": {"^parse/": -1}})
        with self.assertRaisesRegex(TrackError, "threshold must be a percent >= 0"):
            baselines.for_build(results, KEY)


if __name__ == "__main__":
    main()
