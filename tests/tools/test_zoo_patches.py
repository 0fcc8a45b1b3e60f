#!/usr/bin/python3
"""The zoo's patches (sbtools/zoo/patches.py, label unit): every tests/data/zoo/*.patch applies
cleanly to this checkout's work tree, so the zoo cannot rot as the code moves on; each has its
one-line description; the reader refuses what is not a described patch."""
import os
import tempfile
import unittest

from tools_common import REPO
from sbtools.zoo import patches


class ZooPatchesTest(unittest.TestCase):
    def test_every_patch_applies_to_head(self):
        chosen = patches.load()
        self.assertGreaterEqual(len(chosen), 10, "the zoo keeps at least 10 planted regressions")
        for p in chosen:
            with self.subTest(patch=p.name):
                self.assertIsNone(patches.check_applies(p, REPO))

    def test_each_patch_says_what_it_changes(self):
        for p in patches.load():
            with self.subTest(patch=p.name):
                self.assertGreater(len(p.description), 30)
                self.assertNotIn("\n", p.description)

    def test_a_patch_that_no_longer_applies_is_named(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "stale.patch")
            with open(path, "w", encoding="utf-8") as f:
                f.write("A change against code that is not there.\n\n"
                        "diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n"
                        "@@ -1,1 +1,1 @@\n-no such first line in the readme\n+replaced\n")
            why = patches.check_applies(patches.read(path), REPO)
            self.assertIsNotNone(why)
            self.assertIn("README.md", why)

    def test_reader_refuses_an_undescribed_or_empty_patch(self):
        with tempfile.TemporaryDirectory() as tmp:
            for name, text in (("bare.patch", "diff --git a/x b/x\n"), ("prose.patch", "words\n"),
                               ("x.diff", "words\n\ndiff --git a/x b/x\n")):
                path = os.path.join(tmp, name)
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
                with self.subTest(name=name), self.assertRaises(patches.PatchError):
                    patches.read(path)

    def test_load_names_the_unknown_patch(self):
        with self.assertRaisesRegex(patches.PatchError, "no-such-patch"):
            patches.load(names=["no-such-patch"])
        self.assertEqual([p.name for p in patches.load(names=["dispatch-lock"])], ["dispatch-lock"])


if __name__ == "__main__":
    unittest.main()
