#!/usr/bin/python3
"""sbtools.charts (label unit): the report's SVG charts are deterministic (the same data, the same
bytes: a fixed hash salt, no date), one colour per series throughout, and each saved chart is
listed and linked from the Markdown."""
import os

from tools_common import Tmp, main
from sbtools.charts import Charts

GROUPS = [("xmlrpc", [("pugixml-dom", 120.0), ("expat-sax", 80.0), ("libxml2-dom", None)]),
          ("jsonrpc", [("rapidjson-dom", 30.0)])]


class ChartsTest(Tmp):
    def draw(self, folder):
        charts = Charts(self.path(folder), ["pugixml-dom", "expat-sax", "rapidjson-dom"],
                        ["xmlrpc", "jsonrpc"])
        fig, _ax = charts.grouped(GROUPS, "MB/s", "decode", "d.svg", ref=100.0)
        link = charts.save(fig, "decode.svg", "decode throughput")
        return charts, link

    def test_the_same_data_draws_the_same_bytes(self):
        _c, link = self.draw("a")
        self.draw("b")
        self.assertEqual(link, "![decode throughput](charts/decode.svg)")
        with open(self.path("a", "decode.svg"), "rb") as a, open(self.path("b", "decode.svg"),
                                                                  "rb") as b:
            first, second = a.read(), b.read()
        self.assertEqual(first, second)
        self.assertNotIn(b"<dc:date>", first)
        self.assertIn(b"pugixml-dom", first)  # text stays text (svg.fonttype none)

    def test_only_the_charts_saved_are_listed(self):
        charts, _link = self.draw("a")
        fig = charts.share_lines([{"call": "getRate", "rows": {"xmlrpc": {"LAN": 2.0}}}], ["LAN"])
        charts.plt.close(fig)  # drawn, not saved
        self.assertEqual(charts.written, ["decode.svg"])
        self.assertEqual(sorted(os.listdir(self.path("a"))), ["decode.svg"])

    def test_colours_per_series_stable_and_new_series_get_their_own(self):
        charts = Charts(self.path("c"), ["a", "b"], ["xmlrpc"])
        self.assertEqual(charts.color("a"), charts.colors["a"])
        self.assertNotEqual(charts.color("a"), charts.color("b"))
        self.assertEqual(charts.color("xmlrpc"), charts.fam_colors["xmlrpc"])
        new = charts.color("unlisted")
        self.assertEqual(charts.color("unlisted"), new)
        self.assertNotIn(new, (charts.color("a"), charts.color("b")))


if __name__ == "__main__":
    main()
