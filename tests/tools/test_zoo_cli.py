#!/usr/bin/python3
"""tools/track zoo's command line (sbtools/zoo/cli.py, label unit): --help with the gates and exit
codes, --list of the patches with whether each applies, and a clear error (exit 2) for an
unknown gate or patch, before anything is built."""
import unittest

from tools_common import tool


class ZooCliTest(unittest.TestCase):
    def test_help(self):
        out = tool("track", "zoo", "--help", check=0).stdout
        for text in ("--gates", "callcount", "icount", "--aa", "--budget", "exit codes:",
                     "a patch escaped every gate"):
            self.assertIn(text, out)
        self.assertIn("zoo", tool("track", "--help", check=0).stdout)

    def test_list(self):
        out = tool("track", "zoo", "--list", check=0).stdout
        self.assertIn("dispatch-lock", out)
        self.assertNotIn("DOES NOT APPLY", out)
        self.assertGreaterEqual(out.count(" applies"), 10)

    def test_bad_usage(self):
        self.assertIn("unknown gate wallclock",
                      tool("track", "zoo", "--gates", "wallclock", check=2).stderr)
        self.assertIn("no-such-patch",
                      tool("track", "zoo", "--patches", "no-such-patch", "--list", check=2).stderr)
        tool("track", "zoo", "--aa", "-1", check=2)


if __name__ == "__main__":
    unittest.main()
