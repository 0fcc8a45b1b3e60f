#!/usr/bin/python3
"""sbtools.report.fold (label unit): a section of the web page laid out for reading: charts first
(after a "Not from this run" note), the later charts, long or late tables and long lists folded
with a summary of what is inside."""
import unittest

from tools_common import main
from sbtools.report import fold


class FoldTest(unittest.TestCase):
    FIG = ('<figure class="chart-figure" id="chart-{0}" data-chart="{0}"><figcaption>{0} chart'
           '</figcaption></figure>\n')

    @staticmethod
    def table(rows):
        return ("<table>\n<thead>\n<tr>\n<th>adapter</th>\n<th>µs</th>\n</tr>\n</thead>\n"
                "<tbody>\n" + "".join(f"<tr>\n<td>a{i}</td>\n<td>{i}</td>\n</tr>\n"
                                      for i in range(rows)) + "</tbody>\n</table>")

    def test_charts_first_after_the_source_note_and_the_rest_folded(self):
        body = ("<p><em>Not from this run: x.json …</em></p>\n<p>Text.</p>\n" +
                self.FIG.format("a") + "<p>More.</p>\n" + self.FIG.format("b"))
        out = fold.lay_out(body)
        self.assertTrue(out.startswith("<p><em>Not from this run"))
        after_note = out.split("</p>\n", 1)[1]
        self.assertTrue(after_note.startswith('<figure class="chart-figure" id="chart-a"'))
        self.assertIn('<details class="fold fold-charts"><summary>1 more charts: b chart'
                      "</summary>", out)
        self.assertLess(out.index("chart-b"), out.index("<p>Text.</p>"))

    def test_long_and_late_tables_and_long_lists_fold(self):
        body = "\n".join([self.table(fold.FOLD_ROWS + 1), self.table(3), self.table(3),
                          "<ul>\n" + "".join(f"<li>item {i}</li>\n" for i in range(9)) + "</ul>",
                          "<ul>\n<li>short</li>\n</ul>"])
        out = fold.lay_out(body)
        self.assertIn(f"<summary>Table of {fold.FOLD_ROWS + 1} rows (adapter, µs)</summary>", out)
        parts = out.split("<table>")
        self.assertEqual(len(parts), 4)
        self.assertFalse(parts[1].rstrip().endswith("</summary>"))  # the second: short, open
        self.assertIn("<summary>Table of 3 rows (adapter, µs)</summary>", out)  # the third
        self.assertIn("<summary>List of 9 items (item 0; …)</summary>", out)
        self.assertIn("<ul>\n<li>short</li>\n</ul>", out)
        self.assertEqual(fold.lay_out("<p>x</p>"), "<p>x</p>")


if __name__ == "__main__":
    main()
