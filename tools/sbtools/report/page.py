"""tools/report --html: results/<machine-id>/index.html, the report as a web page.

The same sections as report.md from the same compute() data: the first screen is the per-family
answer (report.answer); each section's text and tables are its markdown() converted to HTML
(python3-markdown), its charts the same drawing calls recorded for Chart.js (report.webcharts)
and drawn in the browser from data embedded in the page. Tables sort and filter, charts show
values on hover and download as CSV (web_assets/report.js). Opens from disk, nothing is fetched:
a page written anywhere gets its scripts and styles, and Chart.js 3.9.1 from Debian's
libjs-chart.js (sbtools.chartjs), copied into assets/ beside it; a page written into this
checkout's results/ (the committed pages) links the package's own web_assets/ and the one
committed Chart.js, results/assets/chart.min.js, by relative path instead (asset_hrefs).
"""
import html
import json
import os
import shutil
import sys

import markdown

from sbtools.chartjs import copy_chart_js
from sbtools.fmt import family_title, short
from sbtools.gbench import ResultError
from sbtools.paths import RESULTS_DIR, rel
from sbtools.report import answer, fold, reproduction, summary
from sbtools.report.run import SOURCES
from sbtools.report.webcharts import WebCharts

ASSETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "web_assets")
ASSET_FILES = ("charts.js", "report.js", "report.css")
CHART_JS = "chart.min.js"
SHARED_ASSETS = os.path.join(RESULTS_DIR, "assets")  # the committed pages' Chart.js
BESIDE = {name: f"assets/{name}" for name in (CHART_JS, *ASSET_FILES)}  # hrefs, assets copied
MD_EXTENSIONS = ["tables", "fenced_code"]
# Errors a section's renderer may raise on result files it does not understand: the page says so
# in that section instead of failing (the numbers of the others stay readable).
RENDER_ERRORS = (ResultError, KeyError, ValueError, TypeError, IndexError, AttributeError,
                 ZeroDivisionError)


def _e(text):
    return html.escape(str(text), quote=True)


def missing_text(module):
    """What a section without data lacks."""
    source = getattr(module, "SOURCE", None)
    if getattr(module, "MISSING", None):
        return module.MISSING
    if source in SOURCES:
        option = "--" + source.replace("_", "-")
        return (f"Not in these results: no `{SOURCES[source]}` document was given "
                f"(`tools/report {option} FILE`) or stored in the machine folder "
                "(`tools/results save` keeps the newest).")
    return ("Not in these results: the benchmark files hold no results this section is drawn "
            "from (docs/benchmarks.md \"Benchmarks\" names the test that writes them).")


def section_html(anchor, title, body_html, state):
    return (f'<section id="{_e(anchor)}" class="section {state}" aria-labelledby="h-{_e(anchor)}">'
            f'\n<h2 id="h-{_e(anchor)}"><a class="anchor" href="#{_e(anchor)}">{_e(title)}</a>'
            f'</h2>\n{body_html}\n</section>\n')


def md_html(text):
    return markdown.markdown(text, extensions=MD_EXTENSIONS, output_format="html")


def sections_html(run, computed, charts, section_markdown, anchor):
    """[(anchor, title, state)] and the sections' HTML, every section of the report in order:
    its data rendered, or what it lacks, or why it could not be drawn."""
    toc, parts = [], []
    for module, d in computed:
        a = anchor(module.TITLE)
        if not d:
            state, body = "missing", md_html(missing_text(module))
        else:
            try:
                state = "present"
                body = fold.lay_out(md_html(section_markdown(run, module, d, charts)))
            except RENDER_ERRORS as e:
                print(f"tools/report: {module.TITLE}: {type(e).__name__}: {e}", file=sys.stderr)
                state, body = "failed", (f"<p>This section could not be drawn from its data "
                                         f"(<code>{_e(type(e).__name__)}: {_e(e)}</code>): the "
                                         "result file holds something this report does not "
                                         "understand.</p>")
        toc.append((a, module.TITLE, state))
        parts.append(section_html(a, module.TITLE, body, state))
    a = anchor(reproduction.TITLE)
    toc.append((a, reproduction.TITLE, "present"))
    parts.append(section_html(a, reproduction.TITLE, md_html(reproduction.markdown(run)),
                              "present"))
    return toc, parts


def status_html(status):
    """The run's state (tools/report --status), before the first screen; "" without one."""
    return f'<p class="note run-status" role="status"><b>{_e(status)}</b></p>\n' if status else ""


def adapter_facts(data):
    """{adapter bench name: {library, model, format}} for the tables' filters."""
    return {a: {k: fl.get(k, "") for k in ("library", "model", "format")}
            for a, fl in data.adapters.items() if fl.get("library")}


def page_data(run, charts):
    data = run.data
    fams = list(data.facts.families) + ["binary"]
    return {"charts": charts.figures, "adapters": adapter_facts(data),
            "series": [list(data.adapters), fams],
            "familyTitles": {**{short(f): family_title(f) for f in fams},
                             **{f: family_title(f) for f in fams}}}


def asset_hrefs(out_dir):
    """({file name: href} of the page's scripts and styles, {file name: source} of the copies to
    make beside it). In this checkout's results/, one copy in the tree: the package's own files
    and results/assets/chart.min.js by relative path; anywhere else, every asset in assets/."""
    results = os.path.realpath(RESULTS_DIR)
    if os.path.commonpath([os.path.realpath(out_dir), results]) != results:
        return BESIDE, {name: os.path.join(ASSETS, name) for name in ASSET_FILES}
    hrefs = {name: os.path.relpath(os.path.join(ASSETS, name), out_dir) for name in ASSET_FILES}
    hrefs[CHART_JS] = os.path.relpath(os.path.join(SHARED_ASSETS, CHART_JS), out_dir)
    return hrefs, {}


def render(run, computed, section_markdown, anchor, hrefs=BESIDE):
    """index.html's text; hrefs: where its assets are (asset_hrefs)."""
    charts = WebCharts({a: fl.get("format") for a, fl in run.data.adapters.items()})
    first = answer.compute(run, {m.__name__.rsplit(".", 1)[1]: d for m, d in computed})
    toc, parts = sections_html(run, computed, charts, section_markdown, anchor)
    nav = "".join(f'<li class="{s}"><a href="#{_e(a)}">{_e(t)}</a>'
                  + (" <small>(no data)</small>" if s == "missing" else "") + "</li>"
                  for a, t, s in toc)
    data_json = json.dumps(page_data(run, charts), separators=(",", ":")).replace("<", "\\u003c")
    title = f"soapbench results — machine {run.data.machine}"
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{_e(title)}</title>\n"
            f"<link rel=\"stylesheet\" href=\"{_e(hrefs['report.css'])}\">\n"
            "</head>\n<body>\n<header>\n"
            f"<h1>{_e(title)}</h1>\n<p class=\"sub\">Generated by <code>tools/report --html</code> "
            "from the result files named in <a href=\"#run-and-reproduction\">Run and "
            "reproduction</a>; <a href=\"report.md\">report.md</a> holds the same text.</p>\n"
            "</header>\n<main>\n" + status_html(run.status) + answer.html_block(first) +
            '<section id="summary" class="section present"><h2><a class="anchor" '
            'href="#summary">Summary</a></h2>\n' + md_html(" ".join(summary.sentences(run))) +
            f"\n</section>\n<nav aria-label=\"sections\"><h2>Sections</h2><ol>{nav}</ol></nav>\n"
            + "".join(parts) + "</main>\n"
            f'<script id="report-data" type="application/json">{data_json}</script>\n'
            + "".join(f'<script src="{_e(hrefs[name])}"></script>\n'
                      for name in (CHART_JS, "charts.js", "report.js"))
            + "</body>\n</html>\n")


def write_page(run, computed, section_markdown, anchor):
    """Writes index.html into run.out_dir, its assets as asset_hrefs() says; returns its path."""
    hrefs, copies = asset_hrefs(run.out_dir)
    assets = os.path.join(run.out_dir, "assets") if copies else SHARED_ASSETS
    copy_chart_js(assets, ResultError)
    for name, source in copies.items():
        shutil.copyfile(source, os.path.join(assets, name))
    path = os.path.join(run.out_dir, "index.html")
    text = render(run, computed, section_markdown, anchor, hrefs)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    where = f"in {rel(assets)}/" if copies else f"linked: {rel(ASSETS)}/, {rel(assets)}/"
    print(f"page: {rel(path)} ({len(text) // 1024} KiB, assets {where})")
    return path
