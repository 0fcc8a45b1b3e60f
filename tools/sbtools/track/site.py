"""The static dashboard (tools/track site OUT): opens from disk, no server, no internet.

  index.html                  machines (fingerprint, runs), open regressions, the gate's last
                              verdicts, the newest change points
  <machine>.<suite>.html      every series of one machine and suite over its runs: the values,
                              the noise band of each stretch between change points, the change
                              points marked and listed; a filter box
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
from . import TrackError, attribution, stats
from .history import RUN_FACTOR
from .metrics import metric

ASSETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "site_assets")
MAX_CHANGE_GROUPS = 30   # newest change-point groups on the index page


def _e(text):
    return html.escape(str(text), quote=True)


def page_name(machine, suite):
    return re.sub(r"[^A-Za-z0-9_.-]", "_", f"{machine}.{suite}") + ".html"


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
                    "hi": round(c.high, 5), "p": c.p, "reg": c.regression} for c in x.changes]}
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


def suite_page(machine, suite, series):
    """One machine and suite: the script draws a card per series (id s<n>, n its position in
    the data) with its chart and change points, and lists the series that never changed."""
    runs = sorted({r.id: r for x in series for r in x.runs}.values(), key=lambda r: (r.date, r.id))
    index = {r.id: i for i, r in enumerate(runs)}
    series = sorted(series, key=_order)
    drawn = [x for x in series if not flat(x)]
    constant = [x for x in series if flat(x)]
    data = {"machine": machine, "suite": suite,
            "runs": [{"c": r.commit[:12], "d": r.date, "k": r.build_key or ""} for r in runs],
            "series": [series_data(x, index, len(runs)) for x in drawn],
            "constant": [[x.benchmark, x.metric, x.values[0], len(x.values)] for x in constant]}
    n_cp = sum(len(x.changes) for x in series)
    ratio = ('Timings are drawn as ratios within their run: each value divided by its run\'s '
             'common factor (the "(run factor)" series, 1 for a typical run); the grey line is '
             'the value as measured. ' if any(x.benchmark == RUN_FACTOR for x in series) else "")
    body = (f'<p><a href="index.html">all machines</a></p>\n<h1>{_e(machine)} · {_e(suite)}</h1>\n'
            f'<p>{len(series)} series over {len(runs)} runs, {n_cp} change points. {ratio}The '
            'band is each stretch\'s noise band between change points (Tukey fences); triangles '
            'mark change points (red: worse, green: better).</p>\n'
            '<p><input id="filter" type="search" placeholder="filter series (regular expression)" '
            'size="60"> <span id="shown"></span></p>\n<div id="series"></div>\n'
            '<details id="constant"><summary></summary><ul></ul></details>')
    return _page(f"{machine} {suite} — soapbench history", body, data)


def _machine_rows(store, series):
    rows = []
    for m in store.machines():
        runs = store.runs(m)
        # The newest run that says what ran it (the matrices' files say little).
        ctx, env = {}, {}
        for r in reversed(runs):
            ctx, env = store.run_details(r.id)
            if env.get("machine") or ctx.get("cpu_model"):
                break
        fp = env.get("machine") or {}
        what = ", ".join(str(v) for v in (fp.get("cpu_model") or ctx.get("cpu_model"),
                                          f"{fp.get('cores') or ctx.get('cpu_cores') or '?'} cores",
                                          fp.get("kernel"), fp.get("microcode") and
                                          f"microcode {fp['microcode']}") if v)
        suites = sorted({r.suite for r in runs})
        links = " ".join(f'<a href="{_e(page_name(m, s))}">{_e(s)}</a>' for s in suites
                         if any(x.machine == m and x.suite == s for x in series))
        rows.append(f"<tr><td><code>{_e(m)}</code></td><td>{_e(what)}</td><td>{len(runs)}</td>"
                    f"<td>{_e(runs[0].date[:10])} … {_e(runs[-1].date[:10])}</td><td>{links}</td></tr>")
    return rows


def index_page(store, series, groups):
    pos = {}
    for x in series:
        pos.setdefault((x.machine, x.suite), []).append(x)
    anchors = {id(x): f"{page_name(x.machine, x.suite)}#s{n}" for key, xs in pos.items()
               for n, x in enumerate(x for x in sorted(xs, key=_order) if not flat(x))}
    opened = sorted((x for x in series if x.open_regression),
                    key=lambda x: -abs(x.changes[-1].shift))
    reg_rows = [f'<tr><td><a href="{_e(anchors[id(x)])}">{_e(x.benchmark)}</a></td>'
                f'<td>{_e(x.machine)}</td><td>{_e(x.suite)}</td><td>{_e(x.metric)}</td>'
                f'<td>{x.changes[-1].shift * 100:+.2f}%</td>'
                f'<td>{_e(x.runs[x.changes[-1].index - 1].commit)}..'
                f'{_e(x.runs[x.changes[-1].index].commit)}</td></tr>' for x in opened[:200]]
    verdicts = [f'<tr><td>{_e(c)}</td><td>{_e(m)}</td><td><code>{_e(h)}</code></td>'
                f'<td><code>{_e(b or "")}</code></td><td class="v-{_e(v)}">{_e(v)}</td>'
                f'<td><details><summary>summary</summary><pre>{_e(s)}</pre></details></td></tr>'
                for c, m, h, b, v, s, _d in store.verdicts(10)]
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
            "(E-divisive means with a permutation test for timings; exact counts change where "
            "they move beyond max(0.5%, the series' noise floor)).</p>\n"
            "<h2>Machines</h2>\n" +
            table(["machine", "fingerprint", "runs", "dates", "series"], _machine_rows(store, series),
                  "no runs recorded") +
            f"\n<h2>Open regressions ({len(opened)})</h2>\n" +
            table(["series", "machine", "suite", "metric", "move", "commits"], reg_rows,
                  "none: no series' newest change point is a regression") +
            "\n<h2>The gate's last verdicts</h2>\n" +
            table(["when", "machine", "head", "base", "verdict", ""], verdicts,
                  "the gate has not run against this store") +
            "\n<h2>Newest change points</h2>\n" +
            table(["run", "machine", "suite", "commits", "series", "changed"], change_rows,
                  "none found"))
    return _page("soapbench history", body)


def build(store, series, out, groups):
    """Writes the site into out; returns the number of pages."""
    copy_chart_js(out, TrackError)
    for name in ("dashboard.js", "dashboard.css"):
        shutil.copyfile(os.path.join(ASSETS, name), os.path.join(out, name))
    pages = 1
    by_page = {}
    for x in series:
        by_page.setdefault((x.machine, x.suite), []).append(x)
    for (machine, suite), xs in sorted(by_page.items()):
        with open(os.path.join(out, page_name(machine, suite)), "w", encoding="utf-8") as f:
            f.write(suite_page(machine, suite, xs))
        pages += 1
    with open(os.path.join(out, "index.html"), "w", encoding="utf-8") as f:
        f.write(index_page(store, series, groups))
    return pages
