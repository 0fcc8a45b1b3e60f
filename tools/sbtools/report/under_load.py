"""Servers under load: tools/server_load's cells per call, their problems, the targets of
issue 12 and issue 14's CPU per call outside decode and encode against nginx's."""
from sbtools import names
from sbtools.fmt import fmt_num, md_escape, table
from sbtools.paths import rel

TITLE = "Servers under load"
SOURCE = "server_load"
# The columns of each connection count (the first one prefixed with the count).
LOAD_COLUMNS = ["req/s", "p50 µs", "p99 µs", "CPU µs/call", "× nginx"]
NGINX_TARGET = 1.5  # issue 14: our CPU per call outside decode and encode, at most × nginx's


def nginx_targets(cells, rt):
    """Issue 14's target for each soapbench cell: its CPU per call minus roundtrip_bench's
    server_decode_ns + server_encode_ns of the same family, adapter and call (keep-alive), over
    nginx's CPU per fixed answer at the same connection count."""
    floor = {c["connections"]: c["cpu_us_per_call"] for c in cells
             if c["server"] == "nginx" and c.get("cpu_us_per_call")}
    out = []
    for c in cells:
        if c["server"] != "soapbench" or "cpu_x_nginx" not in c:
            continue
        parser = names.field(c.get("parser") or "")
        r = (rt or {}).get(("keepalive", c.get("family"), parser, c["call"]))
        t = {"call": c["call"], "parser": c["parser"], "connections": c["connections"],
             "x_nginx": c["cpu_x_nginx"], "cpu": c["cpu_us_per_call"],
             "row": names.build("roundtrip", variant="keepalive", family=c.get("family", "?"),
                                parser=parser, call=c["call"]), "phases": None}
        if r is not None:
            t["phases"] = ((r.counter("server_decode_ns") or 0) +
                           (r.counter("server_encode_ns") or 0)) / 1e3
            t["nginx"] = floor[c["connections"]]
            t["ratio"] = (t["cpu"] - t["phases"]) / t["nginx"]
        out.append(t)
    return out


def compute(run):
    got = run.read("server_load")
    if got is None:
        return None
    path, doc, error = got
    if doc is None:
        return {"path": rel(path), "error": f"could not be read: {error}"}
    cells, ctx = doc.get("cells", []), doc.get("context", {})
    return {"path": rel(path), "error": None, "context": ctx, "cells": cells,
            "calls": list(dict.fromkeys(c.get("call") for c in cells)),
            "with_nginx": any("cpu_x_nginx" in c for c in cells),
            "targets": doc.get("targets", []), "nginx_targets": nginx_targets(cells, run.rt)}


def cells_of(rec):
    """The cells of one server row: req/s, p50, p99, CPU µs per call (median, and min–max
    where they differ) and that CPU as a multiple of nginx's, or dashes for a cell in error."""
    if "cpu_us_per_call" not in rec:
        return ["–"] * len(LOAD_COLUMNS)
    lo, hi = rec["range"]["rps"]
    spread = f" ({lo:,.0f}–{hi:,.0f})" if hi > lo else ""
    clo, chi = rec["range"]["cpu_us_per_call"]
    cspread = f" ({clo:.1f}–{chi:.1f})" if chi > clo else ""
    floor = f"{rec['cpu_x_nginx']:.2f}×" if "cpu_x_nginx" in rec else "–"
    return [f"{rec['rps']:,.0f}{spread}", fmt_num(rec["p50_us"]), fmt_num(rec["p99_us"]),
            f"{rec['cpu_us_per_call']:.1f}{cspread}", floor]


def call_table(cells, call, with_nginx):
    """One call's table: a row per server (and adapter), a column group per connection count
    (without the × nginx column when the run had no nginx floor, as before issue 14)."""
    mine = [c for c in cells if c.get("call") == call]
    conns = sorted({c["connections"] for c in mine})
    width = len(LOAD_COLUMNS) if with_nginx else len(LOAD_COLUMNS) - 1
    rows = {}
    for c in mine:
        rows.setdefault((c["server"], c.get("parser") or ""), {})[c["connections"]] = c
    head = ["server", "parser"]
    for n in conns:
        head += [f"{n} conn: {LOAD_COLUMNS[0]}"] + LOAD_COLUMNS[1:width]
    head.append("served")
    body = []
    for (server, parser), by in rows.items():
        line = [f"`{server}`", f"`{parser}`" if "/" in parser else parser]
        for n in conns:
            line += cells_of(by[n])[:width] if n in by else [""] * width
        line.append(", ".join(f"{by[n].get('connections_served', '–')}/{n}"
                              + (" **!**" if by[n]["problems"] else "") for n in conns if n in by))
        body.append(line)
    return table(head, body, ["l", "l"] + ["r"] * (len(head) - 2))


def nginx_lines(targets):
    out = []
    for t in targets:
        what = (f"- `{t['call']}`, soapbench (`{t['parser']}`), {t['connections']} "
                f"connection(s): total {t['x_nginx']:.2f}× nginx")
        if t["phases"] is None:
            out.append(f"{what}; outside decode and encode: no `{t['row']}` in this report's "
                       "round-trip results")
            continue
        out.append(f"{what}; outside decode and encode {t['cpu']:.1f} − "
                   f"{t['phases']:.1f} µs = **{t['ratio']:.2f}×** nginx's "
                   f"{t['nginx']:.1f} µs (target at most {NGINX_TARGET}×): "
                   f"{'PASS' if t['ratio'] <= NGINX_TARGET else 'SHORT'}")
    return out


def intro(d):
    ctx = d["context"]
    return (f"From `{d['path']}` (`{ctx.get('command', 'tools/server_load')}`, "
            f"{ctx.get('date', '?')}): "
            f"each server pinned to CPU {ctx.get('server_cpu', '?')}, wrk {ctx.get('wrk', '?')} "
            f"on CPU {ctx.get('load_cpu', '?')} POSTing the corpus call over keep-alive connections for "
            f"{ctx.get('duration_s', '?')} s, {ctx.get('reps', '?')} runs per cell interleaved: median "
            "(min–max). CPU µs/call is the server process's utime+stime over the calls served; "
            "served counts the connections on which the server sent bytes during the run "
            "(**!**: a cell with a problem, listed below)."
            + (" × nginx: CPU per call over nginx's at the same connection count (the HTTP "
               "floor: nginx answering the fixed getRate response, whatever the call)."
               if d["with_nginx"] else ""))


def markdown(d, _charts):
    if d["error"]:
        return f"`{d['path']}` {d['error']}"
    text = [intro(d), ""]
    for call in d["calls"]:
        text += [f"`{call}`:", "", call_table(d["cells"], call, d["with_nginx"]), ""]
    problems = [f"- `{c['server']}` {c.get('parser') or ''} `{c['call']}` at {c['connections']}: "
                + "; ".join(md_escape(p) for p in c["problems"]) for c in d["cells"] if c["problems"]]
    if problems:
        text += ["Problems:", ""] + problems + [""]
    targets = [f"- `{t['call']}`: soapbench (`{t['parser']}`) / {t['peer']} CPU per call at "
               f"{t['connections']} connection(s): **{t['ratio']:.3f}×** (target at most "
               f"{t['target']}×): {t['verdict']}" for t in d["targets"]]
    if targets:
        text += ["Targets (issue 12):", ""] + targets
    floor = nginx_lines(d["nginx_targets"])
    if floor:
        text += ["", "Target (issue 14), CPU per call outside decode and encode against nginx's: "
                 "the decode and encode phases are roundtrip_bench's per-call averages of the "
                 "server's decode and encode (`server_decode_ns`, `server_encode_ns`; one thread, "
                 "so about their CPU time) for the same family, adapter and call, from another "
                 "process and run:", ""] + floor
    if any(t["verdict"] != "PASS" for t in d["targets"]):
        text += ["", "Where a target is short, docs/load.md \"Servers under load\" holds the "
                 "evidence: the CPU per call of a server that does nothing but read and answer "
                 "(the sleep and wake-up per call, almost all system time) against these, and the "
                 "instructions per call of each server under callgrind."]
    return "\n".join(text).rstrip()
