"""Messaging (the classic table): 5,000 calls of each message per stack, the 2002 ratios beside
today's, and the binary control against omniORB, gRPC and the floor."""
from collections import OrderedDict

from sbtools.fmt import fmt_num, short, table, us
from sbtools.report.data import MARK, NOISY, families_in, total_ns, wire_bytes
from sbtools.report.floor import FLOOR_RULE, nearest_floor

TITLE = "Messaging (the classic table)"
SOURCE = None
# The 2002 classic messaging table's ratios (constants, not from this run), as this project reads
# them (nothing in the design says which pair each is): (label, numerator, denominator, call,
# what, ratio); SOAP there is rpc/encoded SOAP 1.1, CORBA omniORB here, "time for 5,000 integers"
# the sendInt row (5,000 calls of one int).
CLASSIC_2002 = [("SOAP ÷ CORBA, bytes per call", "soap11-rpc-encoded", "corba", "sendInt",
                 "bytes", 14.0),
                ("SOAP ÷ CORBA, time for 5,000 integers", "soap11-rpc-encoded", "corba",
                 "sendInt", "time", 882.0),
                ("XML-RPC ÷ CORBA, time for 5,000 integers", "xmlrpc", "corba", "sendInt", "time",
                 66.0)]
MESSAGING_STACKS = OrderedDict([  # non-family rows of the classic table, in its order
    ("binary", "raw socket (binary control), keep-alive"),
    ("binary-newconn", "raw socket, new connection per call"),
    ("corba", "CORBA (omniORB, stacks_bench)"),
    ("grpc", "gRPC (stacks_bench)")])


def classic_ratio(msg, num, den, call, what):
    """Today's num ÷ den on one call (time: total_ns, bytes: both ways), or None."""
    a, b = msg.get((num, call)), msg.get((den, call))
    if a is None or b is None:
        return None
    va, vb = (total_ns(a), total_ns(b)) if what == "time" else (wire_bytes(a), wire_bytes(b))
    return va / vb if vb else None


def against_binary(data, msg, calls):
    rows = []
    for c in calls:
        b = msg.get(("binary", c))
        if b is None:
            continue
        f = nearest_floor(data, b)
        rows.append({"call": c, "binary": total_ns(b),
                     "stacks": {s: total_ns(msg[(s, c)]) for s in ("corba", "grpc")
                                if (s, c) in msg},
                     "floor": None if f is None else (total_ns(f[1]), f[0])})
    return rows


def compute(run):
    data = run.data
    msg = data.messaging()
    if not msg:
        return None
    calls = sorted({c for _f, c in msg})
    stacks = [f for f in families_in(data, [(None, f) for f, _c in msg]) if f != "binary"]
    stacks = [f for f in stacks if f not in MESSAGING_STACKS] + \
        [f for f in MESSAGING_STACKS if any(k[0] == f for k in msg)]
    rows = [{"stack": f, "label": MESSAGING_STACKS.get(f, short(f)),
             "calls": {c: (total_ns(msg[(f, c)]), msg[(f, c)].noisy(NOISY), wire_bytes(msg[(f, c)]))
                       for c in calls if (f, c) in msg}} for f in stacks]
    ratios = [{"label": label, "then": then, "today": classic_ratio(msg, num, den, call, what),
               "control": classic_ratio(msg, num, "binary", call, what)}
              for label, num, den, call, what, then in CLASSIC_2002]
    return {"calls": calls, "rows": rows, "ratios": ratios,
            "has_corba": any(k[0] == "corba" for k in msg),
            "against_binary": against_binary(data, msg, calls)}


def markdown(d, _charts):
    rows = [[r["label"]] + [x for c in d["calls"] for x in
                            (["–", "–"] if c not in r["calls"] else
                             [f"{us(r['calls'][c][0])}{MARK if r['calls'][c][1] else ''}",
                              fmt_num(r["calls"][c][2])])] for r in d["rows"]]
    head = ["stack"] + [x for c in d["calls"] for x in (f"`{c}` µs", "bytes")]
    note = "" if d["has_corba"] else \
        " No `messaging/corba/...` rows were loaded (stacks_bench without omniORB): today's CORBA column is empty."
    ratio_rows = [[x["label"], f"{x['then']:g}×",
                   "–" if x["today"] is None else f"{x['today']:.1f}×",
                   "–" if x["control"] is None else f"{x['control']:.1f}×"] for x in d["ratios"]]
    binary_rows = [[f"`{r['call']}`", us(r["binary"])] +
                   ["–" if s not in r["stacks"] else
                    f"{us(r['stacks'][s])} ({r['binary'] / r['stacks'][s]:.2f}×)"
                    for s in ("corba", "grpc")] +
                   ["–" if r["floor"] is None else
                    f"{us(r['floor'][0])} ({r['binary'] / r['floor'][0]:.2f}×, {r['floor'][1]:,} B)"]
                   for r in d["against_binary"]]
    return "\n".join([
        "The classic messaging table: 5,000 calls of each, µs per call and bytes per call on "
        "the wire (both directions, counted at the socket); keep-alive unless named. CORBA and "
        "gRPC rows come from stacks_bench (`messaging/<stack>/<call>`) when it ran with them.",
        "", table(head, rows), "",
        "The 2002 figures (constants, not from this run; which pair each is is this project's "
        "reading: SOAP is rpc/encoded SOAP 1.1, \"time for 5,000 integers\" the `sendInt` "
        "row) beside today's same ratios, and against our binary control instead of CORBA." +
        note, "", table(["ratio", "2002", "today", "today, binary control as CORBA"], ratio_rows),
        "",
        "Per call, our binary control against omniORB, gRPC and the raw loopback floor "
        "(µs; in brackets binary ÷ that one). " + FLOOR_RULE, "",
        table(["call", "binary µs", "omniORB µs", "gRPC µs", "floor µs"], binary_rows)])
