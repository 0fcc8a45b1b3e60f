"""What the gate says: a Markdown summary fit for a pull-request comment (only the significant
changes, each with its noise band), GitHub Actions annotations, and the terminal's text."""
import os

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


def markdown(result):
    compared = sum(result.compared.values())
    fails = _ordered(result.rows, "regression", True)
    env = _ordered(result.rows, "regression", False)
    better = _ordered(result.rows, "improvement")
    info = _ordered(result.rows, "outside")
    head = (f"### soapbench gate: {result.verdict}\n\nmachine `{result.machine}`, head "
            f"`{result.head_commit}`" + (f" against `{result.base_commit}`" if result.base_commit
                                         else "") +
            f"; {compared} comparisons (" +
            ", ".join(f"{k}: {v}" for k, v in sorted(result.compared.items())) + "). "
            "Instruction and allocation counts are exact: a change counts beyond max(0.5%, the "
            "series' own noise floor).")
    out = [head, ""]
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
    for level, text in result.notes:
        if level in ("warning", "error"):
            out.append(f"::{level} title=soapbench gate::{_escape(text)}")
    return out[:MAX_ANNOTATIONS]


def text(result):
    """The terminal's lines."""
    out = []
    for level, note in result.notes:
        out.append(f"{level}: {note}")
    for r in _ordered(result.rows, "regression") + _ordered(result.rows, "improvement"):
        out.append(f"{r.status:<11} {r.suite}:{r.benchmark} {r.metric} {value(r.base)} -> "
                   f"{value(r.head)} {pct(r.move)} ({band_text(r)}); {r.cause}"
                   + ("" if r.gating or r.status != "regression" else " [environment]"))
    info = len(_ordered(result.rows, "outside"))
    if info:
        out.append(f"{info} timings outside their recent band (information only; see --markdown)")
    out.append(f"verdict: {result.verdict} ({sum(result.compared.values())} comparisons)")
    return out


def publish(result, markdown_path=None):
    """Prints the annotations under GitHub Actions and appends the Markdown to the job summary;
    writes it to markdown_path if asked."""
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
    return md
