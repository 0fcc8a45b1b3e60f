"""Your messages: the report's section on `soapbench compare` results.

`soapbench compare PATH...` writes Google Benchmark JSON (compare.json in its working folder;
`tools/results save FILE` keeps it as <date>_<sha>.compare.json) whose benchmark names are
level/adapter/family/<message> (the message's name may hold '/'), and whose context says per
message what it is (compare_file:<message>), which adapters were left out of a level and why
(compare_out:<benchmark name>), which timed work differs in a stated way (compare_flag:<name>),
and which messages were not compared (compare_skipped:<n>). rows() turns a document into rows,
render() into Markdown; the ranking words follow the report's rule (sbtools.stats.Ranking), and,
as on the report's first screen (report.right_answers), a wrong answer never wins: work that
differs in a stated way is not ranked on its message, and an adapter that answered one message
wrong (it disagreed with the others, or its work differed) is not ranked over the messages.
"""
import math
from collections import OrderedDict, defaultdict

from sbtools import facts, gbench, names, stats

TITLE = "Your messages"
SOURCE = None  # the compare documents are among the run's benchmark files
LEVELS = ("parse", "walk", "decode")


def is_compare(doc):
    """True for a `soapbench compare` Google Benchmark document."""
    return gbench.is_gb(doc) and gbench.context(doc).get("bench_set") == "compare"


def split_name(name):
    """(level, adapter, family, message) of a compare benchmark name, or None."""
    f = names.fields(gbench.pair_name(name), "level")  # the message, the last field, may hold '/'
    return (f["level"], f["adapter"], f["family"], f["file"]) if f and f["level"] in LEVELS \
        else None


def messages(doc):
    """{message: {"format", "family", "bytes"}} in the order the run named them."""
    out = OrderedDict()
    for k, v in gbench.context(doc).items():
        if k.startswith("compare_file:"):
            out[k[len("compare_file:"):]] = facts.packed(v)
    return out


def left_out(doc):
    """[(message, level, adapter, why)] of the adapters not timed, in the run's order."""
    out = []
    for k, v in gbench.context(doc).items():
        if k.startswith("compare_out:"):
            parsed = split_name(k[len("compare_out:"):])
            if parsed:
                level, adapter, _family, message = parsed
                out.append((message, level, adapter, str(v)))
    return out


def skipped(doc):
    """The lines of messages that were not compared at all (empty, binary, too large, ...)."""
    ctx = gbench.context(doc)
    keys = sorted((k for k in ctx if k.startswith("compare_skipped:")),
                  key=lambda k: int(k.split(":", 1)[1]))
    return [str(ctx[k]) for k in keys]


DIFFERS = "work differs"  # the word of a result whose work differs from the others' (flagged)


def disagrees(why):
    """Whether a left-out line is a different answer rather than a refusal (the lines of
    harness/equal_work.cpp: "its Digest … differs from the one …", "its decoded value differs
    from the one …")."""
    return "differs from the one" in why


def wrong_answers(doc):
    """{adapter: [(message, level, why)]}: where an adapter answered differently from the others
    (left out for it) or did work that differs in a stated way (flagged)."""
    out = defaultdict(list)
    for message, level, adapter, why in left_out(doc):
        if disagrees(why):
            out[adapter].append((message, level, why))
    for k, v in gbench.context(doc).items():
        parsed = split_name(k[len("compare_flag:"):]) if k.startswith("compare_flag:") else None
        if parsed:
            level, adapter, _family, message = parsed
            out[adapter].append((message, level, str(v)))
    return out


def words(results, differs=()):
    """{adapter: ranking word} among `results` ({adapter: gbench.Result}), as
    measure/ranking.cpp prints them: fastest / tied / behind / not ranked / only one; an adapter
    in `differs` (flagged work) gets "work differs" and the others are ranked without it."""
    out = {a: DIFFERS for a in results if a in differs}
    results = {a: r for a, r in results.items() if a not in differs}
    return {**out, **_words(results)}


def _words(results):
    if len(results) < 2:
        return {a: "only one" for a in results}
    rk = stats.Ranking(results)
    if not rk.repeated:
        return {a: "not ranked" for a in results}
    out = {}
    for label, _r in rk.order:
        if label == rk.leader:
            out[label] = "fastest" if rk.clear else "tied"
        else:
            out[label] = "behind" if rk.apart[label][0] else "tied"
    return out


def rows(doc):
    """One dict per timed (message, level, adapter), fastest first within a message and level:
    message, family, bytes, level, adapter, time_ns (median), ci (lo, hi, coverage) or None,
    mb_s, allocs, peak_kib, word, flag."""
    facts = messages(doc)
    ctx = gbench.context(doc)
    groups = defaultdict(dict)  # (message, level) -> {adapter: Result}
    family = {}
    for name, r in gbench.results_of(doc).items():
        parsed = split_name(name)
        if not parsed or r.error is not None or r.time is None:
            continue
        level, adapter, fam, message = parsed
        groups[(message, level)][adapter] = r
        family[message] = fam
    out = []
    order = list(facts) + [m for m, _l in groups if m not in facts]
    for message in OrderedDict.fromkeys(order):
        size = int(facts.get(message, {}).get("bytes", 0) or 0)
        for level in LEVELS:
            results = groups.get((message, level))
            if not results:
                continue
            flagged = {a for a in results
                        if ctx.get(f"compare_flag:{level}/{a}/{family[message]}/{message}")}
            ranked = words(results, flagged)
            for adapter, r in sorted(results.items(), key=lambda kv: kv[1].time):
                name = f"{level}/{adapter}/{family[message]}/{message}"
                peak = r.counter("peak_heap_bytes")
                out.append({
                    "message": message, "family": family[message], "bytes": size,
                    "level": level, "adapter": adapter, "time_ns": r.time,
                    "ci": stats.median_ci(r.times), "reps": r.reps,
                    "mb_s": size / r.time * 1e3 if size and r.time else None,
                    "allocs": r.counter("allocs_per_msg"),
                    "peak_kib": peak / 1024 if peak is not None else None,
                    "word": ranked[adapter], "flag": str(ctx.get(f"compare_flag:{name}", ""))})
    return out


def summary(row_list, wrong=()):
    """{level: [(adapter, geometric mean of time over each message's lowest, messages,
    times ranked fastest)]}, lowest first, over the adapters not in `wrong` (those that answered
    some message wrong are not ranked over the messages)."""
    row_list = [r for r in row_list if r["adapter"] not in wrong]
    lowest = {}
    for r in row_list:
        key = (r["message"], r["level"])
        lowest[key] = min(lowest.get(key, math.inf), r["time_ns"])
    acc = defaultdict(lambda: defaultdict(list))
    wins = defaultdict(lambda: defaultdict(int))
    for r in row_list:
        acc[r["level"]][r["adapter"]].append(r["time_ns"] / lowest[(r["message"], r["level"])])
        wins[r["level"]][r["adapter"]] += r["word"] == "fastest"
    out = {}
    for level in LEVELS:
        if level in acc:
            out[level] = sorted(((a, stats.geomean(v), len(v), wins[level][a])
                                 for a, v in acc[level].items()), key=lambda t: t[1])
    return out


def _us(ns):
    v = ns / 1e3
    return f"{v:,.0f}" if v >= 100 else f"{v:.3g}"


def _table(head, body, left=1):
    """A Markdown table; the first `left` columns left-aligned, the rest right-aligned."""
    lines = ["| " + " | ".join(head) + " |",
             "| " + " | ".join(["---"] * left + ["---:"] * (len(head) - left)) + " |"]
    lines += ["| " + " | ".join(str(c).replace("|", "\\|") for c in r) + " |" for r in body]
    return "\n".join(lines)


def render(docs, max_left_out=40, whose="your messages"):
    """The section's Markdown for the compare documents `docs` (the newest last), or ""; `whose`
    names the messages in its first line."""
    docs = [d for d in docs if is_compare(d)]
    if not docs:
        return ""
    doc = docs[-1]
    row_list = rows(doc)
    facts = messages(doc)
    reps = max((r["reps"] for r in row_list), default=0)
    text = [f"`soapbench compare` on {len(facts)} of {whose} ({reps} repetitions, randomly "
            "interleaved). Before timing, every adapter's walk Digest and decoded value were "
            "compared: the reference is what most adapters that accept the message produce (ties "
            "broken by libxml2 and RapidJSON); an adapter that refuses or disagrees is named below "
            "and not timed on that message. µs: median [interval of the median]; the ranking "
            "words follow the Statistics section's rule; † marks work that differs in a stated way "
            "(a named fastest mode without entity decoding).", ""]
    wrong = wrong_answers(doc)
    for level, entries in summary(row_list, wrong).items():
        text += [f"**{level}**, over the messages: time over each message's lowest median "
                 "(geometric mean), adapters with right answers on every message", "",
                 _table(["adapter", "messages", "× lowest", "ranked fastest"],
                        [[f"`{a}`", n, f"{g:.2f}", w] for a, g, n, w in entries]), ""]
    if wrong:
        text += ["Not ranked over the messages (a wrong answer on at least one, never a row that "
                 "can win):", ""]
        text += [f"- `{a}`: " + "; ".join(f"`{m}` {lv}: {why}" for m, lv, why in ws)
                 for a, ws in sorted(wrong.items())] + [""]
    body = []
    for r in row_list:
        ci = r["ci"]
        interval = f"[{_us(ci[0])}, {_us(ci[1])}]" if ci else "(once)"
        body.append([f"`{r['message']}`", r["family"], r["level"],
                     f"`{r['adapter']}`" + (" †" if r["flag"] else ""),
                     f"{_us(r['time_ns'])} {interval}",
                     f"{r['mb_s']:.1f}" if r["mb_s"] else "–",
                     f"{r['allocs']:.0f}" if r["allocs"] is not None else "–",
                     f"{r['peak_kib']:.1f}" if r["peak_kib"] is not None else "–", r["word"]])
    text += ["Per message:", "", _table(["message", "family", "level", "adapter", "µs",
                                          "MB/s", "allocs", "peak KiB", "rank"], body, left=4)]
    flags = sorted({(r["adapter"], r["flag"]) for r in row_list if r["flag"]})
    if flags:
        text += [""] + [f"† `{a}`: {f}" for a, f in flags]
    out = left_out(doc)
    if out:
        text += ["", "Not timed (the adapter refused the message or disagreed with the others):", ""]
        text += [f"- `{m}` {lv}: `{a}`: {why}" for m, lv, a, why in out[:max_left_out]]
        if len(out) > max_left_out:
            text.append(f"- … and {len(out) - max_left_out} more")
    gone = skipped(doc)
    if gone:
        text += ["", "Not compared:", ""] + [f"- {line}" for line in gone]
    return "\n".join(text)


def compute(run):
    """The newest `soapbench compare` document among the run's files, or None."""
    return run.data.compare[-1] if run.data.compare else None


def markdown(doc, _charts):
    return render([doc])
