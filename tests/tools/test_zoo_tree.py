#!/usr/bin/python3
"""The zoo's copy of the tree (sbtools/zoo/tree.py, label unit): a worktree of HEAD in a
temporary folder; a patch becomes a commit on HEAD whose id is the same every time; reset()
takes it back to HEAD; a patch that does not apply is an error; closing removes the worktree.
(Its build is what `tools/track zoo` in tools/run_tests.sh exercises: minutes, not seconds.)"""
import os
import subprocess
import tempfile
import unittest

from tools_common import REPO
from sbtools.zoo import patches
from sbtools.zoo.tree import Tree, TreeError


def git(tree, *args):
    return subprocess.run(["git", "-C", tree, *args], capture_output=True, text=True,
                          check=True).stdout.strip()


class TreeTest(unittest.TestCase):
    def test_patch_commit_reset_close(self):
        lock = patches.load(names=["dispatch-lock"])[0]
        with Tree() as tree:
            self.assertEqual(tree.head, git(REPO, "rev-parse", "HEAD"))
            self.assertEqual(git(tree.path, "rev-parse", "HEAD"), tree.head)
            first = tree.apply(lock)
            self.assertEqual(git(tree.path, "rev-parse", "HEAD^"), tree.head)
            self.assertIn("dispatch_mutex", open(os.path.join(tree.path, "harness", "server",
                                                              "rpc_endpoint.cpp")).read())
            self.assertEqual(git(tree.path, "status", "--porcelain"), "")
            self.assertEqual(tree.apply(lock), first, "the same patch, the same commit")
            tree.reset()
            self.assertEqual(git(tree.path, "rev-parse", "HEAD"), tree.head)
            self.assertNotIn("dispatch_mutex", open(os.path.join(tree.path, "harness", "server",
                                                                 "rpc_endpoint.cpp")).read())
            folder = tree.folder
        self.assertFalse(os.path.exists(folder))
        self.assertNotIn(folder, git(REPO, "worktree", "list"))

    def test_a_patch_that_does_not_apply_is_an_error(self):
        with tempfile.TemporaryDirectory() as tmp, Tree() as tree:
            path = os.path.join(tmp, "stale.patch")
            with open(path, "w", encoding="utf-8") as f:
                f.write("Stale.\n\ndiff --git a/README.md b/README.md\n--- a/README.md\n"
                        "+++ b/README.md\n@@ -1,1 +1,1 @@\n-not the first line\n+x\n")
            with self.assertRaisesRegex(TreeError, "git apply"):
                tree.apply(patches.read(path))
            self.assertEqual(git(tree.path, "rev-parse", "HEAD"), tree.head)


if __name__ == "__main__":
    unittest.main()
