#!/usr/bin/python3
"""Tests of sbtools.track.fingerprint (ctest label unit): this machine's facts (never bogomips),
the Debian versions of the packages behind a binary, which files count as measured here, and
the git facts of a commit."""
import os
import subprocess
import unittest

import track_testlib as lib
from sbtools.track import fingerprint, store


def dpkg_version(package):
    return subprocess.run(["dpkg-query", "-W", "-f", "${Version}", package],
                          stdout=subprocess.PIPE, text=True, check=True).stdout


class FingerprintTest(unittest.TestCase):
    def test_machine_facts(self):
        facts = fingerprint.machine()
        for key in ("cpu_model", "kernel", "cores", "governor"):
            self.assertIn(key, facts)
        self.assertEqual(facts["kernel"], os.uname().release)
        self.assertNotIn("bogomips", " ".join(map(str, facts)).lower())
        self.assertNotIn("bogomips", " ".join(map(str, facts.values())).lower())

    def test_packages_of_the_libraries_and_tools(self):
        versions, sources = fingerprint.packages(["/usr/bin/python3"])
        self.assertEqual(versions["libc6"], dpkg_version("libc6"))  # from ldd of the binary
        self.assertEqual(sources["libc6"], "glibc")
        self.assertEqual(versions["libxml2-dev"], dpkg_version("libxml2-dev"))  # an # apt: line
        self.assertIn("valgrind", versions)

    def test_measured_here(self):
        here = fingerprint.machine()
        ctx = {"host_name": fingerprint.hostname(), "cpu_model": here.get("cpu_model"),
               "num_cpus": os.cpu_count()}
        now = store.now_utc()
        self.assertTrue(fingerprint.measured_here(ctx, now, here))
        self.assertFalse(fingerprint.measured_here(dict(ctx, host_name="elsewhere"), now, here))
        self.assertFalse(fingerprint.measured_here(ctx, "2020-01-01T00:00:00Z", here))
        if here.get("mhz"):
            self.assertFalse(fingerprint.measured_here(dict(ctx, mhz_per_cpu=here["mhz"] * 2),
                                                       now, here))

    def test_git_facts_of_a_commit(self):
        head = subprocess.run(["git", "-C", lib.REPO, "rev-parse", "--short=12", "HEAD"],
                              stdout=subprocess.PIPE, text=True, check=True).stdout.strip()
        parent = subprocess.run(["git", "-C", lib.REPO, "rev-parse", "--short=12", "HEAD^"],
                                stdout=subprocess.PIPE, text=True, check=True).stdout.strip()
        facts = fingerprint.git_facts(head, branch="main")
        self.assertEqual(facts["parent"], parent)
        self.assertEqual(facts["branch"], "main")
        self.assertEqual(fingerprint.git_facts("0000000000ff")["parent"], None)

    def test_the_ci_says_the_merge_base(self):
        # GitLab names a merge request's base (CI_MERGE_REQUEST_DIFF_BASE_SHA); GitHub names the
        # target branch (GITHUB_BASE_REF), whose merge base needs the history (fetch-depth: 0).
        head = subprocess.run(["git", "-C", lib.REPO, "rev-parse", "--short=12", "HEAD"],
                              stdout=subprocess.PIPE, text=True, check=True).stdout.strip()
        saved = dict(os.environ)
        try:
            os.environ.update(CI_MERGE_REQUEST_DIFF_BASE_SHA="0123456789abcdef0123",
                              CI_MERGE_REQUEST_SOURCE_BRANCH_NAME="feature")
            facts = fingerprint.git_facts(head)
            self.assertEqual((facts["merge_base"], facts["branch"]), ("0123456789ab", "feature"))
            for k in ("CI_MERGE_REQUEST_DIFF_BASE_SHA", "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME"):
                del os.environ[k]
            os.environ["GITHUB_BASE_REF"] = "no-such-branch-here"
            facts = fingerprint.git_facts(head)
            self.assertIsNone(facts["merge_base"])
            self.assertIn("no merge base", facts["no_merge_base"])
        finally:
            os.environ.clear()
            os.environ.update(saved)


if __name__ == "__main__":
    unittest.main(verbosity=2)
