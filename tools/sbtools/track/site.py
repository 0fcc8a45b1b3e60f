"""The static dashboard (tools/track site OUT): opens from disk, no server, no internet.

  index.html                  machines (fingerprint, runs, the results/ ids and compilers),
                              open regressions, the gate's last verdicts (its blind spots said),
                              the newest change points
  <machine>.<suite>.html      the series of one machine and suite over its runs, PAGE_SIZE to a
  <machine>.<suite>.pN.html   page (open regressions and change points first): the values, the
                              noise band of each stretch between change points, the change
                              points marked and listed; a filter box that searches every page
  <machine>.<suite>.constant.html  the series that never changed, listed
  <machine>.<suite>.names.js  every series' name and page, loaded when the filter is used
  chart.min.js                Chart.js 3.9.1 copied from Debian's libjs-chart.js
  dashboard.js, dashboard.css the pages' own script and style (site_assets/)

Charts are drawn in the browser from data embedded in each page, when they scroll into view.
"""
import html
import json
import os
import re
import shutil

from ..chartjs import copy_chart_js
from . import TrackError, attribution, history, site_wholecall, stats
from .history import RUN_FACTOR
from .metrics import metric

ASSETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "site_assets")
MAX_CHANGE_GROUPS = 30   # newest change-point groups on the index page
PAGE_SIZE = 250          # series drawn per page: a suite of 10,000 made a 7 MB page


def _e(text):
    return html.escape(str(text), quote=True)


def page_name(machine, suite, page=1):
    """The file of one page of a machine and suite's series (1: the first)."""
    base = re.sub(r"[^A-Za-z0-9_.-]", "_", f"{machine}.{suite}")
    return f"{base}.html" if page == 1 else f"{base}.p{page}.html"


def constant_file(machine, suite):
    return re.sub(r"[^A-Za-z0-9_.-]", "_", f"{machine}.{suite}") + ".constant.html"


def names_file(machine, suite):
    return re.sub(r"[^A-Za-z0-9_.-]", "_", f"{machine}.{suite}") + ".names.js"


def page_of(position):
    """The page a drawn series is on, by its position in the suite's order."""
    return position // PAGE_SIZE + 1


def _page(title, body, data=None):
    script = ""
    if data is not None:
        # </script> cannot occur in JSON text once '<' is escaped.
        script = ('<script id="data" type="application/json">' +
                  json.dumps(data, separators=(",", ":")).replace("<", "\\u003c") + "</script>\n"
                  '<script src="chart.min.js"></script>\n<script src="dashboard.js"></script>\n')
    return (f"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{_e(title)}</title>\n<link rel=\"stylesheet\" href=\"dashboard.css\">\n"
            f"</head>\n<body>\n{body}\n{script}</body>\n</html>\n")


def _round(v):
    return float(f"{v:.6g}")


def series_data(x, run_index, n_runs):
    """One series as the page's script draws it (run positions left out when it has them all)."""
    shown = x.analysed or x.values
    bands = []
    for start, end in x.segments():
        lo, hi = stats.band(shown[start:end])
        bands.append([start, end, _round(lo), _round(hi)])
    unit = "x a typical run" if x.benchmark == RUN_FACTOR else metric(x.metric).unit
    out = {"b": x.benchmark, "m": x.metric, "u": unit,
           "f": round(x.floor, 5), "v": [_round(v) for v in shown], "bands": bands,
           "o": x.open_regression,
           "cps": [{"i": c.index, "s": round(c.shift, 5), "lo": round(c.low, 5),
                    "hi": round(c.high, 5), "p": c.p, "q": c.q and float(f"{c.q:.2g}"),
                    "reg": c.regression} for c in x.changes]}
    if x.weak:
        out["weak"] = len(x.weak)
    positions = [run_index[r.id] for r in x.runs]
    if positions != list(range(n_runs)):
        out["r"] = positions
    if x.analysed is not None and x.analysed != x.values:
        out["raw"] = [_round(v) for v in x.values]
    return out


def _order(x):
    """Run factor first, open regressions (largest first), other series with change points,
    then the rest."""
    last = abs(x.changes[-1].shift) if x.changes else 0.0
    return (x.benchmark != RUN_FACTOR, not x.open_regression, not x.changes, -last, x.metric,
            x.benchmark)


def flat(x):
    """A series that never changed value: listed, not drawn."""
    return not x.changes and len(set(x.values)) == 1


def suite_pages(machine, suite, series, intro=""):
    """[(file name, html)] of one machine and suite: PAGE_SIZE cards a page (the script draws a
    card per series, id s<n>, n its position in the suite's order), a page listing the series
    that never changed, and the names script the filter searches every page with; intro (HTML)
    goes on the first page, before the cards."""
    runs = sorted({r.id: r for x in series for r in x.runs}.values(), key=lambda r: (r.date, r.id))
    index = {r.id: i for i, r in enumerate(runs)}
    series = sorted(series, key=_order)
    drawn = [x for x in series if not flat(x)]
    constant = [x for x in series if flat(x)]
    pages = max(1, page_of(len(drawn) - 1)) if drawn else 1
    n_cp = sum(len(x.changes) for x in series)
    n_weak = sum(len(x.weak) for x in series)
    ratio = ('Timings are drawn as ratios within their run: each value divided by its run\'s '
             'common factor (the "(run factor)" series, 1 for a typical run); the grey line is '
             'the value as measured. ' if any(x.benchmark == RUN_FACTOR for x in series) else "")
    weak = (f" ({n_weak} more below the suite's multiplicity, not drawn: noise at this many "
            "series)" if n_weak else "")
    out = []
    for page in range(1, pages + 1):
        first = (page - 1) * PAGE_SIZE
        mine = drawn[first:first + PAGE_SIZE]
        data = {"machine": machine, "suite": suite, "page": page, "pages": pages,
                "first": first, "total": len(drawn),
                "names": names_file(machine, suite) if pages > 1 else None,
                "runs": [{"c": r.commit[:12], "d": r.date, "k": r.build_key or ""} for r in runs],
                "series": [series_data(x, index, len(runs)) for x in mine]}
        body = (f'<p><a href="index.html">all machines</a></p>\n'
                f'<h1>{_e(machine)} · {_e(suite)}</h1>\n'
                f'<p>{len(series)} series over {len(runs)} runs, {n_cp} change points{weak}. '
                f'{ratio}The band is each stretch\'s noise band between change points (Tukey '
                'fences); triangles mark change points (red: worse, green: better).</p>\n' +
                (intro if page == 1 else "") + _pager(machine, suite, page, pages, len(drawn)) +
                '<p><input id="filter" type="search" placeholder="filter series (regular '
                'expression)" size="60"> <span id="shown"></span></p>\n<ul id="elsewhere"></ul>\n'
                '<div id="series"></div>\n' + _pager(machine, suite, page, pages, len(drawn)) +
                (f'<p><a href="{_e(constant_file(machine, suite))}">{len(constant):,} series that '
                 'never changed</a> (listed, not drawn)</p>' if constant else ""))
        title = f"{machine} {suite}" + (f" (page {page} of {pages})" if pages > 1 else "")
        out.append((page_name(machine, suite, page), _page(f"{title} — soapbench history", body,
                                                           data)))
    if constant:
        items = "".join(f"<li>{_e(x.benchmark)} ({_e(x.metric)}): {_e(x.values[0])} in all "
                        f"{len(x.values)} runs</li>\n" for x in constant)
        out.append((constant_file(machine, suite), _page(
            f"{machine} {suite}: series that never changed — soapbench history",
            f'<p><a href="{_e(page_name(machine, suite))}">{_e(machine)} · {_e(suite)}</a></p>\n'
            f"<h1>{len(constant):,} series that never changed</h1>\n<ul>\n{items}</ul>")))
    if pages > 1:
        names = [[x.benchmark, x.metric, page_of(n), n] for n, x in enumerate(drawn)]
        out.append((names_file(machine, suite), "window.SB_NAMES = " +
                    json.dumps(names, separators=(",", ":")).replace("<", "\\u003c") + ";\n"))
    return out


def _pager(machine, suite, page, pages, total):
    """Links to every page of a suite ('series 251-500 of 9,798')."""
    if pages == 1:
        return ""
    links = []
    for p in range(1, pages + 1):
        label = f"{(p - 1) * PAGE_SIZE + 1}–{min(p * PAGE_SIZE, total)}"
        links.append(f"<b>{label}</b>" if p == page else
                     f'<a href="{_e(page_name(machine, suite, p))}">{label}</a>')
    return (f'<p class="pager">page {page} of {pages} ({total:,} series drawn, {PAGE_SIZE} a '
            f'page): ' + " · ".join(links) + "</p>\n")


def _machine_rows(store, series):
    rows = []
    for m in store.machines():
        runs = store.runs(m)
        # The newest run that says what ran it (the matrices' files say little).
        ctx, env = {}, {}
        for r in reversed(runs):
            ctx, env = store.run_details(r.id)
            if env.get("machine") or (ctx.get("cpu_model") and ctx.get("cpu_cores")):
                break
        fp = env.get("machine") or {}
        what = ", ".join(str(v) for v in (fp.get("cpu_model") or ctx.get("cpu_model"),
                                          f"{fp.get('cores') or ctx.get('cpu_cores') or '?'} cores",
                                          fp.get("kernel"), fp.get("microcode") and
                                          f"microcode {fp['microcode']}") if v)
        suites = sorted({r.suite for r in runs})
        links = " ".join(f'<a href="{_e(page_name(m, s))}">{_e(s)}</a>' for s in suites
                         if any(x.machine == m and x.suite == s for x in series))
        ids = ", ".join(f"{mid} ({compiler})" if compiler else mid
                        for mid, compiler in store.machine_ids(m).items())
        rows.append(f"<tr><td><code>{_e(m)}</code></td><td>{_e(what)}</td><td>{_e(ids)}</td>"
                    f"<td>{len(runs)}</td><td>{_e(runs[0].date[:10])} … "
                    f"{_e(runs[-1].date[:10])}</td><td>{links}</td></tr>")
    return rows


def _verdict_rows(store):
    """The gate's last verdicts, each with its blind spots said beside it (moves it did not
    judge because the environment changed with the commits)."""
    rows = []
    for c, m, h, b, v, s, d in store.verdicts(10):
        spots = d.get("blind_spots") or []
        blind = ("".join(f'<p class="blind">blind spot: {_e(t)}</p>' for t in spots)
                 if spots else "-")
        rows.append(f'<tr><td>{_e(c)}</td><td>{_e(m)}</td><td><code>{_e(h)}</code></td>'
                    f'<td><code>{_e(b or "")}</code></td><td class="v-{_e(v)}">{_e(v)}'
                    f'{" (blind spot)" if spots else ""}</td><td>{blind}</td>'
                    f'<td><details><summary>summary</summary><pre>{_e(s)}</pre></details></td>'
                    '</tr>')
    return rows


def index_page(store, series, groups):
    pos = {}
    for x in series:
        pos.setdefault((x.machine, x.suite), []).append(x)
    anchors = {id(x): f"{page_name(x.machine, x.suite, page_of(n))}#s{n}" for xs in pos.values()
               for n, x in enumerate(x for x in sorted(xs, key=_order) if not flat(x))}
    opened = sorted((x for x in series if x.open_regression),
                    key=lambda x: -abs(x.changes[-1].shift))
    reg_rows = [f'<tr><td><a href="{_e(anchors[id(x)])}">{_e(x.benchmark)}</a></td>'
                f'<td>{_e(x.machine)}</td><td>{_e(x.suite)}</td><td>{_e(x.metric)}</td>'
                f'<td>{x.changes[-1].shift * 100:+.2f}%</td>'
                f'<td>{_e(x.runs[x.changes[-1].index - 1].commit)}..'
                f'{_e(x.runs[x.changes[-1].index].commit)}</td></tr>' for x in opened[:200]]
    verdicts = _verdict_rows(store)
    weak = sum(len(x.weak) for x in series)
    change_rows = []
    for after, before, items, changed in groups[:MAX_CHANGE_GROUPS]:
        worse = sum(1 for _x, c in items if c.regression)
        change_rows.append(
            f'<tr><td>{_e(after.date)}</td><td>{_e(after.machine)}</td><td>{_e(after.suite)}</td>'
            f'<td><code>{_e(before.commit)}..{_e(after.commit)}</code></td><td>{len(items)} '
            f'({worse} worse)</td><td>{_e(attribution.describe(changed) or "-")}</td></tr>')

    def table(head, rows, empty):
        if not rows:
            return f"<p>{empty}</p>"
        return f"<table><tr>{''.join(f'<th>{h}</th>' for h in head)}</tr>{''.join(rows)}</table>"
    body = ("<h1>soapbench history</h1>\n"
            f"<p>{len(series)} series, {sum(len(x.changes) for x in series)} change points "
            "(E-divisive means with a permutation test for timings, each judged again against "
            f"its suite's multiplicity: Benjamini-Hochberg at {history.SUITE_FDR:g} over the "
            "suite's series" + (f", which {weak} did not survive" if weak else "") +
            "; exact counts change where they move beyond max(0.5%, the series' noise "
            "floor)). A machine is its hardware (CPU model, cores, caches); its results/ "
            "folders, one per compiler, are listed beside it.</p>\n"
            "<h2>Machines</h2>\n" +
            table(["machine", "fingerprint", "results/ ids (compiler)", "runs", "dates",
                   "series"], _machine_rows(store, series), "no runs recorded") +
            f"\n<h2>Open regressions ({len(opened)})</h2>\n" +
            table(["series", "machine", "suite", "metric", "move", "commits"], reg_rows,
                  "none: no series' newest change point is a regression") +
            "\n<h2>The gate's last verdicts</h2>\n" +
            table(["when", "machine", "head", "base", "verdict", "not judged", ""], verdicts,
                  "the gate has not run against this store") +
            "\n<h2>Newest change points</h2>\n" +
            table(["run", "machine", "suite", "commits", "series", "changed"], change_rows,
                  "none found"))
    return _page("soapbench history", body)


def _ours(path):
    """Whether a file in the output folder is a page or names script an earlier build wrote."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            head = f.read(2000)
    except OSError:
        return False
    return "— soapbench history</title>" in head or head.startswith("window.SB_NAMES = ")


def build(store, series, out, groups):
    """Writes the site into out (the pages of an earlier build that this one does not write
    are removed); returns the number of pages."""
    copy_chart_js(out, TrackError)
    for name in os.listdir(out):
        if re.search(r"\.(p\d+\.html|html|names\.js)$", name) and name != "index.html" and \
                _ours(os.path.join(out, name)):
            os.remove(os.path.join(out, name))
    for name in ("dashboard.js", "dashboard.css"):
        shutil.copyfile(os.path.join(ASSETS, name), os.path.join(out, name))
    pages = 1
    by_page = {}
    for x in series:
        by_page.setdefault((x.machine, x.suite), []).append(x)
    for (machine, suite), xs in sorted(by_page.items()):
        intro = site_wholecall.table(series, machine) if suite == "callcount" else ""
        for name, text in suite_pages(machine, suite, xs, intro):
            with open(os.path.join(out, name), "w", encoding="utf-8") as f:
                f.write(text)
            pages += name.endswith(".html")
    with open(os.path.join(out, "index.html"), "w", encoding="utf-8") as f:
        f.write(index_page(store, series, groups))
    return pages
