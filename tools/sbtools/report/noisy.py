"""Noisy results: the benchmarks whose repetitions vary by more than NOISY, noisiest first."""
from sbtools.fmt import table
from sbtools.report.data import MARK, NOISY

TITLE = "Noisy results"
SOURCE = None
SHOWN = 40


def compute(run):
    res = run.data.res
    noisy = sorted(((r.cv, n) for n, r in res.items() if r.error is None and r.noisy(NOISY)),
                   reverse=True)
    if not noisy:
        return None
    return {"rows": [{"name": n, "cv": cv, "reps": res[n].reps} for cv, n in noisy]}


def markdown(d, _charts):
    rows = [[f"`{x['name']}`", f"{x['cv'] * 100:.1f}%", str(x["reps"])] for x in d["rows"][:SHOWN]]
    more = f"\n\n… and {len(d['rows']) - SHOWN} more." if len(d["rows"]) > SHOWN else ""
    return (f"Results whose coefficient of variation across repetitions exceeds {NOISY:.0%} "
            f"(marked {MARK} in the tables above), noisiest first:\n\n" +
            table(["benchmark", "cv", "repetitions"], rows) + more)
