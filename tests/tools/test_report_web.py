#!/usr/bin/python3
"""The web page's Python parts without a browser (label unit): report.page says what a section
without data lacks. Their own tests: test_report_webcharts.py (the charts' specifications),
test_report_answer.py (the first screen), test_report_fold.py (a section's layout); the page in
a browser: test_report_page.py."""
import unittest

from tools_common import main  # noqa: E402
from sbtools.report import decode, load, page  # noqa: E402


class MissingTextTest(unittest.TestCase):
    def test_names_the_document_and_option(self):
        text = page.missing_text(load)
        self.assertIn("`tools/load_bench`", text)
        self.assertIn("--load FILE", text)
        self.assertIn("benchmark files", page.missing_text(decode))


if __name__ == "__main__":
    main()
