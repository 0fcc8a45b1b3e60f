"""Rounds until decided: which of the first screen's comparisons the rounds decided (different,
same within the margin, undecided) and with how many rounds (tools/bench_rounds'
decisions, sbtools.rounds)."""
from collections import Counter, OrderedDict

from sbtools.fmt import family_title, table
from sbtools.rounds import adapter_of as adapter

TITLE = "Rounds until decided"
SOURCE = None
SHOWN = 4   # comparisons not decided different named per family (the rest counted)
# The HTML's line for a run without the rounds (report.page.missing_text).
MISSING = ("Not in these results: no `tools/bench_rounds` file (`parse_bench_rounds.json`) was "
           "given or stored in the machine folder: `ctest --test-dir build -R bench.headline` "
           "(part of `ctest -L bench`) writes one (docs/benchmarks.md \"Rounds until decided\").")


def verdict(c):
    """A comparison in words: 'a 1.23× faster than b (23 rounds)', 'a and b within 2% (…)'."""
    a, b, s = adapter(c["base"]), adapter(c["head"]), c.get("shift") or 0.0
    if c["state"] == "different":
        fast, slow, ratio = (a, b, 1 + s) if s > 0 else (b, a, 1 / (1 + s))
        return f"`{fast}` {ratio:.2f}× faster than `{slow}` ({c['rounds']} rounds)"
    if c["state"] == "same":
        return f"`{a}` and `{b}` the same within the margin ({c['rounds']} rounds)"
    return f"`{a}` against `{b}`: undecided after {c['rounds']} rounds"


def compute(run):
    doc = run.data.rounds
    if not doc:
        return None
    families = OrderedDict()
    for c in doc.get("comparisons", []):
        families.setdefault(c["family"], []).append(c)
    return {"doc": doc, "families": families}


def family_row(fam, comps, n_leaders):
    states = Counter(c["state"] for c in comps)
    decided = [c["rounds"] for c in comps if c["state"] != "undecided"]
    leaders = list(dict.fromkeys(adapter(c["base"]) for c in comps))[:n_leaders]
    open_or_same = [verdict(c) for c in comps if c["state"] != "different"]
    if len(open_or_same) > SHOWN:
        open_or_same = open_or_same[:SHOWN] + [f"{len(open_or_same) - SHOWN} more"]
    return [family_title(fam), ", ".join(f"`{a}`" for a in leaders), str(len(comps)),
            str(states["different"]),
            str(states["same"]), str(states["undecided"]),
            f"{min(decided)}–{max(decided)}" if decided else "–",
            "; ".join(open_or_same) or "–"]


def markdown(d, _charts):
    doc = d["doc"]
    comps = [c for cs in d["families"].values() for c in cs]
    states = Counter(c["state"] for c in comps)
    why = {"decided": "every comparison was decided",
           "budget": f"the budget ({doc['budget_s']:.0f} s) ended",
           "max-rounds": "the most rounds allowed ran"}.get(doc["stopped"], doc["stopped"])
    text = [
        f"The first screen's benchmarks ran in rounds until decided (`tools/bench_rounds`): a "
        f"pilot of {doc['pilot_rounds']} rounds ordered each family, then each adapter was "
        f"compared with the first {doc.get('leaders', 1)} of its family in the pilot, and the "
        f"first {doc['top']} with their neighbours, round by round, by the sequential test "
        "`tools/track ab` uses (a confidence sequence for the median of each round's log ratio; "
        "sbtools/sequential.py). A row stopped "
        "running when its comparisons were decided. All the decisions together are right with "
        f"probability at least {1 - doc['alpha']:.0%}; *same* means within "
        f"{doc['margin']:.0%}. {doc['rounds']} rounds in {doc['seconds']:.0f} s; they stopped "
        f"because {why}: {states['different']} different, {states['same']} same, "
        f"{states['undecided']} undecided of {len(comps)}. The first screen's ranking words "
        "follow these decisions where they compare the adapters it names (elsewhere the "
        "Mann-Whitney rule of [Statistics](#statistics) over the rounds).", ""]
    if doc.get("failed"):
        text += ["Left out (the benchmark failed): " + "; ".join(
            f"`{r}`: {e}" for r, e in sorted(doc["failed"].items())), ""]
    rows = [family_row(fam, cs, doc.get("leaders", 1)) for fam, cs in d["families"].items()]
    text.append(table(["family", "the pilot's leaders", "comparisons", "different", "same",
                       "undecided", "rounds to decide", "not different"], rows))
    return "\n".join(text)
