"""Messaging (the classic table): 5,000 calls of each message per stack, the 2002 ratios beside
today's, and the binary control against the peers with a protocol of their own (their declared
PROTOCOL: stacks_bench's messaging/<stack>/<call> rows) and the floor."""
from collections import OrderedDict

from sbtools import peers
from sbtools.fmt import fmt_num, short, table, us
from sbtools.report.data import MARK, NOISY, families_in, total_ns, wire_bytes
from sbtools.report.floor import FLOOR_RULE, nearest_floor

TITLE = "Messaging (the classic table)"
SOURCE = None
# The 2002 classic messaging table's ratios (constants, not from this run), as this project reads
# them (nothing in the design says which pair each is): (label, numerator, call, what, ratio), the
# denominator the paper's CORBA: here the peer that declares PROTOCOL CORBA (omniORB); SOAP there
# is rpc/encoded SOAP 1.1, "time for 5,000 integers" the sendInt row (5,000 calls of one int).
PAPER_PROTOCOL = "CORBA"
CLASSIC_2002 = [(f"SOAP ÷ {PAPER_PROTOCOL}, bytes per call", "soap11-rpc-encoded", "sendInt",
                 "bytes", 14.0),
                (f"SOAP ÷ {PAPER_PROTOCOL}, time for 5,000 integers", "soap11-rpc-encoded",
                 "sendInt", "time", 882.0),
                (f"XML-RPC ÷ {PAPER_PROTOCOL}, time for 5,000 integers", "xmlrpc", "sendInt",
                 "time", 66.0)]
BINARY_ROWS = OrderedDict([  # the binary control's rows of the classic table, in its order
    ("binary", "raw socket (binary control), keep-alive"),
    ("binary-newconn", "raw socket, new connection per call")])


def messaging_peers():
    """The declared peers with a protocol of their own (PROTOCOL), by name."""
    return sorted((p for p in peers.declared() if p["protocol"]), key=lambda p: p["name"])


def row_label(p):
    """A peer's row: its protocol and its label ("CORBA (omniORB, stacks_bench)")."""
    if p["protocol"] == p["label"]:
        return f"{p['label']} (stacks_bench)"
    return f"{p['protocol']} ({p['label']}, stacks_bench)"


def messaging_stacks():
    """{stack: row label}: the non-family rows of the classic table, in its order."""
    return OrderedDict(list(BINARY_ROWS.items()) +
                       [(p["name"], row_label(p)) for p in messaging_peers()])


def paper_peer():
    """The peer standing for the paper's CORBA, or None."""
    return next((p for p in messaging_peers() if p["protocol"] == PAPER_PROTOCOL), None)


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
                     "stacks": {s: total_ns(msg[(s, c)]) for s in
                                (p["name"] for p in messaging_peers()) if (s, c) in msg},
                     "floor": None if f is None else (total_ns(f[1]), f[0])})
    return rows


def compute(run):
    data = run.data
    msg = data.messaging()
    if not msg:
        return None
    calls = sorted({c for _f, c in msg})
    stacks = [f for f in families_in(data, [(None, f) for f, _c in msg]) if f != "binary"]
    labels = messaging_stacks()
    stacks = [f for f in stacks if f not in labels] + \
        [f for f in labels if any(k[0] == f for k in msg)]
    rows = [{"stack": f, "label": labels.get(f, short(f)),
             "calls": {c: (total_ns(msg[(f, c)]), msg[(f, c)].noisy(NOISY), wire_bytes(msg[(f, c)]))
                       for c in calls if (f, c) in msg}} for f in stacks]
    paper = paper_peer()
    den = paper["name"] if paper else None
    ratios = [{"label": label, "then": then, "today": classic_ratio(msg, num, den, call, what),
               "control": classic_ratio(msg, num, "binary", call, what)}
              for label, num, call, what, then in CLASSIC_2002]
    return {"calls": calls, "rows": rows, "ratios": ratios, "paper": paper,
            "has_paper": any(k[0] == den for k in msg),
            "against_binary": against_binary(data, msg, calls)}


def markdown(d, _charts):
    rows = [[r["label"]] + [x for c in d["calls"] for x in
                            (["–", "–"] if c not in r["calls"] else
                             [f"{us(r['calls'][c][0])}{MARK if r['calls'][c][1] else ''}",
                              fmt_num(r["calls"][c][2])])] for r in d["rows"]]
    head = ["stack"] + [x for c in d["calls"] for x in (f"`{c}` µs", "bytes")]
    paper = d["paper"] or {"name": "<stack>", "label": f"a {PAPER_PROTOCOL} peer"}
    note = "" if d["has_paper"] else \
        (f" No `messaging/{paper['name']}/...` rows were loaded (stacks_bench without "
         f"{paper['label']}): today's {PAPER_PROTOCOL} column is empty.")
    own = messaging_peers()
    ratio_rows = [[x["label"], f"{x['then']:g}×",
                   "–" if x["today"] is None else f"{x['today']:.1f}×",
                   "–" if x["control"] is None else f"{x['control']:.1f}×"] for x in d["ratios"]]
    binary_rows = [[f"`{r['call']}`", us(r["binary"])] +
                   ["–" if s not in r["stacks"] else
                    f"{us(r['stacks'][s])} ({r['binary'] / r['stacks'][s]:.2f}×)"
                    for s in (p["name"] for p in own)] +
                   ["–" if r["floor"] is None else
                    f"{us(r['floor'][0])} ({r['binary'] / r['floor'][0]:.2f}×, {r['floor'][1]:,} B)"]
                   for r in d["against_binary"]]
    return "\n".join([
        "The classic messaging table: 5,000 calls of each, µs per call and bytes per call on "
        "the wire (both directions, counted at the socket); keep-alive unless named. "
        f"{peers.joined(p['protocol'] for p in own)} rows come from stacks_bench "
        "(`messaging/<stack>/<call>`) when it ran with them.",
        "", table(head, rows), "",
        "The 2002 figures (constants, not from this run; which pair each is is this project's "
        "reading: SOAP is rpc/encoded SOAP 1.1, \"time for 5,000 integers\" the `sendInt` "
        f"row) beside today's same ratios, and against our binary control instead of "
        f"{PAPER_PROTOCOL}." + note, "",
        table(["ratio", "2002", "today", f"today, binary control as {PAPER_PROTOCOL}"], ratio_rows),
        "",
        f"Per call, our binary control against {', '.join(p['label'] for p in own)} and the raw "
        "loopback floor "
        "(µs; in brackets binary ÷ that one). " + FLOOR_RULE, "",
        table(["call", "binary µs", *(f"{p['label']} µs" for p in own), "floor µs"],
              binary_rows)])
