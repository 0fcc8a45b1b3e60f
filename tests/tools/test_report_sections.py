#!/usr/bin/python3
"""The report's sections, one parameterised test (label unit): every module of
sbtools.report.driver.SECTIONS, with the opening sentences (report.summary) and the closing
section (report.reproduction), computed from each committed machine's results and compared, one
by one, with that part of tests/data/report_golden/<machine>/report.md (its charts aside: their
image lines; the SVGs are tools.report_golden's); present exactly where the golden report has
it; declaring what the driver reads of it; and left out, not failing, on result files without
its inputs."""
import os
import re
import shutil
import tempfile
import unittest

from tools_common import REPO, RUN1, main
from sbtools.report import driver, reproduction, summary
from sbtools.report.data import Data
from sbtools.report.run import COUNTS, SOURCES, Run

GOLDEN = os.path.join(REPO, "tests", "data", "report_golden")
MACHINES = ("5efeddd69169", "bab0702471ef")
REPORT_DIR = os.path.join(REPO, "tools", "sbtools", "report")


def golden(machine):
    """(the opening sentences, {section title: its Markdown}) of the golden report."""
    with open(os.path.join(GOLDEN, machine, "report.md"), encoding="utf-8") as f:
        text = f.read()
    opening = text.split("\n\n")[2]
    return opening, dict(re.findall(r"^## (.+?)\n\n(.*?)(?=^## |\Z)", text, re.S | re.M))


def comparable(text):
    """Markdown without its chart lines and blank lines (the charts are drawn apart)."""
    return "\n".join(line for line in text.splitlines() if line and not line.startswith("!["))


def run_of(argv, out):
    """The Run tools/report makes of argv (driver.main's steps, up to the sections)."""
    args = driver.parse_args(argv)
    data = Data(driver.inputs(args))
    paths = driver.sources(args, data)
    if paths["icount"]:
        data.load_icount(paths["icount"])
    return Run(data, paths, argv, out, bool(args.out_dir))


class SectionsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="sb-report-sections-")
        cls.runs = {}
        for machine in MACHINES:
            out = os.path.join(cls.tmp, machine)  # golden's command: --out-dir OUT_DIR
            run = run_of(["--machine", machine, "--out-dir", out], out)
            cls.runs[machine] = (run, driver.computed(run), golden(machine))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def as_golden(self, run, text):
        return comparable(text.replace(run.out_dir, "OUT_DIR"))

    def test_each_section_as_in_the_golden_report(self):
        for machine, (run, computed, (_opening, sections)) in self.runs.items():
            for module, d in computed:
                with self.subTest(machine=machine, section=module.__name__):
                    self.assertEqual(bool(d), module.TITLE in sections)
                    if d:
                        self.assertEqual(
                            self.as_golden(run, driver.section_markdown(run, module, d, None)),
                            comparable(sections[module.TITLE]))

    def test_the_opening_sentences_and_the_closing_section(self):
        for machine, (run, _computed, (opening, sections)) in self.runs.items():
            with self.subTest(machine=machine):
                self.assertEqual(" ".join(summary.sentences(run)), opening)
                self.assertEqual(self.as_golden(run, reproduction.markdown(run)),
                                 comparable(sections[reproduction.TITLE]))

    def test_each_section_says_what_the_driver_reads(self):
        titles = [m.TITLE for m in driver.SECTIONS]
        self.assertEqual(len(set(titles)), len(titles))
        for module in driver.SECTIONS:
            with self.subTest(section=module.__name__):
                self.assertTrue(isinstance(module.TITLE, str) and module.TITLE)
                self.assertIn(module.SOURCE, [None, *COUNTS, *SOURCES])
                self.assertTrue(callable(module.compute) and callable(module.markdown))

    def test_every_section_module_is_in_the_report(self):
        listed = {m.__name__.rsplit(".", 1)[1] for m in driver.SECTIONS}
        for name in sorted(n for n in os.listdir(REPORT_DIR) if n.endswith(".py")):
            with open(os.path.join(REPORT_DIR, name), encoding="utf-8") as f:
                text = f.read()
            if re.search(r"^def compute\(", text, re.M) and re.search(r"^def markdown\(", text,
                                                                        re.M):
                self.assertIn(name[:-3], listed, f"report/{name} is a section the driver lacks")

    def test_without_its_inputs_a_section_is_left_out(self):
        out = os.path.join(self.tmp, "bare")
        run = run_of([RUN1, "--out-dir", out], out)  # one parse_bench file, no documents
        for module, d in driver.computed(run):
            with self.subTest(section=module.__name__):
                if module.SOURCE in SOURCES:
                    self.assertFalse(d)
                if d:
                    self.assertTrue(driver.section_markdown(run, module, d, None).strip())


if __name__ == "__main__":
    main()
