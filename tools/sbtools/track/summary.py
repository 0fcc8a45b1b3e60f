"""What the gate says: a Markdown summary fit for a pull-request comment (only the significant
changes, each with its noise band), GitHub Actions annotations, the terminal's text, and the
machine-readable verdict (--json)."""
import dataclasses
import json
import os
import sys

MAX_ROWS = 30          # rows per table in the Markdown (the rest counted)
MAX_ANNOTATIONS = 20   # GitHub shows a few per step; more would only be noise


def pct(x):
    return f"{x * 100:+.2f}%"


def value(x):
    if x is None:
        return "-"
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.3g}"


def band_text(row):
    if row.status == "outside":
        return f"band ±{row.threshold * 100:.1f}%"
    if row.low != row.high:
        return f"{pct(row.low)} … {pct(row.high)} (95%)" + (f", p={row.p:.2g}" if row.p else "")
    if row.threshold == 0:
        return "exact: any change"
    return f"±{row.threshold * 100:.2f}%"


def _table(rows):
    out = ["| benchmark | metric | base | head | change | noise band | attributed to |",
           "|---|---|---:|---:|---:|---|---|"]
    for r in rows[:MAX_ROWS]:
        out.append(f"| `{r.suite}:{r.benchmark}` | {r.metric} | {value(r.base)} | "
                   f"{value(r.head)} | {pct(r.move)} | {band_text(r)} | {r.cause} |")
    if len(rows) > MAX_ROWS:
        out.append(f"| … {len(rows) - MAX_ROWS} more | | | | | | |")
    return out


def _ordered(rows, status, gating=None):
    picked = [r for r in rows if r.status == status and (gating is None or r.gating == gating)]
    return sorted(picked, key=lambda r: -abs(r.move))


def blind_text(spot):
    """The gate's blind spot, said where the verdict is: counts that moved with a changed
    environment field while the commits changed too."""
    return (f"{spot.suite}: {spot.benchmarks} benchmarks moved with {spot.fields} and are not "
            f"judged; the commits {spot.commits} changed too, and whether they moved these "
            "counts as well is unknown (the count moved; whether the code did, this gate cannot "
            "tell). To judge the code, record the base commit's counts on this environment and "
            "gate again.")


def _counted(result, detail=True):
    compared = sum(result.compared.values())
    parts = ", ".join(f"{k}: {v}" for k, v in sorted(result.compared.items()))
    info = f"; {result.informed} timings as information" if result.informed else ""
    return f"{compared} comparisons" + (f" ({parts})" if parts and detail else "") + info


def markdown(result):
    fails = _ordered(result.rows, "regression", True)
    env = _ordered(result.rows, "regression", False)
    better = _ordered(result.rows, "improvement")
    info = _ordered(result.rows, "outside")
    head = (f"### soapbench gate: {result.verdict}\n\nmachine `{result.machine}`, head "
            f"`{result.head_commit}`" + (f" against `{result.base_commit}`" if result.base_commit
                                         else "") +
            f"; {_counted(result)}. "
            "Instruction and allocation counts are exact: a change counts beyond max(0.5%, the "
            "series' own noise floor), or a committed baseline's threshold; the whole call's "
            "system calls, bytes, allocations, switches and locks count every change.")
    out = [head, ""]
    if result.verdict == "EMPTY":
        out += ["**Nothing to compare with**: the gate judged nothing" +
                (" (--allow-empty: passing)." if result.allow_empty else "."), ""]
    if result.blind:
        out += ["**Blind spot: moved with the environment, not judged**", ""] + \
            [f"- {blind_text(b)}" for b in result.blind] + [""]
    for level, text in result.notes:
        out.append(f"- **{level}**: {text}")
    if result.notes:
        out.append("")
    if fails:
        out += [f"**Regressions ({len(fails)})**", ""] + _table(fails) + [""]
    if env:
        out += [f"**Moved with the environment, not the code ({len(env)})**", ""] + \
            _table(env) + [""]
    if better:
        out += [f"<details><summary>Improvements ({len(better)})</summary>", ""] + \
            _table(better) + ["", "</details>", ""]
    if info:
        out += [f"<details><summary>Timings outside their band, information only "
                f"({len(info)})</summary>", ""] + _table(info) + ["", "</details>", ""]
    if not (fails or env or better):
        out.append("No significant change.")
    return "\n".join(out).rstrip() + "\n"


def _escape(text):
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def annotations(result):
    """GitHub Actions workflow commands (::error/::warning) for the regressions and warnings."""
    out = []
    for r in _ordered(result.rows, "regression"):
        kind = "error" if r.gating else "warning"
        out.append(f"::{kind} title={_escape(f'{r.metric} {pct(r.move)}: {r.benchmark}')}::"
                   + _escape(f"{r.suite}: {value(r.base)} -> {value(r.head)} ({pct(r.move)}, "
                             f"{band_text(r)}); attributed to {r.cause}"))
    for spot in result.blind:
        out.append(f"::warning title=soapbench gate: blind spot::{_escape(blind_text(spot))}")
    for level, text in result.notes:
        if level in ("warning", "error"):
            out.append(f"::{level} title=soapbench gate::{_escape(text)}")
    if result.verdict == "EMPTY":
        out.append(f"::{'warning' if result.allow_empty else 'error'} title=soapbench gate::"
                   "nothing to compare with")
    return out[:MAX_ANNOTATIONS]


def text(result):
    """The terminal's lines."""
    out = []
    for level, note in result.notes:
        out.append(f"{level}: {note}")
    env = _ordered(result.rows, "regression", False)
    for r in _ordered(result.rows, "regression", True) + env[:MAX_ROWS] + \
            _ordered(result.rows, "improvement")[:MAX_ROWS]:
        out.append(f"{r.status:<11} {r.suite}:{r.benchmark} {r.metric} {value(r.base)} -> "
                   f"{value(r.head)} {pct(r.move)} ({band_text(r)}); {r.cause}"
                   + ("" if r.gating or r.status != "regression" else " [environment]"))
    shown_less = max(0, len(env) - MAX_ROWS) + \
        max(0, len(_ordered(result.rows, "improvement")) - MAX_ROWS)
    if shown_less:
        out.append(f"... {shown_less} more moves of the environment or improvements (--markdown, "
                   "--json)")
    info = len(_ordered(result.rows, "outside"))
    if info:
        out.append(f"{info} timings outside their recent band (information only; see --markdown)")
    for spot in result.blind:
        out.append(f"blind spot: {blind_text(spot)}")
    if result.verdict == "EMPTY":
        out.append("nothing to compare with: the gate judged nothing" +
                   (" (--allow-empty)" if result.allow_empty else
                    " (exit 3; --allow-empty to pass)"))
    out.append(f"verdict: {result.verdict} ({_counted(result, False)})")
    return out


def as_json(result):
    """The verdict for machines: tools/track gate --json."""
    def rows(status, gating=None):
        return [dataclasses.asdict(r) for r in _ordered(result.rows, status, gating)]
    return {"verdict": result.verdict, "exit_code": result.exit_code,
            "machine": result.machine, "head_commit": result.head_commit,
            "base_commit": result.base_commit,
            "comparisons": sum(result.compared.values()), "compared": result.compared,
            "timings_as_information": result.informed,
            "regressions": rows("regression", True), "environment": rows("regression", False),
            "improvements": rows("improvement"), "information": rows("outside"),
            "blind_spots": [dict(dataclasses.asdict(b), text=blind_text(b))
                            for b in result.blind],
            "notes": [{"level": level, "text": text} for level, text in result.notes]}


def stored(result):
    """What the store keeps of a verdict beside its Markdown (the dashboard reads it)."""
    return {"rows": [dataclasses.asdict(r) for r in result.rows[:200]], "notes": result.notes,
            "compared": result.compared, "blind_spots": [blind_text(b) for b in result.blind]}


def write_json(result, path):
    """The JSON verdict to path ('-': standard output)."""
    text = json.dumps(as_json(result), indent=1, sort_keys=True) + "\n"
    if path == "-":
        print(text, end="")
        return
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def publish(result, markdown_path=None, out=None):
    """Prints the annotations under GitHub Actions (to out, default standard output) and appends
    the Markdown to the job summary; writes it to markdown_path if asked."""
    md = markdown(result)
    if os.environ.get("GITHUB_ACTIONS") == "true":
        for line in annotations(result):
            print(line, file=out or sys.stdout)
        summary = os.environ.get("GITHUB_STEP_SUMMARY")
        if summary:
            with open(summary, "a", encoding="utf-8") as f:
                f.write(md + "\n")
    if markdown_path:
        with open(markdown_path, "w", encoding="utf-8") as f:
            f.write(md)
    return md
