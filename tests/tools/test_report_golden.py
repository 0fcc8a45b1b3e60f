#!/usr/bin/python3
"""tools/report on the committed results against the report as it was rendered before the result
tools became a package (tests/data/report_golden/, README there): report.md and every chart the
same, byte for byte (label unit)."""
import hashlib
import os
import unittest

from tools_common import REPO, Tmp, main, tool  # noqa: E402

GOLDEN = os.path.join(REPO, "tests", "data", "report_golden")
MACHINES = sorted(d for d in os.listdir(GOLDEN) if os.path.isdir(os.path.join(GOLDEN, d)))


class GoldenTest(Tmp):
    def render(self, machine):
        out = self.path(machine)
        tool("report", "--machine", machine, "--out-dir", out, check=0)
        with open(os.path.join(out, "report.md"), encoding="utf-8") as f:
            return out, f.read().replace(out, "OUT_DIR")

    def test_both_machines_render_as_before(self):
        self.assertEqual(MACHINES, ["5efeddd69169", "bab0702471ef"])
        for machine in MACHINES:
            with self.subTest(machine=machine):
                out, text = self.render(machine)
                with open(os.path.join(GOLDEN, machine, "report.md"), encoding="utf-8") as f:
                    want = f.read()
                # assertEqual's diff of two 4,000-line texts is unreadable: the first line apart.
                got_lines, want_lines = text.splitlines(), want.splitlines()
                first = next((i for i, (a, b) in enumerate(zip(got_lines, want_lines)) if a != b),
                             min(len(got_lines), len(want_lines)))
                self.assertEqual(text, want, f"{machine}: report.md differs from line {first + 1}: "
                                 f"{got_lines[first:first + 1]} != {want_lines[first:first + 1]}")
                self.assertEqual(self.chart_sums(os.path.join(out, "charts")),
                                 self.golden_sums(machine))

    @staticmethod
    def chart_sums(folder):
        out = {}
        for name in sorted(os.listdir(folder)):
            with open(os.path.join(folder, name), "rb") as f:
                out[name] = hashlib.sha256(f.read()).hexdigest()
        return out

    @staticmethod
    def golden_sums(machine):
        with open(os.path.join(GOLDEN, machine, "charts.sha256"), encoding="utf-8") as f:
            return {name: digest for digest, name in (line.split() for line in f if line.strip())}


if __name__ == "__main__":
    main()
