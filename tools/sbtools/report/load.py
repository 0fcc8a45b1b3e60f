"""Load: transactions per second against concurrency (tools/load_bench): closed-loop TPS per
family and server, the open loop's latency against rate, generator-bound points and the
generator's capacity (issue 14)."""
from sbtools import peers
from sbtools.fmt import table, us, whole
from sbtools.paths import rel

TITLE = "Load: transactions per second against concurrency"
SOURCE = "load"
CAPACITY_TARGET = 3  # issue 14: the generator drives at least this × our fastest family's TPS
GENERATOR_BOUND_SHARE = 0.9  # a point whose generator threads were this busy is generator-bound


JVM_LABEL = "JVM, after warm-up"  # a JVM server's label: loaded only after its JIT warm-up


def label(run):
    """A load sweep's line label: the server and, for ours, its adapter; a JVM server says it
    was warmed up first (its figures are steady-state JVM ones, not C++ ones)."""
    if run["server"] == "soapbench":
        return f"{run['server']} ({run['parser']})"
    return f"{run['server']} ({JVM_LABEL})" if peers.is_jvm_stack(run["server"]) else run["server"]


def capacity(doc):
    """The capacity step's figures against our server's closed-loop peak, or None without it."""
    cap = doc.get("capacity")
    if not cap:
        return None
    out = {"server": cap["server"], "call": cap["call"], "connections": cap["connections"],
           "error": cap.get("error"), "ceiling": cap.get("ceiling_tps")}
    if out["ceiling"] is None:
        return out
    p = cap["points"][0]
    out.update(tps=p["tps"], threads=p["generator_threads"], share=p["generator_cpu_share"],
               per_cpu_s=cap["calls_per_cpu_s"], cpus=cap["generator_cpus"], peak=None)
    ours = [(pt["tps"] or 0, r, pt) for r in doc.get("runs", [])
            if r["mode"] == "closed" and r["server"] == "soapbench" for pt in r["points"]]
    if ours:
        y, r, pt = max(ours, key=lambda o: o[0])
        out["peak"] = {"tps": y, "family": r["family"], "call": r["call"], "label": label(r),
                       "connections": pt["connections"]}
    return out


def compute(run):
    got = run.read("load")
    if got is None:
        return None
    path, doc, error = got
    if doc is None:
        return {"path": rel(path), "error": f"could not be read: {error}"}
    runs = doc.get("runs", [])
    bound = [f"`{r['server_id']}` {r['family']} {r['call']} "
             + (f"c={p['connections']}" if p["mode"] == "closed" else f"r={p['rate']:.0f}")
             for r in runs for p in r["points"]
             if (p.get("generator_cpu_share") or 0) >= GENERATOR_BOUND_SHARE]
    return {"path": rel(path), "error": None, "context": doc.get("context", {}), "runs": runs,
            "closed_calls": sorted({r["call"] for r in runs if r["mode"] == "closed"}),
            "bound": bound, "capacity": capacity(doc)}


def tps_table(runs, call):
    """Rows [family, server, TPS per connection count..., errors, CPU µs/call at the most]."""
    conns = sorted({p["connections"] for r in runs if r["mode"] == "closed" for p in r["points"]})
    rows = []
    for r in runs:
        if r["mode"] != "closed" or r["call"] != call:
            continue
        by = {p["connections"]: p for p in r["points"]}
        last = by[max(by)] if by else {}
        rows.append([f"`{r['family']}`", label(r)]
                    + [whole(by[c]["tps"]) if c in by else "–" for c in conns]
                    + [str(sum(p["errors_total"] for p in r["points"]) if by else r.get("error")),
                       whole(last.get("server_cpu_us_per_call"))])
    head = ["family", "server"] + [f"TPS c={c}" for c in conns] + ["errors", "CPU µs/call"]
    return table(head, rows, ["l", "l"] + ["r"] * (len(conns) + 2))


def open_table(runs):
    def us_of(v):
        return us(v * 1000 if v else None)
    rows = [[f"`{r['family']}`", label(r), r["call"], whole(p["rate"]), whole(p["tps"]),
             us_of(p["p50_us"]), us_of(p["p99_us"]), us_of(p["p999_us"]), str(p["errors_total"]),
             str(p.get("unsent", 0))]
            for r in runs if r["mode"] == "open" for p in r["points"]]
    return table(["family", "server", "call", "rate asked", "TPS", "p50 µs", "p99 µs", "p99.9 µs",
                  "errors", "unsent"], rows, ["l", "l", "l"] + ["r"] * 7) if rows else None


def capacity_text(c):
    where = (f"`soapbench load` against {c['server']} answering the fixed `{c['call']}` "
             f"response at {c['connections']} connections")
    if c["ceiling"] is None:
        return f"Generator capacity: {where} gave no figure ({c['error']})."
    text = (f"Generator capacity (issue 14: the generator drives at least {CAPACITY_TARGET}× the "
            f"TPS of our fastest HTTP family): {where} reached {whole(c['tps'])} TPS with its "
            f"{c['threads']} thread(s) busy {c['share']:.0%} of the time, "
            f"{whole(c['per_cpu_s'])} calls per generator CPU-second; on the "
            f"{c['cpus']} CPU it may use, its ceiling is **{whole(c['ceiling'])} "
            "calls/s** against the fixed answer.")
    peak = c["peak"]
    if not peak:
        return text + " No closed-loop point of our server in this run to compare."
    y = peak["tps"]
    ratio = c["ceiling"] / y if y else float("inf")
    verdict = ("PASS" if ratio >= CAPACITY_TARGET else
               f"generator-bound: figures above {whole(c['ceiling'] / CAPACITY_TARGET)} "
               "TPS may be limited by the generator")
    limit = ("the generator's threads, busy all the time, were the limit"
             if c["share"] >= GENERATOR_BOUND_SHARE else
             f"{c['server']} on its one CPU was the limit")
    return (text + f" Our server's peak in the same run: {whole(y)} TPS (`{peak['family']}` "
            f"{peak['call']}, {peak['label']}, c={peak['connections']}); ceiling / peak = "
            f"{ratio:.2f}× (target {CAPACITY_TARGET}×): **{verdict}**. (The ceiling extrapolates "
            f"the CPU per call to a thread always busy; what was driven, {whole(c['tps'])} TPS, "
            f"is {c['tps'] / y:.2f}× the peak, where {limit}.)")


def jvm_note(runs):
    """What the reader must know about JVM servers' rows, or ''."""
    jvm = sorted({r["server"] for r in runs if peers.is_jvm_stack(r["server"])})
    if not jvm:
        return closing_note(runs)
    return (" Rows marked *" + JVM_LABEL + "* are servers on the JVM (" + ", ".join(jvm) +
            "): each answered the corpus's round-trip calls thousands of times before it was "
            "loaded (JIT warm-up, logged apart), so they are steady-state JVM figures."
            + closing_note(runs))


def closing_note(runs):
    """A sentence per loaded peer that closes every connection (its declared CLOSES), or ''."""
    loaded = {r["server"] for r in runs}
    return "".join(f" {p['label']} {p['closes']}, so each of its calls includes a TCP connect "
                   "(the generator reconnects)." for p in peers.declared()
                   if p["closes"] and p["name"] in loaded)


def markdown(d, charts):
    if d["error"]:
        return f"`{d['path']}` {d['error']}"
    ctx = d["context"]
    text = [f"From `{d['path']}` (`{ctx.get('command', 'tools/load_bench')}`, "
            f"{ctx.get('date', '?')}): `soapbench load` on CPU {ctx.get('load_cpu', '?')}, each "
            f"server pinned to CPU {ctx.get('server_cpu', '?')}, {ctx.get('duration_s', '?')} s per "
            f"point after {ctx.get('warmup_s', '?')} s of warm-up, every answer checked (a wrong "
            "answer is an error, never throughput). The encoding-style study's figures: "
            "transactions per second against concurrency for 2,500 and 7,500 byte responses per "
            "family (it measured rpc/encoded falling from 19.8 to 5.3 TPS while document/literal "
            "held at 24). CPU µs/call: the server's at the highest connection count."
            + jvm_note(d["runs"])]
    for call in d["closed_calls"]:
        text += ["", f"**{call}**, closed loop:", "", tps_table(d["runs"], call)]
    opened = open_table(d["runs"])
    if opened:
        text += ["", "Open loop (latency from each call's due time, so a stalled server's queue "
                 "shows: coordinated omission avoided), rates at fractions of the closed-loop "
                 "peak:", "", opened]
    if d["bound"]:
        text += ["", f"Generator-bound points ({len(d['bound'])}; `soapbench load`'s threads busy "
                 f"{GENERATOR_BOUND_SHARE:.0%} of the time or more, so the server may have had "
                 "room left): " + ", ".join(d["bound"]) + "."]
    if d["capacity"]:
        text += ["", capacity_text(d["capacity"])]
    if charts:
        text += [""] + charts.load_charts(d["runs"], label)
    return "\n".join(text)
