"""2001 DOM vs pull, now: the classic/<adapter>/... rows against the 2001 figures."""
import re

from sbtools import names
from sbtools.fmt import fmt_num, table, us
from sbtools.report.data import MARK, NOISY

TITLE = "2001 DOM vs pull, now"
SOURCE = None
CLASSIC_2001 = {"DOM": 740.0, "pull": 150.0}  # µs per call, 450 MHz machine (2001)


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
    if not rows:
        return None
    m = re.search(r"iterations:(\d+)", data.raw_names.get(first, ""))
    return {"iterations": int(m.group(1)) if m else None, "then": CLASSIC_2001,
            "rows": [{"adapter": a, "model": mo, "ns": t, "noisy": n}
                     for t, a, mo, n in sorted(rows)]}


def markdown(d, _charts):
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
