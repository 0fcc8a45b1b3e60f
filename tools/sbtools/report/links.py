"""Parser share of a call per link model: the measured keep-alive phases projected onto the run's
links (sbtools.linkmodel), per call and per connection setup; which parser each family uses."""
from collections import OrderedDict

from sbtools import linkmodel
from sbtools.fmt import pct, short, table, us
from sbtools.report.data import call_key, families_in

TITLE = "Parser share of a call per link model"
SOURCE = None
# Connection scenarios of the link table: (label, roundtrip_bench variant); the round trips
# per call of each variant come from the result file's `variant:<name>` context keys.
SCENARIOS = [("keep-alive", "keepalive"), ("new TCP connection", "newconn"),
             ("new TCP + TLS 1.3", "tls-full")]
NO_MODEL = ("These result files carry no link model (the `link:<name>` and `link_model:*` "
            "context keys, written by roundtrip_bench and parse_bench since the link model "
            "moved into the result files): no projection is made. Re-run the benchmarks to "
            "get this section.")


def family_parser(run, rt, fam, call):
    """The parser a family's link and variant rows use: the family's default adapter (context
    `default_adapter:*`, the one the connection variants ran with), else the lowest median
    keep-alive time (old result files; a selection, not a ranking claim)."""
    default = run.data.facts.default_bench_name(run.data.format_of_family(rt, fam))
    if default and ("keepalive", fam, default, call) in rt:
        return default
    cands = [(r.time, p) for (v, f, p, c), r in rt.items() if v == "keepalive" and f == fam
             and c == call]
    return min(cands)[1] if cands else None


def parser_choice(data):
    if all(data.facts.default.values()):
        return ("Parser per family: the default adapter (`" + "`, `".join(
            data.facts.default.values()) + "`, from the result file's context), which the "
            "connection variants also ran with.")
    return ("Parser per family: the one with the lowest median keep-alive time (these result "
            "files predate the `default_adapter:*` context keys; a selection, not a ranking).")


def keepalive(run):
    return {k: r for k, r in run.rt.items() if k[0] == "keepalive" and k[1] != "binary"}


def parser_shares(run, call=None):
    """{"call", "rows": {family: {"parser", "loopback", <link>: share %}}} or None."""
    ka, facts = keepalive(run), run.data.facts
    if not ka or not facts.links:
        return None
    call = call or sorted({k[3] for k in ka}, key=call_key)[0]
    rows = OrderedDict()
    for fam in families_in(run.data, [k for k in ka if k[3] == call]):
        p = family_parser(run, ka, fam, call)
        r = ka.get(("keepalive", fam, p, call))
        if r is None:
            continue
        row = {"parser": p, "loopback": linkmodel.measured_share(facts.model, r)}
        for name, bw, rtt in facts.links:
            t, ps = linkmodel.projected(facts.model, r, 1, bw, rtt)
            row[name] = ps / t * 100 if t else None
        rows[fam] = row
    return {"call": call, "rows": rows}


def scenario_rows(run, ka, call):
    """Per family and connection setup: the measured share and the projection per link."""
    facts, rows = run.data.facts, []
    for fam in families_in(run.data, [k for k in ka if k[3] == call]):
        p = family_parser(run, ka, fam, call)
        r = ka.get(("keepalive", fam, p, call))
        if r is None:
            continue
        for label, variant in SCENARIOS:
            n_rtt = facts.round_trips.get(variant)
            if not n_rtt:
                continue
            meas = run.rt.get((variant, fam, p, call))
            rows.append({"family": fam, "connection": label,
                         "measured": None if meas is None else
                         linkmodel.measured_share(facts.model, meas),
                         "projected": {n: linkmodel.projected(facts.model, r, n_rtt, bw, rtt)
                                       for n, bw, rtt in facts.links}})
    return rows


def compute(run):
    ka, facts = keepalive(run), run.data.facts
    if not ka:
        return None
    if not facts.links:
        return {"no_model": True}
    calls = sorted({k[3] for k in ka}, key=call_key)
    return {"no_model": False, "links": facts.links,
            "formula": linkmodel.formula_lines(facts.model, facts.round_trips),
            "choice": parser_choice(run.data),
            "shares": [parser_shares(run, c) for c in calls],
            "scenario_call": calls[0], "scenarios": scenario_rows(run, ka, calls[0])}


def markdown(d, charts):
    if d["no_model"]:
        return NO_MODEL
    links = [n for n, _b, _r in d["links"]]
    text = ["How much of a call the parsers are once a network is in the way. Measured phases "
            "(keep-alive, loopback) are projected onto link models:", "", "```", *d["formula"],
            "```", "",
            "Model and links from the result file's context (harness/link_model.h): " +
            "; ".join(f"{n} {linkmodel.link_text(b, r)}" for n, b, r in d["links"]) +
            ". Loopback is not modelled: its column is the measured share "
            "(server decode + client decode) / measured total. " + d["choice"], ""]
    head = ["family", "parser", "loopback (measured)"] + links
    for sh in d["shares"]:
        rows = [[short(f), f"`{v['parser']}`", pct(v["loopback"])] + [pct(v[n]) for n in links]
                for f, v in sh["rows"].items()]
        text += [f"Parser share of a keep-alive `{sh['call']}` call:", "", table(head, rows), ""]
    rows = []
    for s in d["scenarios"]:
        rows.append([short(s["family"]), s["connection"], pct(s["measured"])] +
                    [f"{pct(ps / t * 100)} of {us(t * 1e9)} µs" for t, ps in
                     (s["projected"][n] for n in links)])
    text += [f"`{d['scenario_call']}` by connection setup (round trips per variant as above; "
             "loopback measured from the `keepalive` / `newconn` / `tls-full` variants when "
             "present): parser share of the projected call time", "",
             table(["family", "connection", "loopback (measured)"] + links, rows,
                   ["l", "l"] + ["r"] * (1 + len(links)))]
    if charts:
        fig = charts.share_lines(d["shares"][:4], ["loopback"] + links)
        text += ["", charts.save(fig, "link_share.svg", "parser share per link model")]
    return "\n".join(text)
