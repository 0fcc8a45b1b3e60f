"""Decode throughput per adapter and family: the relative table, the headline messages with
their statistics and instruction counts, absolute times of the seed messages, the chart."""
import math

from sbtools import names
from sbtools.fmt import fmt_num, short, table, us
from sbtools.report.data import MARK, NOISY, bytes_per_msg, headline_decode, headline_rule
from sbtools.stats import ci_text, median_ci

TITLE = "Decode throughput per adapter and family"
SOURCE = "icount"
SEED_FILES = ("getRate.call", "complex.call", "respond.7500B.response")


def compute(run):
    data, rank = run.data, run.rank
    if not rank:
        return None
    fams = list(rank)
    adapters = [a for a in data.adapters if any(a == x[0] for r in rank.values() for x in r)]
    relative = [{"adapter": a, "ratios": {f: next((x[1] for x in rank[f] if x[0] == a), None)
                                          for f in fams}} for a in adapters]
    dec = data.level("decode")
    seeds = []
    for pick in SEED_FILES:
        have = {(a, f): r for (a, f, fl), r in dec.items() if fl == pick}
        if not have:
            continue
        rows = [{"adapter": a, "times": {f: (have[(a, f)].time, have[(a, f)].noisy(NOISY))
                                         for f in fams if (a, f) in have}}
                for a in adapters if any((a, f) in have for f in fams)]
        sizes = {f: bytes_per_msg(r) for (a, f), r in have.items()}
        seeds.append({"file": pick, "rows": rows, "bytes": {f: sizes.get(f) for f in fams}})
    return {"families": fams, "files": {f: rank[f][0][2] for f in fams}, "relative": relative,
            "headline": headline(data), "seeds": seeds}


def headline(data):
    """Per family, its headline message: per adapter median, interval, instructions, verdict."""
    rows, bench_names = [], []
    for fam, (fl, rk) in headline_decode(data).items():
        lead = rk.result(rk.leader)
        counts = {a: data.instr(names.build("level", level="decode", adapter=a, family=fam,
                                            file=fl)) for a, _r in rk.order}
        fewest = min((c or math.inf) for c in counts.values())
        for a, r in rk.order:
            name = names.build("level", level="decode", adapter=a, family=fam, file=fl)
            bench_names.append(name)
            apart = rk.apart.get(a)
            rows.append({"family": fam, "file": fl, "adapter": a, "reps": r.reps,
                         "median_ns": r.time, "interval_ns": (median_ci(r.times) or [None] * 2)[:2],
                         "ci_text": ci_text(r), "noisy": data.mark(name) != "",
                         "vs_lowest": r.time / lead.time, "instructions": counts[a],
                         "instr_ratio": counts[a] / fewest if counts[a] and fewest < math.inf
                         else None,
                         "leader": a == rk.leader,
                         "apart": None if apart is None else apart[0],
                         "p": None if apart is None else apart[1]})
    return {"rows": rows, "note": data.icount_note(bench_names), "rule": headline_rule(data)}


def verdict(row):
    if row["leader"]:
        return "lowest median"
    if row["p"] is None:
        return "–"
    return f"behind (p = {row['p']:.2g})" if row["apart"] else f"tied (p = {row['p']:.2g})"


def headline_markdown(h):
    rows = [[short(x["family"]), f"`{x['file']}`", f"`{x['adapter']}`", str(x["reps"]),
             x["ci_text"] + (MARK if x["noisy"] else ""), f"{x['vs_lowest']:.2f}",
             fmt_num(x["instructions"]),
             f"{x['instr_ratio']:.2f}" if x["instr_ratio"] is not None else "–", verdict(x)]
            for x in h["rows"]]
    text = ["Headline messages (the repeated ones), per family: " + h["rule"] + ". µs, median "
            "[interval]; *vs lowest*: time over the lowest median; instructions per message "
            "(tools/icount) and their ratio to the family's fewest, which do not vary with the "
            "machine's noise; the last column compares each adapter with the lowest median.",
            "", table(["family", "message", "adapter", "n", "µs", "vs lowest", "instructions",
                       "instr. ratio", "vs the lowest median"], rows,
                      ["l", "l", "l", "r", "r", "r", "r", "r", "l"])]
    return "\n".join(text + (["", h["note"]] if h["note"] else []))


def markdown(d, charts):
    fams = d["families"]
    head = ["adapter"] + [short(f) for f in fams]
    rows = [[f"`{x['adapter']}`"] + ["–" if x["ratios"][f] is None else f"{x['ratios'][f]:.2f}"
                                     for f in fams] for x in d["relative"]]
    nfiles = [f"{short(f)}: {d['files'][f]}" for f in fams]
    text = ["Time relative to the lowest geometric mean of the family (1.00; geometric mean "
            "of the per-message ratios over the decode messages every adapter of the family ran — "
            + ", ".join(nfiles) + " messages). Higher = slower. Most of these messages run "
            "once, so this table ranks nothing; the headline table below does, where its "
            "statistics allow.", "",
            table(head, rows), "", headline_markdown(d["headline"])]
    for seed in d["seeds"]:
        rows = [[f"`{x['adapter']}`"] + [f"{us(x['times'][f][0])}{MARK if x['times'][f][1] else ''}"
                                         if f in x["times"] else "–" for f in fams]
                for x in seed["rows"]]
        size_row = ["*bytes*"] + [fmt_num(seed["bytes"][f]) for f in fams]
        text += ["", f"Decode of `{seed['file']}`, µs per message (median):", "",
                 table(head, rows + [size_row])]
    if charts:
        groups = [(short(f), [(x["adapter"], 1.0 / x["ratios"][f]) for x in d["relative"]
                              if x["ratios"][f] is not None]) for f in fams]
        fig, _ax = charts.grouped(groups, "throughput relative to the lowest geometric mean (1.0)",
                                  "decode throughput per adapter and family", "decode.svg", ref=1.0)
        text += ["", charts.save(fig, "decode.svg", "decode throughput per adapter and family")]
    return "\n".join(text)
