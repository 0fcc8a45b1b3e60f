"""Right answers: per adapter, what it got wrong in each set of messages with known right answers
(report.checks), and the rule the web page's first screen recommends by (report.answer):

    an adapter has right answers for a family when every check these results hold that covers
    the family judged it there, and none found a wrong answer.

An adapter a check covers but did not judge is "not checked", never recommended. Nothing in the
rule looks at an adapter's name: a mode that trades correctness for speed (a named fastest mode,
in-situ parsing, no entity decoding) is recommended exactly where no check caught it wrong.
"""
from collections import OrderedDict

from sbtools.fmt import fmt_num, md_escape, table
from sbtools.report import checks as checks_mod

TITLE = "Right answers"
SOURCE = None
ANCHOR = "right-answers"   # driver.anchor(TITLE): the first screen links here
SHOWN = 5                  # wrong answers listed per adapter and check


class Verdicts:
    """The checks of one report and the rule over them."""

    def __init__(self, checks, data):
        self.checks = checks
        self.family_format = {}   # family -> xml | json, from the adapters that ran it
        self.adapter_format = {}  # adapter -> xml | json
        for a, row in data.adapters.items():
            if row.get("format"):
                self.adapter_format[a] = row["format"]
        for c in checks:
            if c.scope == "format":
                for a, where in c.judged.items():
                    for fmt in where:
                        self.adapter_format.setdefault(a, fmt)
        for c in checks:
            if c.scope == "family":
                for a, where in c.judged.items():
                    for fam in where:
                        if a in self.adapter_format:
                            self.family_format.setdefault(fam, self.adapter_format[a])

    def where(self, check, family):
        return family if check.scope == "family" else self.family_format.get(family)

    def of(self, adapter, family):
        """(state, [(check, [(message, why)])], [unjudged checks]): state "right" (judged by every
        check covering the family, wrong in none), "wrong" or "not checked"."""
        wrong, unjudged = [], []
        for c in self.checks:
            where = self.where(c, family)
            if where is None or not c.covers(where):
                continue
            got = c.verdict(adapter, where)
            if got is None:
                unjudged.append(c)
            elif got:
                wrong.append((c, got))
        state = "wrong" if wrong else "not checked" if unjudged else "right"
        return state, wrong, unjudged

    def right(self, adapter, family):
        return self.of(adapter, family)[0] == "right"

    def totals(self, check, adapter):
        """(judged, wrong) of adapter in check, over every scope it was judged in."""
        judged = sum(check.judged.get(adapter, {}).values())
        wrong = sum(len(v) for v in check.wrong.get(adapter, {}).values())
        return judged, wrong


def compute(run):
    checks = checks_mod.all_checks(run)
    if not checks:
        return None
    verdicts = Verdicts(checks, run.data)
    adapters = list(OrderedDict.fromkeys(
        [a for a in run.data.adapters] + [a for c in checks for a in c.adapters()]))
    adapters = [a for a in adapters if any(c.judged.get(a) for c in checks)]
    return {"verdicts": verdicts, "adapters": adapters, "absent": checks_mod.absent(checks),
            "families": list(run.data.facts.families)}


def criterion(d):
    """The rule in one paragraph, with each check's rule."""
    sets = "; ".join(f"**{c.title}**: {c.rule}" for c in d["verdicts"].checks)
    lacking = "; ".join(f"{t} ({why})" for t, why in d["absent"])
    return ("An answer is right only where these results can tell. Per family, an adapter has "
            "*right answers* when every set of messages below that covers the family judged it "
            "and found no wrong answer; an adapter a set covers but did not judge is *not "
            "checked*. The web page's first screen recommends only adapters with right answers, "
            "whatever their mode (a named fastest mode, in-situ parsing, no entity decoding are "
            "held to the same rule). Wrong is, per set: " + sets + "." +
            (f" Not in these results: {lacking}." if lacking else ""))


def cell(verdicts, check, adapter):
    judged, wrong = verdicts.totals(check, adapter)
    if not judged:
        return "not judged"
    text = f"{fmt_num(wrong)} of {fmt_num(judged)}"
    return f"**{text}**" if wrong else text


def family_states(verdicts, adapter, families):
    """The adapter's state per family of its format, compressed: "right" when right in all."""
    fmt = verdicts.adapter_format.get(adapter)
    fams = [f for f in families if verdicts.family_format.get(f) == fmt]
    states = OrderedDict((f, verdicts.of(adapter, f)[0]) for f in fams)
    if states and len(set(states.values())) == 1:
        return next(iter(states.values()))
    return ", ".join(f"{f}: {s}" for f, s in states.items()) or "–"


def wrong_lines(verdicts, adapter):
    """Per check, the adapter's wrong answers grouped by kind, the first SHOWN of each named."""
    out = []
    for c in verdicts.checks:
        kinds = OrderedDict()
        for where, ws in c.wrong.get(adapter, {}).items():
            for message, why, detail in ws:
                place = f", {where}" if c.scope == "family" else ""
                note = f" ({detail}{place})" if detail or place else ""
                kinds.setdefault(why, []).append(f"`{md_escape(message)}`{md_escape(note)}")
        for why, items in kinds.items():
            more = f", and {len(items) - SHOWN} more" if len(items) > SHOWN else ""
            out.append(f"- `{adapter}`, {c.title}: {md_escape(why)}: {len(items)} — "
                       + ", ".join(items[:SHOWN]) + more)
    return out


def markdown(d, _charts):
    v = d["verdicts"]
    head = ["adapter", "format"] + [f"{c.title}: wrong" for c in v.checks] + ["right answers"]
    rows = [[f"`{a}`", v.adapter_format.get(a, "?")] + [cell(v, c, a) for c in v.checks] +
            [family_states(v, a, d["families"])] for a in d["adapters"]]
    text = [criterion(d), "",
            table(head, rows, ["l", "l"] + ["r"] * len(v.checks) + ["l"])]
    lines = [x for a in d["adapters"] for x in wrong_lines(v, a)]
    if lines:
        text += ["", f"Wrong answers per adapter, set and kind (the first {SHOWN} named):",
                 ""] + lines
    notes = [n for c in v.checks for n in c.notes]
    if notes:
        text += ["", "Held against no adapter: " + "; ".join(notes) + "."]
    return "\n".join(text)
