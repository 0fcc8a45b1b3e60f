"""Real-world messages: what `tools/wild --both --json FILE` judged (every message of corpus/wild/
by every adapter of its format, against the manifest's outcome decided from the specifications;
docs/corpus.md "The wild corpus"), per family and adapter right / refused / wrong, the refusals'
reasons grouped, the wrong answers by file, and the command that reproduces it.

The wrong answers are also report.checks' "real-world messages" check, which keeps an adapter
that answered wrong out of the first screen's recommendation for that family; a wrong answer
every adapter of the format gives (soapbench's decoding, not a parser's) is held against none
and stands on the first screen instead (shared()).
"""
from collections import OrderedDict, defaultdict

from sbtools import names
from sbtools.fmt import md_escape, table
from sbtools.paths import rel
from sbtools.report import your_messages
from sbtools.report.data import families_in

TITLE = "Real-world messages"
SOURCE = "wild"
TOOL = "tools/wild"       # the document's "tool" (sbtools.wild.TOOL)
ANCHOR = "real-world-messages"
COMMAND = "tools/wild --both --details"   # reproduces the verdicts, naming every one not right
TIMED_COMMAND = "tools/wild --both --time --json FILE"   # bench.wild's, timings included
PRODUCE = ("`ctest --test-dir build -R bench.wild` (part of `ctest -L bench`) or "
           "`tools/wild --both --json FILE` writes one; `tools/report --wild FILE` names it")
# The HTML's line for a report without the document (report.page.missing_text).
MISSING = (f"Not in these results: no `{TOOL}` document was given or stored in the machine "
           f"folder: {PRODUCE} (docs/corpus.md \"The wild corpus\").")
SHOWN = 5                 # files named per wrong answer kind or refusal reason


def verdicts_of(run):
    """(path, [verdict dicts], error, timings): the document's verdicts, adapters as benchmark
    names (pugixml/dom -> pugixml-dom), and its compare document of the headline messages (None
    without --time); None without a document."""
    got = run.read(SOURCE)
    if not got:
        return None
    path, doc, error = got
    if doc is None or not isinstance(doc, dict) or doc.get("tool") != TOOL or \
            not isinstance(doc.get("verdicts"), list):
        return path, [], error or f"not a `{TOOL}` document", None
    out = [dict(v, adapter=names.field(v["adapter"])) for v in doc["verdicts"]]
    timings = doc.get("timings")
    return path, out, None, timings if your_messages.is_compare(timings) else None


def message(v):
    """A verdict's message as the report names it: its path, and whether its WSDL was given."""
    return v["path"] + (" (with its WSDL)" if v.get("with_wsdl") else "")


def kind(detail):
    """The kind of a wrong answer: tools/wild's detail up to its first ':' or ' -> '."""
    return detail.split(" -> ", 1)[0].split(":", 1)[0]


def shared(verdicts):
    """{(family, message): (the adapters' count, the detail)} of the wrong answers every adapter
    judged on that message gave."""
    by = defaultdict(list)
    for v in verdicts:
        by[(v["family"], message(v))].append(v)
    return OrderedDict((k, (len(vs), vs[0]["detail"])) for k, vs in sorted(by.items())
                       if len(vs) > 1 and all(v["verdict"] == "wrong" for v in vs))


def counts(verdicts):
    """{(with_wsdl, family, adapter): {verdict: n}}."""
    out = defaultdict(lambda: {"right": 0, "refused": 0, "wrong": 0})
    for v in verdicts:
        out[(bool(v.get("with_wsdl")), v["family"], v["adapter"])][v["verdict"]] += 1
    return out


def compute(run):
    got = verdicts_of(run)
    if not got:
        return None
    path, verdicts, error, timings = got
    if error:
        return {"path": path, "error": error}
    fams = families_in(run.data, [(None, v["family"]) for v in verdicts])
    return {"path": path, "verdicts": verdicts, "counts": counts(verdicts),
            "shared": shared(verdicts), "families": fams, "timings": timings}


def cell(c):
    text = f"{c['right']} / {c['refused']} / {c['wrong']}"
    return f"**{text}**" if c["wrong"] else text


def grid(d, with_wsdl):
    """One table: rows the adapters (those with identical rows together), columns the families,
    cells right / refused / wrong."""
    keys = [k for k in d["counts"] if k[0] == with_wsdl]
    fams = [f for f in d["families"] if any(k[1] == f for k in keys)]
    rows = OrderedDict()
    for adapter in OrderedDict.fromkeys(a for _w, _f, a in sorted(keys, key=lambda k: k[2])):
        cells = tuple(cell(d["counts"][(with_wsdl, f, adapter)])
                      if (with_wsdl, f, adapter) in d["counts"] else "" for f in fams)
        rows.setdefault(cells, []).append(adapter)
    body = [[", ".join(f"`{a}`" for a in adapters)] + list(cells) for cells, adapters in
            rows.items()]
    return table(["adapters"] + fams, body, ["l"] + ["c"] * len(fams))


def grouped(items):
    """'n messages: `a`, `b`, and k more' of a list of messages."""
    more = f", and {len(items) - SHOWN} more" if len(items) > SHOWN else ""
    return (f"{len(items)} message{'s' if len(items) != 1 else ''}: "
            + ", ".join(f"`{md_escape(i)}`" for i in items[:SHOWN]) + more)


def code(text):
    """text as a Markdown code span (its backticks made quotes): shown as written, tags too."""
    return "`" + md_escape(text).replace("`", "'") + "`"


def said(detail):
    """tools/wild's detail of a wrong answer, its parts as code: what the manifest says, and what
    the adapter answered."""
    head, _sep, answered = detail.partition(" -> ")
    k, _sep, why = head.partition(": ")
    text = k + (f": {code(why[:200])}" if why else "")
    return text + (f"; answered {code(answered[:200])}" if answered else "")


def wrong_lines(d):
    """Per family and message, who answered wrong and how (every adapter: said so)."""
    by = OrderedDict()
    for v in sorted(d["verdicts"], key=lambda v: (v["family"], message(v), v["adapter"])):
        if v["verdict"] == "wrong":
            by.setdefault((v["family"], message(v)), []).append(v)
    out = []
    for (fam, msg), vs in by.items():
        who = (f"every one of the {len(vs)} adapters" if (fam, msg) in d["shared"]
               else ", ".join(f"`{v['adapter']}`" for v in vs))
        out.append(f"- **{fam}: `{md_escape(msg)}`**, {who}: {said(vs[0]['detail'])}")
    return out


def refusal_lines(d):
    """Per family, each refusal reason with the messages and adapters that gave it."""
    by = OrderedDict()
    for v in sorted(d["verdicts"], key=lambda v: (v["family"], v["detail"], message(v))):
        if v["verdict"] == "refused":
            ms, ads = by.setdefault((v["family"], v["detail"]), (OrderedDict(), OrderedDict()))
            ms[message(v)] = ads[v["adapter"]] = True
    return [f"- {fam}, {code(why[:200])}: {len(ads)} adapters, " + grouped(list(ms))
            for (fam, why), (ms, ads) in by.items()]


def markdown(d, _charts):
    if "error" in d:
        return f"`{rel(d['path'])}` could not be read: {d['error']}. {PRODUCE}."
    n_wrong = sum(1 for v in d["verdicts"] if v["verdict"] == "wrong")
    msgs = len({v["path"] for v in d["verdicts"]})
    with_wsdl = len({v["path"] for v in d["verdicts"] if v.get("with_wsdl")})
    also = f" ({with_wsdl} of them also with their WSDL)" if with_wsdl else ""
    text = [f"From `{rel(d['path'])}`: {msgs} messages{also} of `corpus/wild/`, real traffic from "
            "open-source stacks' test data, each decoded by every adapter of its format and "
            "judged against the manifest's outcome (decided from the specifications; "
            "docs/corpus.md \"The wild corpus\"): *right* (the manifest's answer, or a refusal "
            "where it refuses), *refused* (where an answer is expected: coverage, not a wrong "
            "answer), *wrong* (another answer, or one where the specifications refuse: a silent "
            f"wrong answer). Reproduce with `{COMMAND}`.", ""]
    if n_wrong:
        text += [f"**{n_wrong} wrong answers** (adapter × message); an adapter that gave one is "
                 "left out of its family's recommendation ([Right answers](#right-answers)), "
                 "unless every adapter gave it (soapbench's decoding, not a parser's: shown on "
                 "the first screen):", ""] + wrong_lines(d) + [""]
    else:
        text += ["No wrong answer on any message by any adapter.", ""]
    for with_wsdl, head in ((False, "Without WSDLs"),
                            (True, "The messages that need a WSDL, with it")):
        if any(k[0] == with_wsdl for k in d["counts"]):
            text += [f"{head} (right / refused / wrong):", "", grid(d, with_wsdl), ""]
    refusals = refusal_lines(d)
    if refusals:
        text += ["Refused where the manifest expects an answer, by reason:", ""] + refusals + [""]
    if d.get("timings"):
        text += ["### Timed: the headline real-world messages", "",
                 "Per family the largest and the median-sized message typed without a WSDL "
                 f"(`{TIMED_COMMAND}`, sbtools.wild_timing), decoded by every adapter:", "",
                 your_messages.render([d["timings"]], whose="the wild corpus's messages")]
    return "\n".join(text).rstrip()


def wrong_summary(d):
    """(wrong answers, [(adapters, family, message, kind)]) for the first screen and the opening
    paragraph: one item per message, adapters None when every adapter answered it wrong."""
    if not d or "error" in d:
        return 0, []
    by = OrderedDict()
    for v in d["verdicts"]:
        if v["verdict"] == "wrong":
            by.setdefault((v["family"], message(v)), []).append(v)
    items = [(None if k in d["shared"] else [v["adapter"] for v in vs], k[0], k[1],
              kind(vs[0]["detail"])) for k, vs in by.items()]
    return sum(len(vs) for vs in by.values()), items
