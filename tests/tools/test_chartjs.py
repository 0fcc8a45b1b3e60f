#!/usr/bin/python3
"""sbtools.chartjs (label unit): Debian's Chart.js copied beside a page, and the error that names
the package when it is missing."""
import filecmp
import os
from unittest import mock

from tools_common import Tmp, main
from sbtools import chartjs


class ChartJsTest(Tmp):
    def test_copied_into_the_folder_it_makes(self):
        out = self.path("page", "assets")
        chartjs.copy_chart_js(out)
        self.assertTrue(filecmp.cmp(os.path.join(out, "chart.min.js"), chartjs.CHART_JS,
                                    shallow=False))

    def test_missing_package_is_named_with_the_callers_error(self):
        class Refused(Exception):
            pass
        with mock.patch.object(chartjs, "CHART_JS", self.path("no", "chart.min.js")):
            with self.assertRaisesRegex(Refused, "libjs-chart.js; tools/setup.sh installs it"):
                chartjs.copy_chart_js(self.path("out"), Refused)
        self.assertFalse(os.path.exists(self.path("out")))


if __name__ == "__main__":
    main()
