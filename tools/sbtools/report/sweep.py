"""Throughput against message size: the respond.<size>.response messages per adapter."""
import re
from collections import defaultdict

from sbtools.fmt import fmt_num, short, table
from sbtools.report.data import MARK, NOISY, bytes_per_msg, families_in, mb_per_s

TITLE = "Throughput against message size"
SOURCE = None


def compute(run):
    data = run.data
    out = {}
    for level in ("decode", "parse"):
        for (a, fam, f), r in data.level(level).items():
            m = re.fullmatch(r"respond\.(\w+)\.response", f)
            if m and bytes_per_msg(r):
                out.setdefault(level, defaultdict(list))[(fam, a)].append(
                    (bytes_per_msg(r), r, m.group(1)))
    level = next((l for l in ("decode", "parse")
                  if l in out and any(len(v) >= 2 for v in out[l].values())), None)
    if level is None:
        return None
    series = out[level]
    fams = families_in(data, [(a, fam) for (fam, a) in series], idx=1)
    tags = []
    for _b, tag in sorted({(b, tag) for v in series.values() for b, _r, tag in v}):
        if tag not in tags:
            tags.append(tag)
    rows = []
    for fam in fams:
        for a in data.adapters:
            pts = {tag: r for _b, r, tag in series.get((fam, a), [])}
            if pts:
                rows.append({"family": fam, "adapter": a,
                             "mb_s": {t: (mb_per_s(r), r.noisy(NOISY)) for t, r in pts.items()}})
    lines = {fam: [(a, sorted((b, mb_per_s(r)) for b, r, _t in series[(fam, a)]))
                   for a in data.adapters if series.get((fam, a))] for fam in fams}
    return {"level": level, "sizes": tags, "rows": rows, "families": fams, "lines": lines}


def markdown(d, charts):
    text = [f"`{d['level']}` throughput of the `respond.<size>.response` messages against their "
            "size (MB/s, median). Small messages pay the fixed cost per message; large ones show "
            "the parser's streaming speed.", ""]
    rows = [[short(r["family"]), f"`{r['adapter']}`"] +
            [f"{fmt_num(r['mb_s'][t][0])}{MARK if r['mb_s'][t][1] else ''}" if t in r["mb_s"]
             else "–" for t in d["sizes"]] for r in d["rows"]]
    text.append(table(["family", "adapter"] + d["sizes"], rows,
                      ["l", "l"] + ["r"] * len(d["sizes"])))
    if charts:
        fig = charts.size_lines(d["families"], d["lines"])
        text += ["", charts.save(fig, "sweep.svg", "throughput against message size")]
    return "\n".join(text)
