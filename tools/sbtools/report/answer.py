"""The web page's first screen: per family the parser to pick, the fastest with right answers
(report.right_answers' rule, ranking words only where sbtools.stats allows them), the faster
adapters that answered wrong and what they got wrong, what the parser costs of a keep-alive call
per link, and the run it came from.

Drawn from the sections' compute() data (right_answers, links) and the same Ranking the report's
opening paragraph uses, over the adapters with right answers only: an adapter with a wrong
answer never wins a row. Nothing is measured or averaged here.
"""
import html
import re

from sbtools import linkmodel
from sbtools.fmt import family_title, pct
from sbtools.report import real_world
from sbtools.report.data import headline_decode
from sbtools.report.right_answers import ANCHOR as RIGHT_ANCHOR
from sbtools.stats import RANK_ALPHA, Ranking, claim

TITLE = "Which parser, and how much does it matter?"
ANCHOR = "answer"
SHOWN_WRONG = 2  # faster adapters with wrong answers named per family (the rest counted)
SHOWN_WILD = 4   # real-world messages answered wrong named on the first screen (the rest counted)


def what_went_wrong(state, wrong, unjudged):
    """A few words on why an adapter has no right answers."""
    if state == "right":
        return ""
    parts = [f"{len(items)} wrong in the {c.title}" for c, items in wrong]
    parts += [f"not judged by the {c.title}" for c in unjudged]
    return "; ".join(parts)


def pick_claim(ok):
    """What the statistics allow to say about the pick among the adapters with right answers
    (adapter names between \x00 and \x01, set as code by the HTML), or None without one."""
    if ok is None:
        return None
    if len(ok.order) == 1:
        return f"\x00{ok.leader}\x01, the only one with right answers"
    return claim(ok, lambda a: f"\x00{a}\x01")


def family_row(fam, fl, rk, verdicts):
    """One family: the fastest with right answers (ranked among them) and the faster ones that
    are not."""
    states = {a: verdicts.of(a, fam) for a, _r in rk.order} if verdicts else {}
    right = [a for a, _r in rk.order if states.get(a, ("not checked",))[0] == "right"]
    ok = Ranking({a: rk.result(a) for a in right}, rk.decided) if right else None
    order = [a for a, _r in rk.order]
    ahead = order[:order.index(ok.leader)] if ok else order
    base = rk.result(ok.leader).time if ok else None
    faster = [{"adapter": a, "ratio": rk.result(a).time / base if base else None,
               "why": what_went_wrong(*states.get(a, ("not checked", [], [])))}
              for a in ahead]
    return {"family": fam, "title": family_title(fam), "file": fl, "n": len(rk.order),
            "n_right": len(right), "pick": ok.leader if ok else None,
            "clear": bool(ok and ok.clear),
            "claim": pick_claim(ok), "faster": faster}


def compute(run, computed):
    """Per family: the pick, its claim, the faster adapters with wrong answers, the parser
    shares; the checks' rules; the run."""
    data = run.data
    ra = computed.get("right_answers")
    verdicts = ra["verdicts"] if ra else None
    links = computed.get("links") or {}
    shares = links.get("shares", [None])[0] if not links.get("no_model") else None
    rows = []
    for fam, (fl, rk) in headline_decode(data).items():
        row = family_row(fam, fl, rk, verdicts)
        row["share"] = (shares or {}).get("rows", {}).get(fam)
        rows.append(row)
    c = data.ctx
    return {"rows": rows, "wild_wrong": real_world.wrong_summary(computed.get("real_world")),
            "checks": [(ch.title, ch.right) for ch in verdicts.checks] if verdicts else [],
            "absent": ra["absent"] if ra else [],
            "links": [("loopback", None)] + [(n, linkmodel.link_text(b, r))
                                             for n, b, r in links.get("links", [])],
            "share_call": shares["call"] if shares else None,
            "share_parsers": sorted({v["parser"] for v in shares["rows"].values()})
            if shares else [],
            "rounds_alpha": data.rounds.get("alpha") if data.rounds else None,
            "machine": data.machine, "cpu": c.get("cpu_model", "?"),
            "cores": c.get("cpu_cores", "?"), "compiler": c.get("compiler", "?"),
            "sha": c.get("git_sha", "?"),
            "date": run.start.strftime("%Y-%m-%d %H:%M UTC") if run.start else "?"}


def _e(text):
    return html.escape(str(text), quote=True)


def _md(text):
    """Escaped text with Markdown's `code` spans as <code>."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", _e(text))


def pick_cell(r):
    label = "fastest with right answers"
    if r["pick"] is None:
        return (f'<td class="none" data-label="{label}">none: no adapter of the {r["n"]} had '
                f'right answers (<a href="#{RIGHT_ANCHOR}">what each got wrong</a>)</td>')
    word = "clear" if r["clear"] else "unranked"
    text = _e(r["claim"]).replace("\x00", "<code>").replace("\x01", "</code>")
    return (f'<td class="{word}" data-label="{label}">{text}<span class="claim">; '
            f'<code>{_e(r["file"])}</code>, {r["n_right"]} of {r["n"]} adapters with right '
            'answers</span></td>')


def faster_cell(r):
    label = "faster, with wrong answers"
    if not r["faster"]:
        return f'<td class="na" data-label="{label}">none</td>'
    named = []
    for x in r["faster"][:SHOWN_WRONG]:
        ratio = f'{x["ratio"]:.2f}× the time: ' if x["ratio"] else ""
        named.append(f'<code>{_e(x["adapter"])}</code> <span class="why">({ratio}'
                     f'{_e(x["why"])})</span>')
    rest = len(r["faster"]) - SHOWN_WRONG
    more = f"; {rest} more" if rest > 0 else ""
    return (f'<td class="wrong" data-label="{label}">' + "; ".join(named) + more +
            f' (<a href="#{RIGHT_ANCHOR}">all</a>)</td>')


def share_cells(r, links, call):
    """The share per link; on a phone a line before them says what they are (the header row is
    not shown there)."""
    share = r["share"] or {}
    what = f"parser share of a keep-alive {call} call:" if call else "parser share:"
    cells = "".join(f'<td class="num" data-label="{_e(n)}">'
                    f'{_e(pct(share.get(n)) if share else "–")}</td>' for n, _t in links)
    return f'<td class="share-head" aria-hidden="true">{_e(what)}</td>' + cells


def head_html(d):
    """The table's two header rows: what each column means where it is (tooltip and a short
    visible line under each link's name)."""
    rule = "; ".join(f"{t}: {r}" for t, r in d["checks"])
    share_what = (f"server + client decode ({', '.join(d['share_parsers'])}) as a share of a "
                  f"keep-alive {d['share_call']} call" if d["share_call"] else
                  "no link model in these result files")
    top = ('<tr><th scope="col" rowspan="2">family</th>'
           f'<th scope="col" rowspan="2" title="{_e("right answers: " + rule)}">fastest with '
           'right answers <small>on the headline message</small></th>'
           '<th scope="col" rowspan="2" title="adapters with a lower median that answered '
           'wrong somewhere, or were not judged by every check">faster, with wrong answers</th>'
           f'<th scope="colgroup" colspan="{len(d["links"])}" class="group" '
           f'title="{_e(share_what)}">parser share of a call, per link</th></tr>')
    cells = []
    for name, text in d["links"]:
        tip = ("measured on loopback" if text is None else
               f"projected onto the {name} link model: {text}")
        sub = "measured" if text is None else text.replace(" RTT", "")
        cells.append(f'<th scope="col" class="num" title="{_e(tip)}">{_e(name)}'
                     f'<small>{_e(sub)}</small></th>')
    return top + "<tr>" + "".join(cells) + "</tr>"


def note_html(d):
    checks = "; ".join(f"<b>{_e(t)}</b>: {_e(r)}" for t, r in d["checks"])
    lacking = ", ".join(f"{_e(t)} ({_md(why)})" for t, why in d["absent"])
    share_note = (f"Parser share: server + client decode as a share of a keep-alive "
                  f"<code>{_e(d['share_call'])}</code> call, measured on loopback, projected onto "
                  "the link models (each family's default parser; "
                  '<a href="#parser-share-of-a-call-per-link-model">link model</a>).'
                  if d["share_call"] else "No link model in these result files: no parser share.")
    return (f'<p class="note criterion"><b>Right answers</b> = wrong in none of the checks these '
            f'results hold, and judged by each: {checks or "none"}.'
            + (f" Not in these results: {lacking}." if lacking else "") +
            f' Per adapter: <a href="#{RIGHT_ANCHOR}">Right answers</a>.</p>\n'
            f'<p class="note">A ranking word ("fastest") only where {rule_html(d)}; otherwise '
            'the lowest median is named, unranked. ' + share_note + ' Details: <a href="#decode-'
            'throughput-per-adapter-and-family">decode</a>.</p>\n')


def rule_html(d):
    """The ranking rule in HTML: the rounds' decisions where the run has them."""
    mw = (f'a two-sided Mann-Whitney U test gives p ≤ {RANK_ALPHA:g} and the intervals of the '
          'medians are apart (<a href="#statistics">statistics</a>)')
    if d.get("rounds_alpha") is None:
        return mw
    return ('the rounds until decided called the pair different (a sequential test, all '
            f'decisions together at alpha {d["rounds_alpha"]:g}: <a href="#rounds-until-decided">'
            'rounds</a>) or, for a pair they did not compare, where ' + mw)


def wild_html(d):
    """The real-world messages answered wrong, in red, or ''."""
    n, items = d.get("wild_wrong", (0, []))
    if not n:
        return ""
    named = "; ".join(("every adapter" if who is None else
                       ", ".join(f"<code>{_e(a)}</code>" for a in who))
                      + f' on {_e(fam)} <code>{_e(msg)}</code> ({_e(k)})'
                      for who, fam, msg, k in items[:SHOWN_WILD])
    more = f"; {len(items) - SHOWN_WILD} more messages" if len(items) > SHOWN_WILD else ""
    return (f'<p class="note wild-wrong"><b>{n} wrong answers on real-world messages</b>: '
            f'{named}{more} (<a href="#{real_world.ANCHOR}">{_e(real_world.TITLE)}</a>; an '
            'adapter that gave one is not recommended for that family unless every adapter '
            'gave it).</p>\n')


def html_block(d):
    """The first screen's HTML."""
    body = []
    for r in d["rows"]:
        body.append(f'<tr data-family="{_e(r["family"])}"><th scope="row" data-label="family">'
                    f'{_e(r["title"])} <small>{_e(r["family"])}</small></th>'
                    f'{pick_cell(r)}{faster_cell(r)}'
                    f'{share_cells(r, d["links"], d["share_call"])}</tr>')
    return (f'<section id="{ANCHOR}" class="answer" aria-labelledby="answer-title">\n'
            f'<h2 id="answer-title">{_e(TITLE)}</h2>\n'
            f'<p class="run">Machine <code>{_e(d["machine"])}</code>: {_e(d["cpu"])}, '
            f'{_e(d["cores"])} cores, {_e(d["compiler"])}; run of {_e(d["date"])} at commit '
            f'<code>{_e(d["sha"])}</code>.</p>\n'
            f'<table class="answer-table"><thead>{head_html(d)}</thead><tbody>{"".join(body)}'
            '</tbody></table>\n' + wild_html(d) + note_html(d) + '</section>\n')
