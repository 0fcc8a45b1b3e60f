"""What `tools/track ab` says: the terminal's lines, a Markdown comment for the pull request,
GitHub Actions annotations (as tools/track gate prints them, summary.py) and the JSON a script
reads (--json)."""
import json
import os
from statistics import median

from .summary import MAX_ANNOTATIONS, MAX_ROWS, _escape, pct, value


def interval(d):
    low = pct(d.low) if d.low is not None else "−∞"
    high = pct(d.high) if d.high is not None else "+∞"
    return f"[{low}, {high}]"


def _groups(result):
    worse = [o for o in result.outcomes if o.worse]
    better = [o for o in result.outcomes if o.decision.state == "different" and not o.worse]
    same = [o for o in result.outcomes if o.decision.state == "same"]
    open_ = [o for o in result.outcomes if o.decision.state == "undecided" and not o.error]
    failed = [o for o in result.outcomes if o.error]
    key = lambda o: -abs(o.decision.shift or 0.0)  # noqa: E731
    return (sorted(worse, key=key), sorted(better, key=key), same, sorted(open_, key=key),
            failed)


def _mid(values):
    return median(values) if values else None


def headline(result):
    r = result
    loads = f", load average {min(r.load):.1f}–{max(r.load):.1f}" if r.load else ""
    commits = ""
    if r.commits:
        commits = f" (`{r.commits.get('base', '?')}` against `{r.commits.get('head', '?')}`)"
    each = r.outcomes[0].decision.alpha if r.outcomes else r.alpha
    return (f"base `{r.base.path}` against head `{r.head.path}`{commits}: {r.settings.mode}, "
            f"{r.rounds} rounds in {r.seconds / 60:.1f} min (budget {r.budget / 60:g} min; "
            f"stopped: {r.stopped_by}){loads}. {len(r.outcomes)} comparisons at family alpha "
            f"{r.alpha:g} (each {each:.2g}); same = within ±{r.margin * 100:g}%.")


def _table(outcomes):
    out = ["| benchmark | metric | base | head | shift | interval (all rounds) | rounds | p |",
           "|---|---|---:|---:|---:|---|---:|---:|"]
    for o in outcomes[:MAX_ROWS]:
        d = o.decision
        out.append(f"| `{o.name}` | {o.metric} | {value(_mid(o.base))} | {value(_mid(o.head))} | "
                   f"{pct(d.shift) if d.shift is not None else '-'} | {interval(d)} | "
                   f"{d.rounds} | {d.p:.2g} |")
    if len(outcomes) > MAX_ROWS:
        out.append(f"| … {len(outcomes) - MAX_ROWS} more | | | | | | | |")
    return out


def markdown(result):
    worse, better, same, open_, failed = _groups(result)
    out = [f"### soapbench timing A/B: {result.verdict}", "", headline(result), ""]
    out.append(f"{len(worse)} slower, {len(better)} faster, {len(same)} same, {len(open_)} "
               f"undecided within the budget" + (f", {len(failed)} failed" if failed else "") +
               ". An interval holds at every round at once (a confidence sequence); shifts are "
               "head / base − 1.")
    out.append("")
    for level, text in result.notes:
        out.append(f"- **{level}**: {text}")
    if result.notes:
        out.append("")
    if failed:
        out += [f"**Failed ({len(failed)})**", ""] + [f"- `{o.name}` {o.metric}: {o.error}"
                                                        for o in failed[:MAX_ROWS]] + [""]
    if worse:
        out += [f"**Slower ({len(worse)})**", ""] + _table(worse) + [""]
    for title, rows in ((f"Faster ({len(better)})", better),
                        (f"Undecided within the budget ({len(open_)})", open_),
                        (f"Same ({len(same)})", same)):
        if rows:
            out += [f"<details><summary>{title}</summary>", ""] + _table(rows) + \
                ["", "</details>", ""]
    return "\n".join(out).rstrip() + "\n"


def annotations(result):
    """::error per regression and per row failing in head, as tools/track gate prints them."""
    worse, _b, _s, _o, failed = _groups(result)
    out = []
    for o in worse:
        d = o.decision
        out.append(f"::error title={_escape(f'{o.metric} {pct(d.shift)}: {o.row}')}::" +
                   _escape(f"{o.suite}: {value(_mid(o.base))} -> {value(_mid(o.head))} "
                           f"({pct(d.shift)}, {interval(d)} over {d.rounds} rounds, "
                           f"p={d.p:.2g}); timing A/B in this job"))
    for o in failed:
        level = "error" if o.error.startswith("head") else "warning"
        out.append(f"::{level} title={_escape(f'fails: {o.row}')}::{_escape(o.error)}")
    for level, text in result.notes:
        if level in ("warning", "error"):
            out.append(f"::{level} title=soapbench timing A/B::{_escape(text)}")
    return out[:MAX_ANNOTATIONS]


def text(result):
    """The terminal's lines."""
    worse, better, same, open_, failed = _groups(result)
    out = [f"{level}: {t}" for level, t in result.notes]
    for o in failed:
        out.append(f"failed      {o.name} {o.metric}: {o.error}")
    for word, rows in (("slower", worse), ("faster", better)):
        for o in rows:
            d = o.decision
            out.append(f"{word:<11} {o.name} {o.metric} {pct(d.shift)} {interval(d)} "
                       f"({d.rounds} rounds, p={d.p:.2g})")
    if open_:
        out.append(f"undecided   {len(open_)}: " + ", ".join(
            f"{o.name} {o.metric} {pct(o.decision.shift) if o.decision.shift is not None else '?'}"
            f" {interval(o.decision)}" for o in open_[:5]) + (" ..." if len(open_) > 5 else ""))
    out.append(headline(result).replace("`", ""))
    out.append(f"verdict: {result.verdict} ({len(worse)} slower, {len(better)} faster, "
               f"{len(same)} same, {len(open_)} undecided)")
    return out


def as_json(result):
    r = result
    return {"tool": "tools/track ab", "verdict": r.verdict, "exit": r.exit_code,
            "base": {"path": r.base.path, "env": r.base.env, "commit": r.commits.get("base")},
            "head": {"path": r.head.path, "env": r.head.env, "commit": r.commits.get("head")},
            "mode": r.settings.mode, "min_time": r.settings.min_time, "alpha": r.alpha,
            "margin": r.margin, "budget_s": r.budget, "seconds": round(r.seconds, 1),
            "rounds": r.rounds, "stopped_by": r.stopped_by, "load_average": r.load,
            "notes": [{"level": lv, "text": t} for lv, t in r.notes],
            "comparisons": [dict(_without_key(o.decision.as_dict()), suite=o.suite, benchmark=o.row,
                                 metric=o.metric, slower=o.worse, error=o.error or None,
                                 base=o.base, head=o.head) for o in r.outcomes]}


def _without_key(d):
    d.pop("key", None)
    return d


def publish(result, markdown_path=None, json_path=None):
    """Annotations and the job summary under GitHub Actions; the Markdown and JSON files."""
    md = markdown(result)
    if os.environ.get("GITHUB_ACTIONS") == "true":
        for line in annotations(result):
            print(line)
        summary = os.environ.get("GITHUB_STEP_SUMMARY")
        if summary:
            with open(summary, "a", encoding="utf-8") as f:
                f.write(md + "\n")
    if markdown_path:
        with open(markdown_path, "w", encoding="utf-8") as f:
            f.write(md)
    if json_path:
        doc = json.dumps(as_json(result), indent=1)
        if json_path == "-":
            print(doc)
        else:
            with open(json_path, "w", encoding="utf-8") as f:
                f.write(doc + "\n")
    return md
