"""The whole call, counted exactly (tools/callcount): each side's instructions, system calls,
allocations, context switches and locks per call and the bytes each way, beside the parse rows
(tools/icount's decode of the same message, and its estimated cycles)."""
from sbtools import gbench, names
from sbtools.fmt import fmt_num, pct, table, whole
from sbtools.paths import rel

TITLE = "The whole call, counted exactly"
SOURCE = "callcount"
ONE_CALL = "getRate"  # the call counted with every adapter and with a connection per call


def _rows(doc):
    """{(variant, family, adapter, call): {side: {counter: value}}} of a tools/callcount file."""
    out = {}
    for b in doc.get("benchmarks", []):
        f = names.fields(str(b.get("name", "")), "callcount")
        if f is None:
            continue
        counters = {k: v for k, v in b.items() if gbench.is_number(v)}
        out.setdefault((f["variant"], f["family"], f["adapter"], f["call"]), {})[f["side"]] = counters
    return out


def _row(data, key, sides):
    """One row: its fields, both sides' counters and the parse rows of the same messages:
    tools/icount's decode of the request (the server parses it) and of the answer (the client
    does), instructions per message, None where the counts hold no such row."""
    _variant, family, adapter, call = key
    return {"family": family, "adapter": adapter, "call": call,
            "client": sides.get("client", {}), "server": sides.get("server", {}),
            "request_parse": data.instr(f"decode/{adapter}/{family}/{call}.call"),
            "answer_parse": data.instr(f"decode/{adapter}/{family}/{call}.response")}


def _cycles(data):
    """[(adapter, family, parse instructions, parse cycles, decode instructions, decode cycles)]
    of the 64 KB response where tools/icount simulated the caches."""
    got = {gbench.pair_name(k): v
           for k, v in ((data.icount_doc or {}).get("estimated_cycles") or {}).items()}
    out = []
    for name in sorted(got):
        f = names.fields(name, "level")
        if not f or f["level"] != "parse" or f["file"] != "respond.64KB.response" or \
                f["family"] not in ("xmlrpc", "jsonrpc") or f["adapter"].endswith("-direct"):
            continue
        dec = f"decode/{f['adapter']}/{f['family']}/{f['file']}"
        out.append((f["adapter"], f["family"], data.instr(name), got[name], data.instr(dec),
                    got.get(dec)))
    return out


def compute(run):
    got = run.read("callcount")
    if not got or got[1] is None:
        return None
    rows = _rows(got[1])
    if not rows:
        return None
    ctx = gbench.context(got[1])
    default = {fam: names.field(ctx.get(f"default_adapter:{'json' if fam == 'jsonrpc' else 'xml'}",
                                        "")) for _v, fam, _a, _c in rows}
    made = {k: _row(run.data, k, v) for k, v in rows.items()}
    alive = {k[1:]: r for k, r in made.items() if k[0] == "keepalive"}
    return {
        "file": rel(got[0]), "calls": got[1].get("callcount", {}).get("calls"),
        "defaults": [r for k, r in made.items() if k[0] == "keepalive" and k[2] == default[k[1]]],
        "newconn": [(r, alive.get(k[1:])) for k, r in made.items() if k[0] == "newconn"],
        "adapters": [r for k, r in made.items() if k[0] == "keepalive" and k[3] == ONE_CALL
                     and k[1] in ("soap11-rpc-encoded", "jsonrpc")],
        "cycles": _cycles(run.data),
    }


def _pair(r, key, fmt=fmt_num):
    return f"{fmt(r['client'].get(key))} / {fmt(r['server'].get(key))}"


def _share(part, whole_count):
    return pct(100 * part / whole_count) if part and whole_count else "–"


def _syscall_list(side):
    calls = sorted((k.split(":", 1)[1], v) for k, v in side.items() if k.startswith("syscalls:"))
    return ", ".join(f"{n} {fmt_num(v)}" for n, v in calls) or "–"


def _defaults_table(rows):
    out = []
    for r in rows:
        parse = r["request_parse"] or r["answer_parse"]
        side = "server" if r["request_parse"] else "client"
        out.append([f"{r['family']}", f"`{r['call']}`", _pair(r, "instructions", whole),
                    f"{whole(parse)} ({_share(parse, r[side].get('instructions'))} of the {side})"
                    if parse else "–",
                    _pair(r, "syscalls"), _pair(r, "allocs_per_call"),
                    _pair(r, "voluntary_switches"), _pair(r, "lock_calls"),
                    f"{whole(r['client'].get('request_bytes'))} / "
                    f"{whole(r['client'].get('response_bytes'))}"])
    return table(["family", "call", "instructions client / server", "corpus parse (tools/icount)",
                  "system calls", "allocations", "blocked", "mutex locks", "bytes out / in"],
                 out)


def _newconn_table(pairs):
    out = []
    for r, ka in pairs:
        extra = lambda side, key: (r[side].get(key, 0) - ka[side].get(key, 0)) if ka else None  # noqa: E731
        out.append([r["family"], _pair(r, "instructions", whole),
                    f"{whole(extra('client', 'instructions'))} / "
                    f"{whole(extra('server', 'instructions'))}",
                    f"{fmt_num(extra('client', 'syscalls'))} / "
                    f"{fmt_num(extra('server', 'syscalls'))}",
                    _syscall_list(r["server"])])
    return table(["family", "instructions client / server", "more than keep-alive",
                  "more system calls", "the server's system calls per call"], out)


def _adapters_table(rows):
    out = []
    for r in sorted(rows, key=lambda r: (r["family"], r["server"].get("instructions", 0))):
        server = r["server"].get("instructions")
        out.append([f"`{r['adapter']}`", r["family"], whole(server),
                    whole(r["request_parse"]), _share(r["request_parse"], server),
                    _pair(r, "allocs_per_call"), _pair(r, "syscalls"), _pair(r, "lock_calls")])
    return table(["adapter", "family", "server instructions", "corpus parse (tools/icount)",
                  "of the server's", "allocations c / s", "system calls c / s", "mutex locks c / s"],
                 out)


def _cycles_table(rows):
    out = [[f"`{a}`", fam, whole(pi), whole(pc), f"{pc / pi:.2f}" if pi and pc else "–",
            whole(di), whole(dc), f"{dc / di:.2f}" if di and dc else "–"]
           for a, fam, pi, pc, di, dc in rows]
    return table(["adapter", "family", "parse instr.", "parse est. cycles", "cycles / instr.",
                  "decode instr.", "decode est. cycles", "cycles / instr."], out)


def markdown(d, charts):
    text = [f"Per call, exact on every run of a build (tools/callcount, `{d['file']}`, "
            f"{d['calls']} calls a row): client and server in one process on one CPU, the "
            "server's thread above the client's at SCHED_FIFO priority, so a request is served "
            "at once and the client finds the answer waiting. Instructions (callgrind, per side), "
            "system calls (strace, per side), allocations, times a side blocked (voluntary "
            "context switches) and mutex locks (client / server), bytes on the wire (TCP payload, "
            "HTTP headers in). The corpus parse is tools/icount's decode of the call's corpus file "
            "(the request, which the server parses, or the answer, which the client does), beside "
            "what it is of that side's instructions: the same call, not the same bytes (the "
            "client's encoder writes its own; the corpus files are indented), so a heavy parser "
            "can reach 100%.", ""]
    if d["defaults"]:
        text += ["**Each family's seed calls, default adapters, one connection kept alive**", "",
                 _defaults_table(d["defaults"]), ""]
    if d["newconn"]:
        text += [f"**A connection per call** (`{ONE_CALL}`): what connecting, accepting, the "
                 "socket options and closing add", "", _newconn_table(d["newconn"]), ""]
    if d["adapters"]:
        text += [f"**Every adapter** (`{ONE_CALL}`, kept alive): the server's whole handling "
                 "beside its parser's part", "", _adapters_table(d["adapters"]), ""]
    if d["cycles"]:
        text += ["**Cache-aware cost of the parse rows** (tools/icount, callgrind's cache "
                 "simulation: L1 hits + 5 × LL hits + 35 × RAM accesses, `respond.64KB.response`; "
                 "gated there, where an unrelated code move shifted it by at most 0.05%; on the "
                 "small messages it moved by up to 1.9% and is information only)", "",
                 _cycles_table(d["cycles"]), ""]
    return "\n".join(text).rstrip()
