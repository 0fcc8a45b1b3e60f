"""2001 DOM vs pull, now: the classic/<adapter>/... rows against the 2001 figures, and the JVM's
parsers on the same envelope (jvm/<decoder>/..., jvm_decode_bench) in a table of their own,
labelled as JVM times after warm-up: the 2001 note's own kind of parsers (XPP, a Java DOM)."""
import re

from sbtools import names
from sbtools.fmt import fmt_num, table, us
from sbtools.report.data import MARK, NOISY

TITLE = "2001 DOM vs pull, now"
SOURCE = None
CLASSIC_2001 = {"DOM": 740.0, "pull": 150.0}  # µs per call, 450 MHz machine (2001)
CLASSIC_FILE = "getRate.call"  # the 2001 note's envelope (classic rows, jvm rows)
# The JVM decoders the 2001 note's pair stands for: a pull parser against a DOM one.
JVM_PULL, JVM_DOM = "xpp3-pull", "xerces-dom"


def jvm_rows(data):
    """The jvm/<decoder>/<family>/getRate.call rows: [{decoder, family, ns, noisy, warmup_ns,
    first_ns, iterations}] fastest first."""
    rows = []
    for name, r in data.res.items():
        f = names.fields(name, "jvm")
        if f is None or not f["file"].startswith(CLASSIC_FILE) or r.error or not r.time:
            continue
        rows.append({"decoder": f["decoder"], "family": f["family"], "ns": r.time,
                     "noisy": r.noisy(NOISY), "iterations": r.iterations,
                     "warmup_ns": r.counter("warmup_ns_per_message"),
                     "first_ns": r.counter("first_message_ns")})
    return sorted(rows, key=lambda x: x["ns"])


def cpp_pull_vs_dom(rows):
    """(fastest pull adapter, fastest DOM adapter, DOM ÷ pull) among the C++ classic rows."""
    def best(model):
        got = [r for r in rows if r["model"] == model]
        return min(got, key=lambda r: r["ns"]) if got else None
    pull, dom = best("pull"), best("dom")
    return (pull, dom, dom["ns"] / pull["ns"]) if pull and dom else None


def compute(run):
    data = run.data
    rows, first = [], None
    for name, r in data.res.items():
        f = names.fields(name, "level")
        if f is None or f["level"] != "classic":
            continue
        first = first or name  # its /iterations:N tells the count
        if r.error or not r.time:
            continue
        rows.append((r.time, f["adapter"], data.adapters.get(f["adapter"], {}).get("model", "?"),
                     r.noisy(NOISY)))
    jvm = jvm_rows(data)
    if not rows and not jvm:
        return None
    m = re.search(r"iterations:(\d+)", data.raw_names.get(first, "") if first else "")
    out = {"iterations": int(m.group(1)) if m else None, "then": CLASSIC_2001,
           "rows": [{"adapter": a, "model": mo, "ns": t, "noisy": n}
                    for t, a, mo, n in sorted(rows)], "jvm": jvm}
    out["cpp_pull_vs_dom"] = cpp_pull_vs_dom(out["rows"])
    return out


def cpp_markdown(d):
    then = d["then"]
    out = [[f"`{r['adapter']}`", r["model"], f"{us(r['ns'])}{MARK if r['noisy'] else ''}",
            fmt_num(1e9 / r["ns"]), f"{then['DOM'] * 1e3 / r['ns']:,.0f}×",
            f"{then['pull'] * 1e3 / r['ns']:,.0f}×"] for r in d["rows"]]
    n = f"{d['iterations']:,}" if d["iterations"] else "a fixed number of"
    return (f"The 2001 experiment again: the SOAP 1.1 rpc/encoded `getRate` envelope decoded "
            f"{n} times per measurement. The 2001 figures (constants, not from this run): "
            f"{then['DOM']:.0f} µs per call with a DOM parser and "
            f"{then['pull']:.0f} µs with a pull parser, on a 450 MHz machine.\n\n" +
            table(["adapter", "model", "µs per call", "calls/s", "× faster than 2001 DOM",
                   "× faster than 2001 pull"], out, ["l", "l", "r", "r", "r", "r"]))


def jvm_markdown(d):
    """The Java row of the 2001 table: XPP3 vs Xerces-J DOM, JVM times after warm-up."""
    rows = d["jvm"]
    dom = next((r for r in rows if r["decoder"] == JVM_DOM), None)
    n = f"{rows[0]['iterations']:,}" if rows[0]["iterations"] else "N"
    out = [[f"`{r['decoder']}`", f"{us(r['ns'])}{MARK if r['noisy'] else ''}",
            f"{dom['ns'] / r['ns']:.2g}×" if dom else "–",
            us(r["first_ns"]), us(r["warmup_ns"])] for r in rows]
    text = [f"**Java (JVM, after warm-up)**: XPP3 vs Xerces-J DOM, `getRate` × {n}, µs per "
            "message (`jvm/<decoder>/...`, jvm_decode_bench: each decoder warmed up before "
            "its timed repetitions, the first message and the warm-up's mean reported apart). "
            "JVM times, in their own table: not C++ rows.", "",
            table(["JVM decoder", "µs per message", "× Xerces-J DOM", "first message µs",
                   "warm-up µs/msg"], out, ["l", "r", "r", "r", "r"])]
    pull = next((r for r in rows if r["decoder"] == JVM_PULL), None)
    then = d["then"]
    ratios = [f"2001: {then['DOM'] / then['pull']:.1f}× (DOM {then['DOM']:.0f} µs, pull "
              f"{then['pull']:.0f} µs)"]
    if pull and dom:
        ratios.append("JVM now: " + faster("XPP3", "Xerces-J DOM", dom["ns"] / pull["ns"]))
    cpp = d.get("cpp_pull_vs_dom")
    if cpp:
        ratios.append("C++ now, the fastest adapter of each model above: " +
                      faster(f"`{cpp[0]['adapter']}` (pull)", f"`{cpp[1]['adapter']}` (DOM)",
                             cpp[2]))
    return text + ["", "Pull against DOM on this envelope — " + "; ".join(ratios) + "."]


def faster(pull, dom, dom_over_pull):
    """'PULL n× faster than DOM', or the other way round when the DOM parser is the faster."""
    if dom_over_pull >= 1:
        return f"{pull} {dom_over_pull:.1f}× faster than {dom}"
    return f"{dom} {1 / dom_over_pull:.1f}× faster than {pull}"


def markdown(d, _charts):
    parts = [cpp_markdown(d)] if d["rows"] else []
    if d["jvm"]:
        parts.append("\n".join(jvm_markdown(d)))
    return "\n\n".join(parts)
