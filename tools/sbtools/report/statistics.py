"""Statistics: the ranking rule, the interval of the median, every repeated result's interval."""
from sbtools import stats
from sbtools.fmt import table, us

TITLE = "Statistics"
SOURCE = None


def compute(run):
    rows = []
    for name, r in run.data.res.items():
        ci = stats.median_ci(r.times) if r.error is None else None
        if ci is not None:
            rows.append({"name": name, "reps": r.reps, "median": r.time, "lo": ci[0], "hi": ci[1],
                         "coverage": ci[2]})
    return {"rows": rows, "short": sum(r["coverage"] < stats.CI_LEVEL for r in rows)}


def markdown(d, _charts):
    text = [
        "Every claim that one result is ahead of another follows one rule: the two results have "
        f"repetitions, a two-sided Mann-Whitney U test over their repetitions' real times gives "
        f"p ≤ {stats.RANK_ALPHA:g} (scipy.stats.mannwhitneyu), and the two intervals of the medians "
        "below do not overlap. Otherwise the report says *tied within noise* and lists the tied "
        "entries; results that ran once are not ranked at all. Table ratios (relative times, "
        "overheads) are numbers, not claims.", "",
        f"Interval of the median: distribution-free, from order statistics — "
        f"[x₍ₖ₎, x₍ₙ₊₁₋ₖ₎] covers the median with probability 1 − 2·P(B ≤ k−1), "
        f"B ~ binomial(n, ½); the narrowest such interval reaching {stats.CI_LEVEL:.0%} is given. "
        f"With fewer than {stats.min_ci_n()} repetitions no interval reaches "
        f"{stats.CI_LEVEL:.0%}: the table then gives [min, max] with its lower coverage "
        "(5 repetitions: 93.8%)."]
    if not d["rows"]:
        return "\n".join(text + ["", "No benchmark in these files has repetitions."])
    if d["short"]:
        text.append(f"{d['short']} of the {len(d['rows'])} repeated results have too few "
                    f"repetitions for {stats.CI_LEVEL:.0%} (coverage column below "
                    f"{stats.CI_LEVEL:.0%}).")
    rows = [[f"`{r['name']}`", str(r["reps"]), us(r["median"]), f"{us(r['lo'])} – {us(r['hi'])}",
             f"{r['coverage']:.1%}"] for r in d["rows"]]
    text += ["", "Every repeated result, µs:", "",
             table(["benchmark", "n", "median", "interval", "coverage"], rows)]
    return "\n".join(text)
