"""Real stacks: stacks_bench's round trips per <client>~<server> pair (keep-alive, and a new
connection per call in the families a JVM peer ran in), and each stack's own deserializer beside
our adapters on the same corpus file. Stacks on the JVM (peers.is_jvm_stack: their declarations)
are labelled as timed after the JIT's warm-up wherever they appear."""
from sbtools import names, peers
from sbtools.fmt import fmt_num, short, table, us
from sbtools.report.data import MARK, NOISY, call_key, families_in, total_ns

TITLE = "Real stacks"
SOURCE = None
REFERENCE_PAIR = names.pair("soapbench", "soapbench")  # ours, placed as the stacks' servers are


def stack_pairs(pairs):
    """Column order: ours on both ends, then per stack its own ends, its client against our
    server, our client against its server."""
    order = [REFERENCE_PAIR] if REFERENCE_PAIR in pairs else []
    for stack in sorted(p for p in pairs if names.split_pair(p) is None):
        order += [p for p in (stack, names.pair(stack, "soapbench"), names.pair("soapbench", stack))
                  if p in pairs]
    return order + sorted(set(pairs) - set(order))


def roundtrips(data, rt):
    """Per family: its pairs and per call each pair's µs, ratio to ours and bytes."""
    out = []
    for fam in families_in(data, [(None, f) for (f, _p, _c) in rt]):
        keys = [k for k in rt if k[0] == fam]
        pairs = stack_pairs({p for _f, p, _c in keys})
        rows = []
        for call in sorted({c for _f, _p, c in keys}, key=call_key):
            ref = rt.get((fam, REFERENCE_PAIR, call))
            cells = {}
            for p in pairs:
                r = rt.get((fam, p, call))
                if r is not None:
                    cells[p] = {"ns": total_ns(r), "noisy": r.noisy(NOISY),
                                "ratio": total_ns(r) / total_ns(ref)
                                if ref is not None and p != REFERENCE_PAIR else None,
                                "sent": r.counter("bytes_sent"),
                                "received": r.counter("bytes_received")}
            rows.append({"call": call, "cells": cells})
        out.append({"family": fam, "pairs": pairs, "rows": rows})
    return out


def decoders(data, dec):
    """decode/<stack>/... beside our fastest and our default adapter on the same file."""
    ours = data.level("decode")
    default = data.facts.default_bench_name("xml") or ""
    fams = families_in(data, [(None, f) for (_s, f, _m) in dec])
    rows = []
    for stack, fam, msg in sorted(dec, key=lambda k: (k[0], fams.index(k[1]), call_key(k[2]))):
        mine = {a: r for (a, f, m), r in ours.items() if f == fam and m == msg}
        best = min(mine, key=lambda a: mine[a].time) if mine else None
        rows.append({"stack": stack, "family": fam, "message": msg, "ns": dec[(stack, fam, msg)].time,
                     "fastest": (best, mine[best].time) if best else None,
                     "default": mine[default].time if default in mine else None})
    return {"default": default, "ours": bool(ours), "rows": rows}


def compute(run):
    rt, nc, dec = {}, {}, {}  # (family, pair, call) keep-alive, new connection; (stack, family, msg)
    for f, r in run.data.stacks_of_kind("roundtrip"):
        if f["variant"] in ("keepalive", "newconn"):
            (rt if f["variant"] == "keepalive" else nc)[(f["family"], f["parser"], f["call"])] = r
    for f, r in run.data.stacks_of_kind("level"):
        if f["level"] == "decode" and "/" not in f["file"]:
            dec[(f["adapter"], f["family"], f["file"])] = r
    # New-connection rows of the families a JVM stack ran in (the scripting stacks' own newconn
    # rows are the Scripting section's).
    jvm_families = {f for (f, p, _c) in nc if peers.is_jvm_stack(p)}
    nc = {k: r for k, r in nc.items() if k[0] in jvm_families}
    if not rt and not nc and not dec:
        return None
    return {"roundtrips": roundtrips(run.data, rt) if rt else None,
            "newconn": roundtrips(run.data, nc) if nc else None,
            "no_bytes": sorted({p for (_f, p, _c), r in rt.items()
                                if r.counter("bytes_sent") is None}),
            "decoders": decoders(run.data, dec) if dec else None}


def pair_cell(c):
    ratio = "" if c["ratio"] is None else f" ({c['ratio']:.2g}×)"
    return f"{us(c['ns'])}{ratio}{MARK if c['noisy'] else ''}"


JVM_LABEL = "JVM, after warm-up"  # a JVM stack's column or row: timed after the JIT's warm-up


def pair_head(p):
    """A pair's column head; a pair with a JVM end says it was timed after warm-up."""
    return f"`{p}` µs ({JVM_LABEL})" if peers.is_jvm_stack(p) else f"`{p}` µs"


def family_tables(families):
    """Per family: its name and its table of pairs (µs and bytes per call)."""
    text = []
    for fam in families:
        rows = []
        for row in fam["rows"]:
            line = [f"`{row['call']}`"]
            for p in fam["pairs"]:
                c = row["cells"].get(p)
                line += ["–", "–"] if c is None else [pair_cell(c), pair_bytes(c)]
            rows.append(line)
        head = ["call"] + [x for p in fam["pairs"] for x in (pair_head(p), "bytes")]
        text += [f"**{fam['family']}**", "", table(head, rows), ""]
    return text


def jvm_note(families):
    """The sentence that says which columns are JVM stacks, or ''."""
    jvm = sorted({p for fam in families for p in fam["pairs"] if peers.is_jvm_stack(p)})
    if not jvm:
        return ""
    return (" Columns marked *" + JVM_LABEL + "* have a JVM stack at one end (" +
            ", ".join(f"`{p}`" for p in jvm) + "): its server answered thousands of calls "
            "before the first timed one (JIT warm-up, reported apart by the server), so these are "
            "steady-state JVM times, not a cold start; they are not C++ times.")


def pair_bytes(c):
    return "–" if c["sent"] is None else f"{fmt_num(c['sent'])} / {fmt_num(c['received'])}"


def transports():
    """The declared transports other than HTTP/1.1, by stack name: "; <transport> for `<name>`"."""
    return "".join(f"{', ' if i else '; '}{p['transport']} for `{p['name']}`" for i, p in
                   enumerate(sorted((p for p in peers.declared() if p["transport"]),
                                    key=lambda p: p["name"])))


def closing():
    """" (Apache Axis answers …)": how the JVM peers that close every connection do it."""
    said = [f"{p['label']} {p['closes']}" for p in peers.declared() if p["jvm"] and p["closes"]]
    return f" ({'; '.join(said)})" if said else ""


def roundtrip_markdown(d):
    text = ["Real RPC stacks (docs/peers.md) against soapbench's own client and server: "
            f"keep-alive connections on loopback (HTTP/1.1{transports()}), "
            "every server a child process of stacks_bench "
            f"(`soapbench serve --threads 1` for `{REFERENCE_PAIR}` and the `<stack>~soapbench` "
            "pairs), the client in stacks_bench. A column is `<client>~<server>`; a stack's name "
            "alone is its own client and server. µs per round trip (`total_ns`; in brackets the "
            f"multiple of `{REFERENCE_PAIR}`), then bytes sent / received per call counted at the "
            "client's socket. The stacks expose no phase split (encoding and decoding happen "
            "inside their generated stubs): totals only; their deserializers alone are in the "
            "next table."]
    if d["no_bytes"]:
        text[0] += (" No byte counts for " + ", ".join(f"`{p}`" for p in d["no_bytes"]) +
                    ": that client does not expose its socket, and bytes are not estimated.")
    text[0] += jvm_note(d["roundtrips"])
    return text + [""] + family_tables(d["roundtrips"])


def newconn_markdown(d):
    text = ["A new connection per call (stacks_bench's `roundtrip/newconn/...` rows): for a stack "
            f"that closes every connection{closing()}, our client calls every server of the table "
            "the same way, each a child "
            "process of stacks_bench (`soapbench serve --threads 1` for "
            f"`{REFERENCE_PAIR}`), every answer checked before timing. µs per call including "
            "the TCP connect, in brackets the multiple of `" + REFERENCE_PAIR + "`; bytes sent / "
            "received per call." + jvm_note(d["newconn"]), ""]
    return text + family_tables(d["newconn"])


def decoders_markdown(d):
    rows = []
    for r in d["rows"]:
        row = [f"`{r['stack']}`", short(r["family"]), f"`{r['message']}`", us(r["ns"])]
        best = r["fastest"]
        row += ["–", "–"] if best is None else [f"{us(best[1])} (`{best[0]}`)",
                                                f"{r['ns'] / best[1]:.2g}×"]
        # The default column names the adapter too when it is the fastest (as the first does).
        named = best is not None and best[0] == d["default"]
        row += ["–", "–"] if r["default"] is None else [
            f"{us(r['default'])} (`{d['default']}`)" if named else us(r["default"]),
            f"{r['ns'] / r['default']:.2g}×"]
        rows.append(row)
    text = ["Deserializers alone, from memory: each stack's own decoding of a corpus message "
            "(`decode/<stack>/<family>/<message>`, stacks_bench) beside our fastest adapter's and "
            f"our default adapter's (`{d['default'] or '?'}`) decode of the same file (parse_bench); "
            "µs per message, and the stack's time as a multiple of ours.", ""]
    if not d["ours"]:
        text[0] += " No parse_bench results were loaded: our columns are empty."
    text.append(table(["stack", "family", "message", "stack µs", "our fastest µs", "stack ÷ fastest",
                       "our default µs", "stack ÷ default"], rows,
                      ["l", "l", "l"] + ["r"] * 5))
    return text


def markdown(d, _charts):
    return "\n".join((roundtrip_markdown(d) if d["roundtrips"] else []) +
                     (newconn_markdown(d) if d.get("newconn") else []) +
                     (decoders_markdown(d["decoders"]) if d["decoders"] else []))
