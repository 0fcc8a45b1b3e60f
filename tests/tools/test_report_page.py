#!/usr/bin/python3
"""tools/report --html (tools/sbtools/report/page.py, web_assets/) in a real browser (label unit):
the page rendered from a committed machine's results, opened in headless Chromium (Debian
chromium + chromium-driver, selenium) at 1366x768: no console errors, every section present,
the per-family answer on the first screen, charts drawn with values on hover and CSV data,
tables sorting and filtering, links resolving; result files lacking a section's data make that
section say what is missing. Screenshots go to $SB_TEST_OUT (default
build/test-output/report_page/)."""
import os
import shutil
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tools_common import REPO, Tmp, main, tool  # noqa: E402
from browser import chromium  # noqa: E402
from sbtools.report import answer, driver, reproduction  # noqa: E402

MACHINE = "bab0702471ef"   # the committed run with every document (results/<machine>/)
RESULTS = os.path.join(REPO, "results")
OUT = os.environ.get("SB_TEST_OUT") or os.path.join(REPO, "build", "test-output", "report_page")
WIDTH, HEIGHT = 1366, 768  # the first screen the issue names
MAX_PAGE_BYTES = 3 * 1024 * 1024


def page_bytes(folder):
    """index.html and its assets, as a browser loads them."""
    files = [os.path.join(folder, "index.html")] + [
        os.path.join(folder, "assets", n) for n in os.listdir(os.path.join(folder, "assets"))]
    return sum(os.path.getsize(f) for f in files)


class PageTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="sb-report-page-")
        cls.out = os.path.join(cls.dir, "page")
        cls.proc = tool("report", "--machine", MACHINE, "--html", "--no-charts",
                        "--out-dir", cls.out, check=0)
        cls.driver, cls.profile = chromium(WIDTH, HEIGHT, prefix="sb-report-chromium-")
        # The viewport itself (the window's size would include the browser's own bars).
        cls.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False})
        t0 = time.monotonic()
        cls.driver.get("file://" + os.path.join(cls.out, "index.html"))
        cls.load_s = time.monotonic() - t0
        cls.errors = [e for e in cls.driver.get_log("browser") if e["level"] == "SEVERE"]

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()  # stops the chromium and chromedriver it started
        shutil.rmtree(cls.profile, ignore_errors=True)
        shutil.rmtree(cls.dir, ignore_errors=True)

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def wait_for(self, script, *args, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = self.js(script, *args)
            if got:
                return got
            time.sleep(0.1)
        self.fail(f"timed out waiting for: {script}")

    def screenshot(self, name):
        os.makedirs(OUT, exist_ok=True)
        self.driver.save_screenshot(os.path.join(OUT, name))

    def test_a_first_screen_holds_the_answer_per_family(self):
        self.js("window.scrollTo(0, 0)")
        self.assertEqual(self.js("return [window.innerWidth, window.innerHeight]"), [WIDTH, HEIGHT])
        families = self.js("return [...document.querySelectorAll('.answer-table tbody tr')]"
                           ".map((r) => r.dataset.family)")
        self.assertEqual(len(families), 6, families)
        # Every answer row, the run line and the ranking rule end above the screen's bottom.
        bottom = self.js("const r = document.querySelector('.answer .note').getBoundingClientRect();"
                         "return r.bottom")
        self.assertLessEqual(bottom, HEIGHT, "the answer needs scrolling at 1366x768")
        text = self.driver.find_element("css selector", ".answer").text
        for word in (MACHINE, "6790742da1f5", "loopback", "LAN", "WAN"):
            self.assertIn(word, text)
        # The ranking words are the statistics' (sbtools.stats.claim): simdjson-dom is clearly
        # ahead for jsonrpc in this run, the XML-RPC leaders are tied within noise.
        rows = {r.get_attribute("data-family"): r.text for r in
                self.driver.find_elements("css selector", ".answer-table tbody tr")}
        self.assertIn("simdjson-dom fastest", rows["jsonrpc"])
        self.assertIn("tied within noise", rows["xmlrpc"])
        self.assertNotRegex(rows["xmlrpc"], r" fastest, [\d.]+× ahead")
        self.screenshot("first_screen.png")

    def test_b_no_console_errors_and_every_section(self):
        self.assertEqual(self.errors, [])
        ids = self.js("return [...document.querySelectorAll('section.section')].map((s) => s.id)")
        want = [driver.anchor(m.TITLE) for m in driver.SECTIONS] + [driver.anchor(reproduction.TITLE)]
        self.assertEqual([i for i in ids if i != "summary"], want)
        # Sections this run has no data for say so; the others are drawn.
        missing = self.js("return [...document.querySelectorAll('section.missing')].map((s) => s.id)")
        self.assertEqual(sorted(missing), ["conformance-the-standard-suites", "scripting-stacks",
                                           "your-messages"])
        for sid in missing:
            self.assertIn("Not in these results", self.driver.find_element("id", sid).text)
        self.assertEqual(self.js("return document.querySelectorAll('section.failed').length"), 0)

    def test_c_links_resolve(self):
        broken = self.js(
            "return [...document.querySelectorAll('a[href^=\"#\"]')].map((a) => a.getAttribute('href'))"
            ".filter((h) => !document.getElementById(decodeURIComponent(h.slice(1))))")
        self.assertEqual(broken, [])
        files = self.js("return [...document.querySelectorAll('a[href]')].map((a) => "
                        "a.getAttribute('href')).filter((h) => !h.startsWith('#') && "
                        "!h.startsWith('blob:') && !h.includes('://'))")
        self.assertIn("report.md", files)
        for f in files:
            self.assertTrue(os.path.exists(os.path.join(self.out, f)), f)

    def test_d_charts_draw_and_show_values(self):
        figures = self.js("return [...document.querySelectorAll('figure[data-chart]')]"
                          ".map((f) => f.dataset.chart)")
        self.assertGreaterEqual(len(figures), 15, figures)
        for fid in figures:  # drawn as they come into view
            self.js("document.querySelector(`figure[data-chart='${arguments[0]}']`)"
                    ".scrollIntoView()", fid)
            self.wait_for("const f = document.querySelector(`figure[data-chart='${arguments[0]}']`);"
                          "const c = [...f.querySelectorAll('canvas')];"
                          "return c.length === DATA.charts[arguments[0]].specs.length && "
                          "c.every((x) => x.dataset.rendered && Chart.getChart(x) && x.width > 100)",
                          fid)
        self.assertEqual(self.errors + [e for e in self.driver.get_log("browser")
                                        if e["level"] == "SEVERE"], [])
        # Hover: the pointer on the decode chart's first bar shows its value in the tooltip.
        canvas = self.driver.find_element("css selector", "figure[data-chart='decode'] canvas")
        self.js("arguments[0].scrollIntoView({block: 'center'})", canvas)
        bar = self.js("const ch = Chart.getChart(arguments[0]);"
                      "const meta = ch.getDatasetMeta(0);"
                      "const i = ch.data.datasets[0].data.findIndex((v) => v !== null);"
                      "const el = meta.data[i];"
                      "return {x: el.x, y: (el.y + el.base) / 2, value: ch.data.datasets[0].data[i],"
                      "        label: ch.data.datasets[0].label, w: arguments[0].clientWidth,"
                      "        h: arguments[0].clientHeight}", canvas)
        from selenium.webdriver.common.action_chains import ActionChains
        ActionChains(self.driver).move_to_element_with_offset(
            canvas, int(bar["x"] - bar["w"] / 2), int(bar["y"] - bar["h"] / 2)).perform()
        tip = self.wait_for("const t = Chart.getChart(arguments[0]).tooltip;"
                            "return t.opacity > 0 && t.body && t.body.map((b) => b.lines.join(' '))"
                            ".join('\\n')", canvas)
        self.assertIn(bar["label"], tip)
        self.assertIn(f"{bar['value']}"[:4], tip)
        self.screenshot("chart_decode.png")
        # Its data as CSV: one row per bar.
        csv = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch(document.querySelector(\"figure[data-chart='decode'] a.csv\").href)"
            ".then((r) => r.text()).then(done)")
        lines = csv.strip().split("\n")
        self.assertEqual(lines[0], "chart,series,x,y,name")
        n_bars = self.js("return DATA.charts.decode.specs[0].datasets.reduce((n, d) => "
                         "n + d.data.length, 0)")
        self.assertEqual(len(lines) - 1, n_bars)

    def test_e_tables_sort_and_filter(self):
        table = "#parse-vs-walk-vs-decode table"
        col = self.js(f"return [...document.querySelectorAll('{table} thead th')].findIndex("
                      "(th) => th.textContent.startsWith('decode MB/s'))")
        self.assertGreater(col, 0)
        cells = f"[...document.querySelectorAll('{table} tbody tr')].map((r) => r.cells[{col}]" \
                ".textContent)"
        before = self.js(f"return {cells}")
        button = self.driver.find_element("css selector", f"{table} thead th:nth-child({col + 1}) "
                                                          "button.sort")
        self.js("arguments[0].scrollIntoView({block: 'center'})", button)
        button.send_keys("\n")  # keyboard-reachable: Enter on the focused button sorts
        after = self.js(f"return {cells}")
        self.assertNotEqual(before, after)
        nums = [float(c.replace(",", "").rstrip("†")) for c in after if c.strip() not in ("", "–")]
        self.assertEqual(nums, sorted(nums))
        # The family filter hides the other families' rows; the model filter the other models'.
        shown = f"[...document.querySelectorAll('{table} tbody tr')].filter((r) => !r.hidden)"
        total = self.js(f"return {shown}.length")
        from selenium.webdriver.support.ui import Select
        wrap = self.driver.find_element("css selector", "#parse-vs-walk-vs-decode .filters")
        Select(wrap.find_element("css selector", "select[data-filter='family']")) \
            .select_by_visible_text("jsonrpc")
        fams = self.js(f"return {shown}.map((r) => r.cells[0].textContent)")
        self.assertTrue(0 < len(fams) < total)
        self.assertEqual(set(fams), {"jsonrpc"})
        Select(wrap.find_element("css selector", "select[data-filter='model']")) \
            .select_by_visible_text("sax")
        models = self.js(f"return {shown}.map((r) => r.dataset.model)")
        self.assertTrue(models and set(models) == {"sax"}, models)
        self.assertIn(f"{len(models)} of {total} rows", wrap.text)

    def test_f_page_weight(self):
        size = page_bytes(self.out)
        self.assertLessEqual(size, MAX_PAGE_BYTES)
        paint = self.js("const p = performance.getEntriesByName('first-contentful-paint')[0];"
                        "return p ? p.startTime : null")
        print(f"\npage {size / 1048576:.2f} MiB; first contentful paint {paint} ms; "
              f"driver.get {self.load_s:.2f} s", file=sys.stderr)

    def test_g_the_committed_page_opens(self):
        page = os.path.join(RESULTS, MACHINE, "index.html")
        self.driver.get("file://" + page)
        self.assertEqual(len(self.driver.find_elements("css selector", ".answer-table tbody tr")),
                         6)
        self.js("document.querySelector('figure[data-chart]').scrollIntoView()")
        self.wait_for("return document.querySelectorAll('canvas[data-rendered]').length > 0")
        self.assertEqual([e for e in self.driver.get_log("browser") if e["level"] == "SEVERE"], [])


class BadDataTest(Tmp):
    """A machine folder whose documents are missing or broken: the page says which, per section."""

    def test_missing_and_broken_documents(self):
        mdir = self.path("results", MACHINE)
        src = os.path.join(RESULTS, MACHINE)
        os.makedirs(mdir)
        for name in os.listdir(src):
            if name.startswith("2026") and "stacks" not in name or name in ("conformance.json",):
                shutil.copy(os.path.join(src, name), mdir)
        with open(os.path.join(mdir, "interop.json"), "w", encoding="utf-8") as f:
            f.write('{"tool": "soapbench interop", "cells": [')  # cut short
        proc = tool("report", "--results-dir", self.path("results"), "--machine", MACHINE,
                    "--html", "--no-charts", check=0)
        self.assertNotIn("Traceback", proc.stderr)
        with open(os.path.join(mdir, "index.html"), encoding="utf-8") as f:
            text = f.read()
        for title in ("Servers under load", "Load"):
            self.assertIn(title, text)
        for want in ("no <code>tools/load_bench</code> document was given",
                     'class="answer"'):
            self.assertTrue(want in text, want)
        interop = text.split('<section id="interop"', 1)[1].split("</section>")[0]
        self.assertIn("could not be read", interop)


if __name__ == "__main__":
    main()
