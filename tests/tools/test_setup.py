#!/usr/bin/python3
"""tools/setup.sh (label unit): the main command installs only what it runs (--bench), the test
command everything; every library's `# apt:` line is in both lists; options are checked."""
import re
import subprocess
import unittest

from tools_common import REPO, main

SETUP = f"{REPO}/tools/setup.sh"
# What only the tests use: the main command must not wait for these on a fresh machine.
TEST_ONLY = {"clang", "clang-format", "libclang-rt-14-dev", "chromium", "chromium-driver",
             "python3-selenium", "postgresql", "python3-psycopg2", "libxml2-utils"}


def run(*args):
    return subprocess.run(["sh", SETUP, *args], capture_output=True, text=True, timeout=60)


def listed(*args):
    r = run(*args, "--list")
    if r.returncode != 0:
        raise AssertionError(r.stderr)
    return set(r.stdout.split())


class SetupTest(unittest.TestCase):
    def test_bench_leaves_out_the_test_tools_only(self):
        bench, everything = listed("--bench"), listed()
        self.assertEqual(bench & TEST_ONLY, set())
        self.assertEqual(everything - bench, TEST_ONLY | {"python3-setuptools", "python3-wheel"})

    def test_every_library_is_in_both(self):
        with open(f"{REPO}/cmake/dependencies.cmake", encoding="utf-8") as f:
            libraries = set(" ".join(re.findall(r"^# apt: (.*)$", f.read(), re.M)).split())
        self.assertIn("libpugixml-dev", libraries)
        self.assertLessEqual(libraries, listed("--bench"))
        self.assertLessEqual(libraries, listed())

    def test_each_command_asks_for_its_own_list(self):
        with open(f"{REPO}/tools/run_bench.sh", encoding="utf-8") as f:
            self.assertRegex(f.read(), r"(?m)^\s*tools/setup\.sh --bench$")
        with open(f"{REPO}/tools/run_tests.sh", encoding="utf-8") as f:
            self.assertRegex(f.read(), r"(?m)^tools/setup\.sh$")

    def test_help_and_a_bad_option(self):
        r = run("--help")
        self.assertEqual(r.returncode, 0)
        self.assertIn("--bench", r.stdout)
        r = run("--bnech")
        self.assertEqual(r.returncode, 2)
        self.assertIn("unknown option --bnech", r.stderr)


if __name__ == "__main__":
    main()
