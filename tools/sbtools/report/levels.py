"""Parse vs walk vs decode: one message at the three levels, the cost over parse in instructions
and in time, and the chart."""
from sbtools import names
from sbtools.fmt import fmt_num, short, span, table
from sbtools.report.data import MARK, NOISY, families_in, mb_per_s

TITLE = "Parse vs walk vs decode"
SOURCE = "icount"
LEVELS = ("parse", "walk", "decode")


def pick_size(levels, prefer=("64KB", "16KB", "1KB", "1MB")):
    """The respond.<size>.response message every level ran."""
    for tag in prefer:
        f = f"respond.{tag}.response"
        if all(any(k[2] == f for k in lv) for lv in levels):
            return f
    return None


def adapter_row(data, lv, a, fam, pick):
    """One adapter's MB/s per level and its walk and decode cost over parse."""
    res = {l: lv[l].get((a, fam, pick)) for l in LEVELS}
    bench = {l: names.build("level", level=l, adapter=a, family=fam, file=pick) for l in LEVELS}
    instr = {l: data.instr(bench[l]) for l in LEVELS}
    row = {"family": fam, "adapter": a, "names": list(bench.values()),
           "mb_s": {l: mb_per_s(r) if r else None for l, r in res.items()},
           "noisy": {l: bool(r and r.noisy(NOISY)) for l, r in res.items()},
           "ran": {l: r is not None for l, r in res.items()}}
    for level in ("walk", "decode"):
        p, r = res["parse"], res[level]
        row[f"{level}_time"] = r.time / p.time if p and r else None
        row[f"{level}_instr"] = instr[level] / instr["parse"] if instr["parse"] and instr[level] \
            else None
    return row


def compute(run):
    data = run.data
    lv = {l: data.level(l) for l in LEVELS}
    if not all(lv.values()):
        return None
    pick = pick_size(list(lv.values()))
    if not pick:
        return None
    rows, groups = [], []
    for fam in families_in(data, [k for k in lv["parse"] if k[2] == pick]):
        adapters = [a for a in data.adapters if (a, fam, pick) in lv["parse"]]
        rows += [adapter_row(data, lv, a, fam, pick) for a in adapters]
        mem = data.get(names.build("scan", scan="memchr", family=fam, file=pick))
        if mem:
            rows.append({"family": fam, "memchr_mb_s": mb_per_s(mem)})
        groups.append({"family": fam, "adapters": adapters,
                       "mb_s": {l: [mb_per_s(lv[l][(a, fam, pick)]) if (a, fam, pick) in lv[l]
                                    else 0 for a in adapters] for l in LEVELS}})
    bench_names = [n for r in rows for n in r.get("names", [])]
    return {"file": pick, "rows": rows, "groups": groups, "note": data.icount_note(bench_names)}


def prose(rows):
    """The ratios stated from the instruction counts, the timings beside them."""
    parts = []
    for level in ("walk", "decode"):
        instr = [r[f"{level}_instr"] for r in rows if r.get(f"{level}_instr") is not None]
        times = [r[f"{level}_time"] for r in rows if r.get(f"{level}_time") is not None]
        timing = f"timings: {span(times)}" if times else "no timings"
        if instr:
            parts.append(f"`{level}` costs {span(instr)} `parse` in instructions ({timing})")
        elif times:
            parts.append(f"`{level}` costs {span(times)} `parse` in time (no instruction counts)")
    return ("Over the adapters below, " + "; ".join(parts) + ".") if parts else ""


def table_row(r):
    if "memchr_mb_s" in r:
        return [short(r["family"]), "*memchr floor*", fmt_num(r["memchr_mb_s"])] + [""] * 6
    cells = [f"{fmt_num(r['mb_s'][l])}{MARK if r['noisy'][l] else ''}" if r["ran"][l] else "–"
             for l in LEVELS]
    for level in ("walk", "decode"):
        cells += [f"{r[level + '_instr']:.2f}×" if r[level + "_instr"] else "–",
                  f"{r[level + '_time']:.2f}×" if r[level + "_time"] else "–"]
    return [short(r["family"]), f"`{r['adapter']}`", *cells]


def markdown(d, charts):
    text = [f"The same message (`{d['file']}`) at the three levels: `parse` (the library's own "
            "parse), `walk` (parse + every node visited and hashed into the Digest, "
            "docs/corpus.md), `decode` (parse + the protocol codec). MB/s, median; the last "
            "columns are the cost over `parse`, in instructions (tools/icount: the CPU work, "
            "free of the machine's noise) and in time.", "", prose(d["rows"]), "",
            table(["family", "adapter", "parse MB/s", "walk MB/s", "decode MB/s",
                   "walk/parse instr.", "walk/parse time", "decode/parse instr.",
                   "decode/parse time"], [table_row(r) for r in d["rows"]], ["l", "l"] + ["r"] * 7)]
    if d["note"]:
        text += ["", d["note"]]
    if charts:
        fig = charts.level_bars(d["groups"], LEVELS, d["file"])
        text += ["", charts.save(fig, "levels.svg", "parse vs walk vs decode")]
    return "\n".join(text)
