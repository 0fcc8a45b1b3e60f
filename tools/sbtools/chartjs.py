"""Chart.js for the pages the tools write (tools/report --html, tools/track site): Debian's
libjs-chart.js (3.9.1), copied beside the page so it opens from disk, without the internet."""
import os
import shutil

CHART_JS = "/usr/share/javascript/chart.js/chart.min.js"  # Debian libjs-chart.js (3.9.1)


def copy_chart_js(out_dir, error=RuntimeError):
    """Copies chart.min.js into out_dir; raises error(message) when the package is missing."""
    if not os.path.exists(CHART_JS):
        raise error(f"{CHART_JS}: missing (Debian libjs-chart.js; tools/setup.sh installs it)")
    os.makedirs(out_dir, exist_ok=True)
    shutil.copyfile(CHART_JS, os.path.join(out_dir, "chart.min.js"))
