"""Allocations and peak memory per message at the decode level (malloc interposition)."""
from sbtools.fmt import fmt_num, short, table
from sbtools.report.data import families_in

TITLE = "Allocations and peak memory"
SOURCE = None
FILES = ("complex.call", "respond.7500B.response", "respond.64KB.response")


def compute(run):
    data = run.data
    dec = data.level("decode")
    if not any(r.counter("allocs_per_msg") is not None for r in dec.values()):
        return None
    tables = []
    for pick in FILES:
        have = {(a, f): r for (a, f, fl), r in dec.items() if fl == pick
                and r.counter("allocs_per_msg") is not None}
        if not have:
            continue
        fams = families_in(data, [(a, f) for (a, f) in have], idx=1)
        rows = [{"adapter": a, "cells": {f: (have[(a, f)].counter("allocs_per_msg"),
                                             (have[(a, f)].counter("peak_heap_bytes") or 0))
                                         for f in fams if (a, f) in have}}
                for a in data.adapters if any((a, f) in have for f in fams)]
        tables.append({"file": pick, "families": fams, "rows": rows})
    return {"tables": tables, "adapters": list(data.adapters)}


def markdown(d, charts):
    text = ["Steady-state allocations and peak heap for one message (malloc interposition, every "
            "library's allocations), decode level.", ""]
    for t in d["tables"]:
        rows = [[f"`{r['adapter']}`"] + [f"{fmt_num(r['cells'][f][0])} / "
                                         f"{fmt_num(r['cells'][f][1] / 1024)}"
                                         if f in r["cells"] else "–" for f in t["families"]]
                for r in t["rows"]]
        text += [f"`{t['file']}`: allocations / peak KiB per message", "",
                 table(["adapter"] + [short(f) for f in t["families"]], rows), ""]
    if charts and d["tables"]:
        t = d["tables"][0]
        fig = charts.memory_bars(t["file"], t["families"], d["adapters"],
                                 {(r["adapter"], f): v for r in t["rows"]
                                  for f, v in r["cells"].items()})
        text += [charts.save(fig, "memory.svg", "allocations and peak memory per adapter")]
    return "\n".join(text)
