"""The web page's first screen: per family the parser to pick for speed (ranking words only where
sbtools.stats allows them), the fastest that also came through the hostile inputs and the
standard suites, what the parser costs of a keep-alive call per link, and the run it came from.

Drawn from the sections' compute() data (decode, conformance, conformance_suites, links) and the
same Ranking the report's opening paragraph uses; nothing is measured or averaged here.
"""
import html

from sbtools.fmt import pct, short
from sbtools.report.data import headline_decode
from sbtools.stats import RANK_ALPHA, claim

TITLE = "Which parser, and how much does it matter?"
ANCHOR = "answer"
BAD_RESULTS = ("crashed", "timeout")  # hostile-input outcomes that disqualify (the policy mode)


def failing(computed):
    """({adapter: why} of the adapters that crashed or hung, the checks that ran): the
    hostile inputs as benchmarked (policy mode) and the standard suites (policy config)."""
    why, checks = {}, []
    hostile = computed.get("conformance")
    if hostile and not hostile.get("error"):
        checks.append("hostile inputs")
        for r in hostile["broken"]:
            if r["mode"] == "policy" and r["result"] in BAD_RESULTS:
                why.setdefault(r["adapter"], f"{r['result']} on a hostile input")
    suites = computed.get("conformance_suites")
    if suites and "doc" in suites:
        checks.append("standard suites")
        for suite in suites["doc"]["suites"]:
            for r in suite["records"]:
                if r["config"] == "policy" and r["crashes"] + r["hangs"]:
                    why.setdefault(r["adapter"].replace("/", "-"),
                                   f"crashed or hung in {suite['suite']}")
    return why, checks


def compute(run, computed):
    """Per family: message, speed claim, leader, fastest passing, parser shares; the run."""
    data = run.data
    heads = headline_decode(data)
    why, checks = failing(computed)
    links = computed.get("links") or {}
    shares = links.get("shares", [None])[0] if not links.get("no_model") else None
    link_names = [n for n, _b, _r in links.get("links", [])]
    rows = []
    for fam, (fl, rk) in heads.items():
        passing = next((a for a, _r in rk.order if a not in why), None) if checks else None
        share = (shares or {}).get("rows", {}).get(fam)
        rows.append({"family": fam, "file": fl, "leader": rk.leader, "clear": rk.clear,
                     "claim": claim(rk, lambda a: a), "n": len(rk.order),
                     "passing": passing,
                     "passing_ratio": rk.result(passing).time / rk.result(rk.leader).time
                     if passing else None,
                     "leader_fails": why.get(rk.leader),
                     "share": share})
    c = data.ctx
    return {"rows": rows, "checks": checks, "links": ["loopback"] + link_names,
            "share_call": shares["call"] if shares else None,
            "machine": data.machine, "cpu": c.get("cpu_model", "?"),
            "cores": c.get("cpu_cores", "?"), "compiler": c.get("compiler", "?"),
            "sha": c.get("git_sha", "?"),
            "date": run.start.strftime("%Y-%m-%d %H:%M UTC") if run.start else "?"}


def _e(text):
    return html.escape(str(text), quote=True)


def _passing_cell(r, checks):
    if not checks:
        return '<td class="na">no conformance results</td>'
    if r["passing"] is None:
        return '<td class="na">none passed</td>'
    if r["passing"] == r["leader"]:
        return f'<td>the same: <code>{_e(r["passing"])}</code></td>'
    return (f'<td><code>{_e(r["passing"])}</code> ({r["passing_ratio"]:.2f}× the time; '
            f'<code>{_e(r["leader"])}</code> {_e(r["leader_fails"])})</td>')


def html_block(d):
    """The first screen's HTML."""
    links = d["links"]
    head = ("<tr><th scope=\"col\">family</th><th scope=\"col\">fastest decode (headline "
            "message)</th><th scope=\"col\">fastest that passed the "
            + (" and ".join(d["checks"]) or "conformance checks") + "</th>" +
            "".join(f'<th scope="col" class="num">{_e(n)}</th>' for n in links) + "</tr>")
    body = []
    for r in d["rows"]:
        word = "clear" if r["clear"] else "unranked"
        share = r["share"] or {}
        cells = "".join(f'<td class="num">{_e(pct(share.get(n)) if share else "–")}</td>'
                        for n in links)
        body.append(f'<tr data-family="{_e(r["family"])}"><th scope="row">{_e(short(r["family"]))}'
                    f'</th><td class="{word}"><code>{_e(r["leader"])}</code> '
                    f'<span class="claim">{_e(r["claim"])}; <code>{_e(r["file"])}</code>, '
                    f'{r["n"]} adapters</span></td>{_passing_cell(r, d["checks"])}{cells}</tr>')
    share_note = (f"Parser share: server + client decode as a share of a keep-alive "
                  f"<code>{_e(d['share_call'])}</code> call, measured on loopback, projected onto "
                  "the link models (each family's default parser; "
                  '<a href="#parser-share-of-a-call-per-link-model">link model</a>).'
                  if d["share_call"] else "No link model in these result files: no parser share.")
    return (f'<section id="{ANCHOR}" class="answer" aria-labelledby="answer-title">\n'
            f'<h2 id="answer-title">{_e(TITLE)}</h2>\n'
            f'<p class="run">Machine <code>{_e(d["machine"])}</code>: {_e(d["cpu"])}, '
            f'{_e(d["cores"])} cores, {_e(d["compiler"])}; run of {_e(d["date"])} at commit '
            f'<code>{_e(d["sha"])}</code>.</p>\n'
            f'<table class="answer-table"><thead>{head}</thead><tbody>{"".join(body)}</tbody>'
            '</table>\n'
            f'<p class="note">A ranking word ("fastest") only where a two-sided Mann-Whitney U '
            f'test gives p ≤ {RANK_ALPHA:g} and the intervals of the medians are apart '
            '(<a href="#statistics">statistics</a>); otherwise the lowest median is named, '
            'unranked. Passed: no crash or timeout under the suite\'s policy. ' + share_note +
            ' Details: <a href="#decode-throughput-per-adapter-and-family">decode</a>, '
            '<a href="#conformance-hostile-inputs">hostile inputs</a>.</p>\n</section>\n')
