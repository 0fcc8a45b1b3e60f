#!/usr/bin/python3
"""sbtools.paths (label unit): the checkout the package runs from (this one: the tests' PYTHONPATH
names no other), and paths as a user types them from its root."""
import os
import unittest

from tools_common import REPO, main
from sbtools import paths


class PathsTest(unittest.TestCase):
    def test_the_package_is_this_checkouts(self):
        self.assertEqual(paths.REPO, REPO)
        self.assertEqual(paths.RESULTS_DIR, os.path.join(REPO, "results"))
        self.assertEqual(paths.CORPUS_DIR, os.path.join(REPO, "corpus"))
        self.assertTrue(os.path.isfile(os.path.join(paths.CORPUS_DIR, "manifest.json")))

    def test_rel_inside_and_outside_the_checkout(self):
        self.assertEqual(paths.rel(os.path.join(REPO, "results", "x.json")), "results/x.json")
        self.assertEqual(paths.rel("/tmp/elsewhere.json"), "/tmp/elsewhere.json")
        self.assertEqual(paths.rel(REPO), ".")


if __name__ == "__main__":
    main()
