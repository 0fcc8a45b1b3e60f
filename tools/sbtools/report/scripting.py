"""Scripting stacks: our client against the peers that are servers only (declared without a client
of their own: SOAP::Lite, Frontier::RPC, Python's xmlrpc.server), with each server's own handling
and sending time."""
from sbtools import names, peers
from sbtools.fmt import pct, short, table, us
from sbtools.report.data import MARK, NOISY, total_ns

TITLE = "Scripting stacks"
SOURCE = None
SCRIPTING_QUERIES = ("add", "echoArray", "getChain")  # the scripting comparison's three queries


def scripting_servers():
    """The declared peers without a client of their own (stacks_bench --set=scripting's)."""
    return {p["name"] for p in peers.declared() if p["client"] is None}


def scripting_rows(data):
    """{(server, call): (variant, family, Result)} of the roundtrip/<v>/<f>/soapbench~<server>/
    <call> rows of stacks_bench --set=scripting, in the results' order."""
    servers, rows = scripting_servers(), {}
    for f, r in data.stacks_of_kind("roundtrip"):
        ends = names.split_pair(f["parser"])
        if ends is None or ends[0] != "soapbench" or "/" in f["call"]:
            continue
        if ends[1] in servers and f["call"] in SCRIPTING_QUERIES:
            rows[(ends[1], f["call"])] = (f["variant"], f["family"], r)
    return rows


def compute(run):
    rows = scripting_rows(run.data)
    if not rows:
        return None
    out = []
    order = list(dict.fromkeys(server for server, _call in rows))  # as stacks_bench ran them
    for (server, call) in sorted(rows, key=lambda k: (order.index(k[0]),
                                                      SCRIPTING_QUERIES.index(k[1]))):
        variant, fam, r = rows[(server, call)]
        out.append({"server": server, "family": fam, "variant": variant, "call": call,
                    "total": total_ns(r), "noisy": r.noisy(NOISY),
                    "handling": r.counter("server_handling_ns"),
                    "sending": r.counter("server_send_ns")})
    server_time = {}
    for x in out:
        if x["handling"] is not None and x["sending"] is not None:
            server_time.setdefault(x["call"], {})[x["server"]] = x["handling"] + x["sending"]
    return {"rows": out, "server_time": server_time}


def markdown(d, _charts):
    rows = []
    for x in d["rows"]:
        known = x["handling"] is not None and x["sending"] is not None
        rest = x["total"] - x["handling"] - x["sending"] if known else None
        rows.append([f"`{x['server']}`", short(x["family"]), x["variant"], f"`{x['call']}`",
                     f"{us(x['total'])}{MARK if x['noisy'] else ''}", us(x["handling"]),
                     us(x["sending"]), us(rest),
                     "–" if rest is None else pct(100 * (x["handling"] + x["sending"]) / x["total"])])
    text = ["The scripting comparison's three queries (add two integers, an array of the two "
            "arguments, the pre-serialized getChain document passed through) against the "
            "scripting stacks' servers (docs/peers.md \"Scripting stacks\"), each a child "
            "process of `stacks_bench --set=scripting`, our client (default adapter) calling. "
            "µs per call as our client saw it, then the server's own split, measured inside the "
            "server with the stack's hooks: handling (parse, dispatch, encode) and sending "
            "(writing the response to the socket); the rest is our client, the loopback and, "
            "for `newconn`, the connection (the server closes after each response). Below the "
            "table, per query, each server's server time (handling + sending) and its multiple "
            "of the fastest's: the original comparison found one library's server overhead ten "
            "times the other's.", "",
            table(["server", "family", "connection", "call", "µs per call", "handling µs",
                   "sending µs", "rest µs", "server share"], rows,
                  ["l", "l", "l", "l"] + ["r"] * 5), ""]
    for call in SCRIPTING_QUERIES:
        t = d["server_time"].get(call, {})
        if len(t) < 2:
            continue
        fast = min(t, key=t.get)
        others = ", ".join(f"`{srv}` {us(t[srv])} µs ({t[srv] / t[fast]:.1f}×)"
                           for srv in sorted(t, key=t.get) if srv != fast)
        text.append(f"- `{call}`: `{fast}` {us(t[fast])} µs, {others}")
    return "\n".join(text).rstrip()
