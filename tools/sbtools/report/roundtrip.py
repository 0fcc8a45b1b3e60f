"""Round trip: where the time goes. Per call the phases of every family and parser (keep-alive),
then the connection variants' totals."""
import re

from sbtools.fmt import fmt_num, short, table, us
from sbtools.report.data import MARK, NOISY, call_key, families_in, total_ns
from sbtools.report.floor import FLOOR_RULE, times_floor
from sbtools.report.links import family_parser, parser_choice

TITLE = "Round trip: where the time goes"
SOURCE = None
PHASES = [("client_encode_ns", "client encode"), ("server_decode_ns", "server decode"),
          ("dispatch_ns", "dispatch"), ("server_encode_ns", "server encode"),
          ("client_decode_ns", "client decode"), ("transport_ns", "transport")]
VARIANTS = ["keepalive", "newconn", "tls-keepalive", "tls-full", "tls-resumed"]


def call_rows(run, ka, call):
    rows = []
    for fam in families_in(run.data, [k for k in ka if k[3] == call]):
        for (v, f, p, c), r in sorted(ka.items(), key=lambda kv: kv[1].time):
            if f == fam and c == call:
                rows.append({"family": fam, "parser": p,
                             "phases": [r.counter(k) for k, _l in PHASES],
                             "total": total_ns(r), "noisy": r.noisy(NOISY),
                             "x_floor": times_floor(run.data, r),
                             "sent": r.counter("bytes_sent"), "received": r.counter("bytes_received")})
    return rows


def variant_table(run, calls):
    rt = run.rt
    variants = [v for v in VARIANTS if any(k[0] == v for k in rt)]
    if len(variants) < 2:
        return None
    call = next((c for c in calls if all(any(k[0] == v and k[3] == c for k in rt)
                                         for v in variants)), calls[0])
    rows = []
    for fam in families_in(run.data, [k for k in rt if k[3] == call]):
        p = family_parser(run, rt, fam, call)
        if p is not None:
            rows.append({"family": fam, "parser": p, "totals": {
                v: (total_ns(rt[(v, fam, p, call)]), rt[(v, fam, p, call)].noisy(NOISY))
                for v in variants if (v, fam, p, call) in rt}})
    return {"call": call, "variants": variants, "rows": rows, "choice": parser_choice(run.data)}


def compute(run):
    ka = {k: r for k, r in run.rt.items() if k[0] == "keepalive"}
    if not ka:
        return None
    calls = sorted({k[3] for k in ka}, key=call_key)
    return {"has_floor": bool(run.data.floor()),
            "calls": [{"call": c, "rows": call_rows(run, ka, c)} for c in calls],
            "variants": variant_table(run, calls)}


def call_markdown(c, charts):
    rows = [[short(r["family"]), f"`{r['parser']}`"] + [us(x) for x in r["phases"]] +
            [f"{us(r['total'])}{MARK if r['noisy'] else ''}",
             "–" if r["x_floor"] is None else f"{r['x_floor']:.1f}×",
             fmt_num(r["sent"]), fmt_num(r["received"])] for r in c["rows"]]
    text = [f"**`{c['call']}`**", "",
            table(["family", "parser"] + [l for _k, l in PHASES] +
                  ["total", "× floor", "bytes sent", "bytes recv"], rows,
                  ["l", "l"] + ["r"] * (len(PHASES) + 4)), ""]
    if charts and c["rows"]:
        bars = [(f"{short(r['family'])} / {r['parser']}", r["phases"]) for r in c["rows"]]
        fig = charts.phase_bars(bars, [l for _k, l in PHASES], f"round trip, keep-alive: {c['call']}")
        fname = "roundtrip_" + re.sub(r"[^A-Za-z0-9.]+", "_", c["call"]) + ".svg"
        text += [charts.save(fig, fname, f"round trip phases: {c['call']}"), ""]
    return text


def markdown(d, charts):
    text = ["Keep-alive HTTP/1.1 calls on loopback, client and server in one process pair; the "
            "phases are averages per call measured where they happen, transport = total − the "
            "five phases. µs, median of the repetitions. " +
            (FLOOR_RULE if d["has_floor"] else "No floor rows in these results: × floor is empty."),
            ""]
    for c in d["calls"]:
        text += call_markdown(c, charts)
    v = d["variants"]
    if v:
        rows = [[short(r["family"]), f"`{r['parser']}`"] +
                [f"{us(r['totals'][x][0])}{MARK if r['totals'][x][1] else ''}"
                 if x in r["totals"] else "–" for x in v["variants"]] for r in v["rows"]]
        text += [f"Total µs per `{v['call']}` call by connection variant. " + v["choice"], "",
                 table(["family", "parser"] + v["variants"], rows,
                       ["l", "l"] + ["r"] * len(v["variants"]))]
    return "\n".join(text)
