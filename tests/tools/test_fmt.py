#!/usr/bin/python3
"""sbtools.fmt (label unit): numbers, ranges, tables and family names as the report prints them."""
import unittest

from tools_common import main
from sbtools import fmt


class NumbersTest(unittest.TestCase):
    def test_microseconds_keep_three_figures_then_whole_numbers(self):
        self.assertEqual(fmt.us(1234), "1.23")
        self.assertEqual(fmt.us(99_949), "99.9")
        self.assertEqual(fmt.us(123_456), "123")
        self.assertEqual(fmt.us(12_345_678), "12,346")
        self.assertEqual(fmt.us(1234, digits=2), "1.2")
        self.assertEqual(fmt.us(None), "–")

    def test_numbers_counts_and_percentages(self):
        self.assertEqual(fmt.fmt_num(0.012345), "0.0123")
        self.assertEqual(fmt.fmt_num(-2500.4), "-2,500")
        self.assertEqual(fmt.fmt_num(None), "–")
        self.assertEqual(fmt.whole(1234567.6), "1,234,568")
        self.assertEqual(fmt.whole(None), "–")
        self.assertEqual([fmt.pct(v) for v in (42.4, 3.14159, 0.0123, None)],
                         ["42%", "3.1%", "0.012%", "–"])

    def test_ranges_print_one_figure_when_both_ends_do(self):
        self.assertEqual(fmt.rng([3.01, 3.04]), "3.0%")
        self.assertEqual(fmt.rng([3.0, 12.0]), "3.0%–12%")
        self.assertEqual(fmt.span([1.201, 1.204]), "1.20×")
        self.assertEqual(fmt.span([1.2, 1.5, 1.3]), "1.20–1.50×")


class TableTest(unittest.TestCase):
    def test_first_column_left_the_rest_right_and_pipes_escaped(self):
        self.assertEqual(fmt.table(["a", "b", "c"], [["x|y", 1, 2.5]]),
                         "| a | b | c |\n| --- | ---: | ---: |\n| x\\|y | 1 | 2.5 |")

    def test_alignment_per_column(self):
        self.assertEqual(fmt.table(["a", "b"], [], align=["c", "l"]).splitlines()[1],
                         "| :---: | --- |")

    def test_a_cell_stays_on_one_line(self):
        self.assertEqual(fmt.md_escape("two\nlines"), "two lines")


class FamilyNamesTest(unittest.TestCase):
    def test_titles_as_the_specs_name_them_and_unknown_ones_as_given(self):
        self.assertEqual(fmt.family_title("soap11-rpc-encoded"), "SOAP 1.1 rpc/encoded")
        self.assertEqual(fmt.family_title("jsonrpc"), "JSON-RPC 2.0")
        self.assertEqual(fmt.family_title("grpc"), "grpc")

    def test_short_labels_for_narrow_columns(self):
        self.assertEqual([fmt.short(f) for f in ("soap11-rpc-encoded", "soap11-rpc-literal",
                                                 "soap11-doc-literal", "soap12-doc-literal",
                                                 "xmlrpc", "jsonrpc")],
                         ["s11-enc", "s11-lit", "s11-doc", "s12-doc", "xmlrpc", "jsonrpc"])


if __name__ == "__main__":
    main()
