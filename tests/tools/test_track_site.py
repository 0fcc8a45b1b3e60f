#!/usr/bin/python3
"""Tests of sbtools.track.site (ctest label unit): the dashboard built from a store with real
history (the committed instruction counts with a planted step, this machine's A/A timings with
a planted slowdown) opened in headless Chromium (Debian chromium + chromium-driver, selenium):
the charts render, every series and its change points are in the DOM, the index lists the open
regressions and the gate's verdict; the dashboard of the committed results, made by docs/ci.md's
commands, opens; a screenshot goes to the test's output folder ($SB_TEST_OUT, default
build/test-output/track_site/)."""
import os
import shutil
import tempfile
import time
import unittest

import track_testlib as lib
from sbtools.track import cli, gate, history, importers, site, store, summary

OUT = os.environ.get("SB_TEST_OUT") or os.path.join(lib.REPO, "build", "test-output",
                                                    "track_site")
STEP_RUN = 8        # the icount run where pugixml's parse gets 3% more instructions
SLOW_RUN = 14       # the A/A run from which three benchmarks take twice the time
AA_RUNS = 20


def is_pugixml_parse(name):
    return name.startswith("parse/pugixml-dom/")


class SiteTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="sb-track-site-")
        cls.db = store.open_store(os.path.join(cls.tmp, "t.sqlite"))
        for i in range(12):
            path = lib.icount_variant(
                lib.ICOUNT, os.path.join(cls.tmp, f"ic{i}.json"), f"c0mm1t{i:06d}",
                f"2026-12-04T{i:02d}:00:00+00:00",
                lambda n, i=i: 1.03 if i >= STEP_RUN and is_pugixml_parse(n) else 1.0)
            run = importers.read(path)
            cls.db.add_run(run, {"build": run.build, "git": {}})
        doc = lib.load(lib.AA)
        cls.slowed = [b for b, reps in zip(doc["benchmarks"], doc["runs"][0]["real_time"])
                      if len(reps) == 5][:3]
        for i in range(AA_RUNS):
            path = lib.aa_file(i, os.path.join(cls.tmp, f"aa{i}.json"),
                               lambda n, i=i: 2.0 if i >= SLOW_RUN and n in cls.slowed else 1.0,
                               commit=f"{i:03d}a0000000")
            run = importers.read(path)
            cls.db.add_run(run, {"build": run.build, "git": {}})
        head = importers.read(lib.icount_variant(
            lib.ICOUNT, os.path.join(cls.tmp, "head.json"), "headc0mm1t0",
            "2026-12-05T00:00:00+00:00", lambda n: 1.06 if is_pugixml_parse(n) else 1.0))
        result = gate.run_gate(cls.db, [head], {"build": head.build})
        cls.db.add_verdict(result.machine, result.head_commit, result.base_commit,
                           result.verdict, "### soapbench gate: " + result.verdict, {})
        # A run on a new instruction-set level over other commits: every count moved with it,
        # which the gate does not judge (issue 39 item 15): the dashboard says so.
        v4 = importers.read(lib.icount_variant(
            lib.ICOUNT, os.path.join(cls.tmp, "v4.json"), "v4c0mm1t000", "2026-12-05T01:00:00+00:00",
            lambda n: 1.05, {"isa_level": "x86-64-v4"}, "0123456789ab"))
        result = gate.run_gate(cls.db, [v4], {"build": v4.build})
        cls.db.add_verdict(result.machine, result.head_commit, result.base_commit,
                           result.verdict, summary.markdown(result), summary.stored(result))
        cls.page_size = site.PAGE_SIZE
        site.PAGE_SIZE = 40  # the A/A suite's 190 timing series on five pages
        cls.series = history.detect(cls.db, history.load(cls.db), jobs=1)
        cls.site = os.path.join(cls.tmp, "site")
        site.build(cls.db, cls.series, cls.site, cli.change_groups(cls.db, cls.series))
        cls.driver, cls.profile = lib.chromium()

    @classmethod
    def tearDownClass(cls):
        site.PAGE_SIZE = cls.page_size
        cls.driver.quit()  # stops the chromium and chromedriver it started
        cls.db.close()
        shutil.rmtree(cls.profile, ignore_errors=True)
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def open(self, page):
        self.driver.get("file://" + os.path.join(self.site, page))

    def wait_for(self, script, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = self.driver.execute_script(script)
            if got:
                return got
            time.sleep(0.2)
        self.fail(f"timed out waiting for: {script}")

    def test_the_index_lists_machines_regressions_and_verdicts(self):
        self.open("index.html")
        text = self.driver.find_element("tag name", "body").text
        machine = importers.read(lib.ICOUNT).machine
        self.assertIn(machine, text)
        links = [a.get_attribute("href") for a in self.driver.find_elements("css selector", "a")]
        self.assertTrue(any(h.endswith(site.page_name(machine, "icount")) for h in links))
        rows = self.driver.find_elements("xpath", "//h2[starts-with(., 'Open regressions')]"
                                                  "/following-sibling::table[1]//tr")
        opened = {r.text.split()[0] for r in rows[1:]}
        self.assertTrue({b for b in opened if is_pugixml_parse(b)})
        self.assertTrue(set(self.slowed) <= opened, (self.slowed, opened))
        self.assertIn("FAIL", self.driver.find_element(
            "xpath", "//h2[.=\"The gate's last verdicts\"]/following-sibling::table[1]").text)

    def test_series_and_change_points_render(self):
        icount_machine = importers.read(lib.ICOUNT).machine
        self.open(site.page_name(icount_machine, "icount"))
        cards = self.driver.find_elements("css selector", ".series")
        drawn = [x for x in self.series if x.suite == "icount" and not site.flat(x)]
        self.assertEqual(len(cards), len(drawn))
        # The first cards (open regressions first) are in view: their charts must render.
        self.wait_for("return document.querySelectorAll('canvas[data-rendered]').length >= 3")
        first = cards[0]
        self.assertTrue(is_pugixml_parse(first.get_attribute("data-name")))
        info = self.driver.execute_script(
            "const c = document.querySelector('.series canvas');"
            "const ch = Chart.getChart(c);"
            "return {points: ch.data.datasets[2].data.length,"
            "        marks: ch.data.datasets[3].data.map((v, i) => v === null ? -1 : i)"
            "                 .filter((i) => i >= 0),"
            "        width: c.width, height: c.height};")
        self.assertEqual(info["points"], 12)
        self.assertEqual(info["marks"], [STEP_RUN])
        self.assertGreater(info["width"], 100)
        items = first.find_elements("css selector", ".changepoints li")
        self.assertEqual([i.get_attribute("data-index") for i in items], [str(STEP_RUN)])
        self.assertIn("+3.00%", items[0].text)
        self.driver.save_screenshot(self.screenshot("icount.png"))

    def test_timing_series_show_e_divisive_change_points(self):
        aa_machine = lib.load(lib.AA)["context"]["machine_id"]
        self.open(site.page_name(aa_machine, "parse_bench"))
        self.wait_for("return document.querySelectorAll('canvas[data-rendered]').length >= 2")
        names = self.driver.execute_script(
            "return [...document.querySelectorAll('.series')].map((c) => c.dataset.name);")
        self.assertEqual(names[0], history.RUN_FACTOR)
        for b in self.slowed:
            card = self.driver.find_element(
                "css selector", f".series[data-name='{b}'][data-metric='real_time']")
            self.driver.execute_script("arguments[0].scrollIntoView()", card)
            deadline = time.monotonic() + 30
            while not card.find_element("css selector", "canvas").get_attribute("data-rendered"):
                self.assertLess(time.monotonic(), deadline, f"{b} did not render")
                time.sleep(0.2)
            marks = [int(li.get_attribute("data-index")) for li in
                     card.find_elements("css selector", ".changepoints li.reg")]
            self.assertTrue(any(abs(m - SLOW_RUN) <= 1 for m in marks), (b, marks))
        self.driver.save_screenshot(self.screenshot("timings.png"))
        # The filter box hides the rest.
        box = self.driver.find_element("id", "filter")
        box.send_keys("^" + self.slowed[0].replace(".", "\\.") + "$")
        shown = self.driver.execute_script(
            "return [...document.querySelectorAll('.series')].filter((c) => "
            "c.style.display !== 'none').length")
        self.assertEqual(shown, 2)  # its real_time and cpu_time series

    def test_the_gates_blind_spot_is_on_the_index(self):
        self.open("index.html")
        table = self.driver.find_element(
            "xpath", "//h2[.=\"The gate's last verdicts\"]/following-sibling::table[1]")
        blind = [p.text for p in table.find_elements("css selector", ".blind")]
        self.assertEqual(len(blind), 1, blind)
        self.assertIn("612 benchmarks moved with isa_level x86-64-v3 → x86-64-v4 and are not "
                      "judged", blind[0])
        self.assertIn("WARN (blind spot)", table.text)

    def test_a_suite_is_paged_and_the_filter_searches_every_page(self):
        # Issue 44 item 14: one page held every card (7.3 MB, 9,798 cards). Here 40 a page.
        aa_machine = importers.read(lib.aa_file(0, os.path.join(self.tmp, "probe.json"))).machine
        drawn = [x for x in self.series if x.machine == aa_machine and
                 x.suite == "parse_bench" and not site.flat(x)]
        pages = (len(drawn) + 39) // 40
        self.assertGreater(pages, 2)
        self.open(site.page_name(aa_machine, "parse_bench"))
        self.assertEqual(len(self.driver.find_elements("css selector", ".series")), 40)
        pager = self.driver.find_element("css selector", ".pager")
        self.assertIn(f"page 1 of {pages}", pager.text)
        self.assertEqual(len(pager.find_elements("tag name", "a")), pages - 1)
        # A series on the last page, found from the first: listed with a link that opens it.
        last = sorted(drawn, key=site._order)[-1]
        box = self.driver.find_element("id", "filter")
        box.send_keys("^" + last.benchmark.replace(".", "\\.") + "$")
        n = len(drawn) - 1
        link = self.wait_for(f"return document.querySelector('#elsewhere a[href$=\"#s{n}\"]')")
        self.assertIn(f"on page {pages}", self.driver.find_element("id", "elsewhere").text)
        link.click()
        target = site.page_name(aa_machine, "parse_bench", pages)
        self.wait_for(f"return location.pathname.endsWith('{target}') && "
                      f"document.getElementById('s{n}') !== null")
        card = self.driver.find_element("id", f"s{n}")
        self.assertEqual((card.get_attribute("data-name"), card.get_attribute("data-metric")),
                         (last.benchmark, last.metric))
        self.wait_for(f"return document.querySelector('#s{n} canvas[data-rendered]')")

    def test_the_dashboard_of_the_committed_results_opens_and_shows_the_series(self):
        # Made on demand by docs/ci.md's two commands (not committed: its pages would be
        # generated twins of each other and of site_assets/).
        db, example = os.path.join(self.tmp, "example.sqlite"), os.path.join(self.tmp, "example")
        lib.track("import", lib.RESULTS, db=db, check=0)
        lib.track("site", example, db=db, check=0)
        self.driver.get("file://" + os.path.join(example, "index.html"))
        text = self.driver.find_element("tag name", "body").text
        for machine_id in ("bab0702471ef", "5efeddd69169"):  # results/ folders, beside machines
            self.assertIn(machine_id, text)
        machine = importers.read(os.path.join(lib.RESULTS, "bab0702471ef",
                                              "20261202-174809_6790742da1f5.parse_bench.json"))
        page = os.path.join(example, site.page_name(machine.machine, "parse_bench"))
        self.driver.get("file://" + page)
        self.wait_for("return document.querySelectorAll('canvas[data-rendered]').length >= 3")
        self.assertEqual(len(self.driver.find_elements("css selector", ".series")),
                         self.page_size)  # paged: thousands of series, one page at a time
        self.assertIn("page 1 of", self.driver.find_element("css selector", ".pager").text)
        self.assertLess(os.path.getsize(page), 600_000)
        self.driver.save_screenshot(self.screenshot("example.png"))

    def screenshot(self, name):
        os.makedirs(OUT, exist_ok=True)
        return os.path.join(OUT, name)


if __name__ == "__main__":
    unittest.main(verbosity=2)
