#!/usr/bin/python3
"""tools/report --html (tools/sbtools/report/page.py, fold.py, web_assets/) in a real browser
(label unit): the page rendered from a committed machine's results with the committed standard
suites' matrix (as results/<machine>/index.html is), opened in headless Chromium (Debian chromium
+ chromium-driver, selenium) on a 1366x768 screen and on a 390x844 phone. On both: no horizontal
scroll, the per-family answer readable without scrolling sideways, every chart drawn with every
legend entry visible and distinct from the chart's others, no hairline bars, charts first in each
section, long tables folded, and the page a few screens per section. On the big screen also: no
console errors, every section present, the answer on the first screen, charts with values on
hover and CSV data, tables sorting and filtering, links resolving; result files lacking a
section's data make that section say what is missing. Screenshots go to $SB_TEST_OUT (default
build/test-output/report_page/)."""
import glob
import os
import re
import shutil
import sys
import tempfile
import time
import unittest

from tools_common import REPO, Tmp, main, tool  # noqa: E402
from browser import chromium  # noqa: E402
from sbtools.report import driver, fold, reproduction  # noqa: E402
from sbtools.report import page as page_module  # noqa: E402

MACHINE = "bab0702471ef"   # the committed run with every document (results/<machine>/)
RESULTS = os.path.join(REPO, "results")
# The standard suites' matrix the committed pages are rendered with (git log of index.html).
SUITES = os.path.join(RESULTS, "da5acefad890",
                      "20261203-072501_b243d88cbec1.conformance_suites.json")
OUT = os.environ.get("SB_TEST_OUT") or os.path.join(REPO, "build", "test-output", "report_page")
MAX_PAGE_BYTES = 3 * 1024 * 1024
MIN_BAR_PX = 4             # a bar at least this thick across
PAGE = {}                  # the rendered page: {"dir", "out"}


def setUpModule():
    PAGE["dir"] = tempfile.mkdtemp(prefix="sb-report-page-")
    PAGE["out"] = os.path.join(PAGE["dir"], "page")
    tool("report", "--machine", MACHINE, "--html", "--no-charts", "--conformance-suites", SUITES,
         "--out-dir", PAGE["out"], check=0)


def tearDownModule():
    shutil.rmtree(PAGE["dir"], ignore_errors=True)


def page_bytes(folder):
    """index.html and its assets, as a browser loads them."""
    files = [os.path.join(folder, "index.html")] + [
        os.path.join(folder, "assets", n) for n in os.listdir(os.path.join(folder, "assets"))]
    return sum(os.path.getsize(f) for f in files)


# Every drawn chart: its title, datasets, how each is drawn, legend entries (swatch, label, box,
# cut) and the thinnest bar it drew.
CHARTS_JS = """
return [...document.querySelectorAll('.chart-box')].map((box) => {
  const chart = Chart.getChart(box.querySelector('.canvas-box canvas'));
  const items = [...box.querySelectorAll('ul.legend button')].map((b) => {
    const r = b.getBoundingClientRect(); const s = b.querySelector('span');
    return {swatch: b.dataset.swatch, label: s.textContent, left: r.left, right: r.right,
            cut: s.scrollWidth > s.clientWidth + 1 || r.width < 1};
  });
  let thinnest = null;
  if (chart && chart.config.type === 'bar') {
    chart.data.datasets.forEach((d, i) => chart.getDatasetMeta(i).data.forEach((el, j) => {
      if (d.data[j] === null || d.data[j] === undefined) return;
      const p = el.getProps(['width', 'height', 'horizontal'], true);
      const t = p.horizontal ? p.height : p.width;
      thinnest = thinnest === null ? t : Math.min(thinnest, t);
    }));
  }
  // How each series is drawn: colour, fill (a colour or a pattern), dash and point shape.
  const looks = chart ? chart.data.datasets.map((d) => [d.borderColor,
    typeof d.backgroundColor === 'string' ? d.backgroundColor : 'pattern',
    JSON.stringify(d.borderDash || []), d.pointStyle || ''].join(' ')) : [];
  return {title: chart ? chart.options.plugins.title.text : null,
          datasets: chart ? chart.data.datasets.map((d) => d.label) : [], items, thinnest, looks};
});"""


class Browser(unittest.TestCase):
    """A headless Chromium on one screen size, the rendered page open."""
    WIDTH, HEIGHT, MOBILE, NAME = 1366, 768, False, "desktop"
    SCREENS_PER_SECTION = 2    # the page-height budget: screens per section

    @classmethod
    def setUpClass(cls):
        cls.out = PAGE["out"]
        cls.driver, cls.profile = chromium(cls.WIDTH, cls.HEIGHT, prefix="sb-report-chromium-")
        # The viewport itself (the window's size would include the browser's own bars).
        cls.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": cls.WIDTH, "height": cls.HEIGHT, "deviceScaleFactor": 1,
            "mobile": cls.MOBILE})
        t0 = time.monotonic()
        cls.driver.get("file://" + os.path.join(cls.out, "index.html"))
        cls.load_s = time.monotonic() - t0
        cls.errors = [e for e in cls.driver.get_log("browser") if e["level"] == "SEVERE"]

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()  # stops the chromium and chromedriver it started
        shutil.rmtree(cls.profile, ignore_errors=True)

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
        self.driver.save_screenshot(os.path.join(OUT, f"{self.NAME}_{name}"))

    def draw_shown_charts(self):
        """Draws every chart not inside a closed fold, as scrolling past them would."""
        self.js("document.querySelectorAll('figure[data-chart]').forEach((f) => {"
                "  if (!f.closest('details:not([open])')) drawFigure(f); })")

    def open_everything(self):
        self.js("document.querySelectorAll('details.fold').forEach((d) => { d.open = true; });"
                "document.querySelectorAll('figure[data-chart]').forEach(drawFigure);")

    def no_sideways_scroll(self):
        return self.js("return [document.documentElement.scrollWidth, window.innerWidth]")


class Layout:
    """What both screen sizes must get right (mixed into each size's test class)."""

    def test_1_answer_readable_without_scrolling_sideways(self):
        self.js("window.scrollTo(0, 0)")
        self.assertEqual(self.js("return [window.innerWidth, window.innerHeight]"),
                         [self.WIDTH, self.HEIGHT])
        wide = self.js("return [...document.querySelectorAll('.answer, .answer *')].filter((e) => "
                       "e.getBoundingClientRect().right > window.innerWidth + 0.5 || "
                       "e.getBoundingClientRect().left < -0.5).map((e) => e.tagName + ' ' + "
                       "e.textContent.slice(0, 40))")
        self.assertEqual(wide, [])
        rows = self.driver.find_elements("css selector", ".answer-table tbody tr")
        self.assertEqual(len(rows), 6)
        for r in rows:  # every cell of the answer shown, none cut
            self.assertTrue(r.is_displayed())
            self.assertIn("right answers", r.text if self.MOBILE else self.js(
                "return document.querySelector('.answer-table thead').textContent"))
        self.screenshot("first_screen.png")

    def test_2_page_height_a_few_screens_per_section(self):
        self.js("window.scrollTo(0, 0)")
        self.draw_shown_charts()
        time.sleep(0.5)
        sections = self.js("return document.querySelectorAll('main > section').length")
        height = self.js("return document.documentElement.scrollHeight")
        budget = sections * self.SCREENS_PER_SECTION * self.HEIGHT
        print(f"\n{self.NAME}: page {height} px tall, {sections} sections, budget {budget} px",
              file=sys.stderr)
        self.assertLessEqual(height, budget)
        width, inner = self.no_sideways_scroll()
        self.assertLessEqual(width, inner, "the page scrolls sideways")

    def test_3_charts_first_and_long_tables_folded(self):
        late = self.js("return [...document.querySelectorAll('section.section')].filter((s) => "
                       "s.querySelector('figure[data-chart]')).filter((s) => {"
                       "  let e = s.querySelector('h2').nextElementSibling;"
                       "  if (e && e.tagName === 'P' && e.textContent.startsWith('Not from this run'))"
                       "    e = e.nextElementSibling;"
                       "  return !(e && e.matches('figure[data-chart]')); }).map((s) => s.id)")
        self.assertEqual(late, [])
        long_open = self.js("return [...document.querySelectorAll('section.section table')]"
                            ".filter((t) => !t.closest('details') && t.tBodies[0] && "
                            "t.tBodies[0].rows.length > arguments[0]).map((t) => "
                            "t.closest('section').id)", fold.FOLD_ROWS)
        self.assertEqual(long_open, [])
        self.assertGreater(self.js("return document.querySelectorAll('details.fold').length"), 10)

    def test_4_every_legend_entry_visible_and_distinct(self):
        self.open_everything()
        time.sleep(1)
        charts = self.js(CHARTS_JS)
        self.assertGreaterEqual(len(charts), 30)
        for c in charts:
            with self.subTest(chart=c["title"]):
                self.assertTrue(c["title"] and c["datasets"], c)
                self.assertEqual(len(set(c["looks"])), len(c["looks"]), c["looks"])
                self.assertEqual([i["label"] for i in c["items"]], c["datasets"])
                swatches = [i["swatch"] for i in c["items"]]
                self.assertEqual(len(set(swatches)), len(swatches), swatches)
                for i in c["items"]:
                    self.assertFalse(i["cut"], i)
                    self.assertGreaterEqual(i["left"], -0.5, i)
                    self.assertLessEqual(i["right"], self.WIDTH + 0.5, i)
                if c["thinnest"] is not None:
                    self.assertGreaterEqual(c["thinnest"], MIN_BAR_PX)
        width, inner = self.no_sideways_scroll()
        self.assertLessEqual(width, inner, "the page scrolls sideways with everything open")
        self.js("document.querySelector(\"figure[data-chart='memory']\").scrollIntoView()")
        self.screenshot("chart_memory.png")
        self.js("document.querySelector(\"figure[data-chart='decode']\").scrollIntoView()")
        self.screenshot("chart_decode.png")


class DesktopTest(Layout, Browser):
    def test_a_first_screen_holds_the_answer_per_family(self):
        self.js("window.scrollTo(0, 0)")
        # Every answer row, the run line and the notes end above the screen's bottom.
        bottom = self.js("return Math.max(...[...document.querySelectorAll('.answer .note')]"
                         ".map((n) => n.getBoundingClientRect().bottom))")
        self.assertLessEqual(bottom, self.HEIGHT, "the answer needs scrolling at 1366x768")
        text = self.driver.find_element("css selector", ".answer").text
        for word in (MACHINE, "6790742da1f5", "loopback", "LAN", "WAN"):
            self.assertIn(word, text)
        rows = {r.get_attribute("data-family"): r for r in
                self.driver.find_elements("css selector", ".answer-table tbody tr")}
        # simdjson-dom is clearly ahead for jsonrpc in this run and gave right answers.
        self.assertIn("simdjson-dom fastest", rows["jsonrpc"].text)
        # Families as README names them, their codes beside; no "s11-enc" jargon.
        self.assertIn("SOAP 1.1 rpc/encoded", rows["soap11-rpc-encoded"].text)
        self.assertIn("XML-RPC", rows["xmlrpc"].text)
        self.assertNotIn("s11-enc", text)

    def test_a2_a_wrong_answer_never_wins_a_row(self):
        # rapidxml-dom-fastest has the lowest median, but accepted not-well-formed documents of
        # the W3C suite: it is named only among the faster adapters with wrong answers.
        for fam in ("xmlrpc", "soap11-rpc-encoded", "soap12-doc-literal"):
            cells = self.js("return [...document.querySelectorAll("
                            "`.answer-table tr[data-family='${arguments[0]}'] td`)]"
                            ".filter((c) => c.textContent.includes('rapidxml-dom-fastest'))"
                            ".map((c) => c.className)", fam)
            self.assertEqual(cells, ["wrong"], fam)
        criterion = self.driver.find_element("css selector", ".answer .criterion").text
        for check in ("hostile inputs", "standard suites", "benchmark corpus"):
            self.assertIn(check, criterion)

    def test_a3_columns_say_what_they_mean(self):
        heads = self.js("return [...document.querySelectorAll('.answer-table thead th')].map("
                        "(th) => [th.textContent.trim(), th.title])")
        for text, tip in heads:  # every column but the family says on hover what it holds
            self.assertTrue(tip or text == "family", text)
        for link in ("datacenter", "LAN", "WAN", "mobile"):
            text, tip = next(h for h in heads if h[0].startswith(link))
            self.assertIn("link model", tip)
            self.assertRegex(text, r"bit/s, [\d.]+ ms$")  # the model, visible under its name
        text, tip = next(h for h in heads if h[0].startswith("loopback"))
        self.assertEqual((text, tip), ("loopbackmeasured", "measured on loopback"))
        text, tip = next(h for h in heads if h[0].startswith("parser share"))
        self.assertIn("keep-alive getRate call", tip)

    def test_b_no_console_errors_and_every_section(self):
        self.assertEqual(self.errors, [])
        ids = self.js("return [...document.querySelectorAll('section.section')].map((s) => s.id)")
        want = [driver.anchor(m.TITLE) for m in driver.SECTIONS] + [driver.anchor(reproduction.TITLE)]
        self.assertEqual([i for i in ids if i != "summary"], want)
        # Sections this run has no data for say so; the others are drawn.
        missing = self.js("return [...document.querySelectorAll('section.missing')].map((s) => s.id)")
        self.assertEqual(sorted(missing),
                         ["real-world-messages", "rounds-until-decided", "scripting-stacks",
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
        self.js("document.querySelectorAll('details.fold-charts').forEach((d) => { d.open = true; })")
        for fid in figures:  # drawn as they come into view
            self.js("document.querySelector(`figure[data-chart='${arguments[0]}']`)"
                    ".scrollIntoView()", fid)
            self.wait_for("const f = document.querySelector(`figure[data-chart='${arguments[0]}']`);"
                          "const c = [...f.querySelectorAll('.canvas-box canvas')];"
                          "return c.length === DATA.charts[arguments[0]].specs.length && "
                          "c.every((x) => x.dataset.rendered && Chart.getChart(x) && x.width > 100)",
                          fid)
        self.assertEqual(self.errors + [e for e in self.driver.get_log("browser")
                                        if e["level"] == "SEVERE"], [])
        # Hover: the pointer on the decode chart's first bar shows its value in the tooltip.
        canvas = self.driver.find_element("css selector",
                                          "figure[data-chart='decode'] .canvas-box canvas")
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
        # Its data as CSV: one row per bar of every chart of the figure.
        csv = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch(document.querySelector(\"figure[data-chart='decode'] a.csv\").href)"
            ".then((r) => r.text()).then(done)")
        lines = csv.strip().split("\n")
        self.assertEqual(lines[0], "chart,series,x,y,name")
        n_bars = self.js("return DATA.charts.decode.specs.reduce((n, s) => n + s.datasets.reduce("
                         "(m, d) => m + d.data.length, 0), 0)")
        self.assertEqual(len(lines) - 1, n_bars)

    def test_e_tables_sort_and_filter(self):
        table = "#parse-vs-walk-vs-decode table"
        # 92 rows: folded; its summary says so, and opening it shows the table and its filters.
        fold_el = self.driver.find_element("css selector", "#parse-vs-walk-vs-decode details.fold")
        self.assertIn("Table of 92 rows", fold_el.text)
        self.js("arguments[0].open = true", fold_el)
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


class PhoneTest(Layout, Browser):
    WIDTH, HEIGHT, MOBILE, NAME = 390, 844, True, "phone"
    SCREENS_PER_SECTION = 3

    def test_a_each_family_a_card(self):
        # The header row is not shown: each cell says what it is (its column's name before it),
        # and the parser shares are one line under their own heading.
        self.assertFalse(self.driver.find_element("css selector", ".answer-table thead")
                         .is_displayed())
        labels = self.js("return [...document.querySelectorAll(\"tr[data-family='jsonrpc'] td\")]"
                         ".map((td) => [td.className, td.textContent, "
                         "getComputedStyle(td, '::before').content])")
        before = {text if cls == "share-head" else cls + " " + text: content
                  for cls, text, content in labels}
        self.assertIn("parser share of a keep-alive getRate call:", before)
        for want in ("fastest with right answers", "faster, with wrong answers", "loopback",
                     "datacenter", "LAN", "WAN", "mobile"):
            self.assertTrue(any(want in c for c in before.values()), (want, before))


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
        # Without the suites' matrix the first screen says which check it lacks.
        answer = text.split('<section id="answer"', 1)[1].split("</section>")[0]
        self.assertIn("Not in these results: standard suites", answer)


class AssetsTest(unittest.TestCase):
    """The scripts and styles once in the tree: the committed pages link the package's own and
    results/assets/chart.min.js; a page written elsewhere gets them all copied beside it."""

    def hrefs(self, html_text):
        return re.findall(r'<(?:link rel="stylesheet" href|script src)="([^"]+)"', html_text)

    def test_the_committed_pages_link_one_copy(self):
        pages = sorted(glob.glob(os.path.join(RESULTS, "*", "index.html")))
        self.assertGreaterEqual(len(pages), 2)
        for page in pages:
            folder = os.path.dirname(page)
            self.assertFalse(os.path.exists(os.path.join(folder, "assets")), folder)
            with open(page, encoding="utf-8") as f:
                hrefs = self.hrefs(f.read())
            self.assertEqual([os.path.basename(h) for h in hrefs],
                             ["report.css", "chart.min.js", "charts.js", "report.js"])
            for href in hrefs:
                target = os.path.normpath(os.path.join(folder, href))
                self.assertTrue(os.path.isfile(target), (page, href))
                self.assertIn(os.path.dirname(target), (page_module.ASSETS,
                                                        page_module.SHARED_ASSETS))

    def test_a_page_elsewhere_gets_its_assets_beside_it(self):
        hrefs, copies = page_module.asset_hrefs(PAGE["out"])
        self.assertEqual(set(hrefs.values()), {"assets/" + n for n in hrefs})
        self.assertEqual(sorted(copies), sorted(page_module.ASSET_FILES))
        for name in hrefs:
            self.assertTrue(os.path.isfile(os.path.join(PAGE["out"], "assets", name)), name)
        with open(os.path.join(PAGE["out"], "index.html"), encoding="utf-8") as f:
            self.assertEqual(sorted(self.hrefs(f.read())), sorted(hrefs.values()))

    def test_a_page_in_results_links_them(self):
        folder = os.path.join(RESULTS, "a-machine-not-there")
        hrefs, copies = page_module.asset_hrefs(folder)
        self.assertEqual(copies, {})
        self.assertEqual(os.path.normpath(os.path.join(folder, hrefs["report.js"])),
                         os.path.join(page_module.ASSETS, "report.js"))
        self.assertEqual(hrefs["chart.min.js"], "../assets/chart.min.js")


if __name__ == "__main__":
    main()
