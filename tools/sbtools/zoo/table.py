"""The zoo's verdict table: per patch which gate caught it (and by what count), on which commit,
how long the check took; the A/A runs' false alarms; the study's exit code. Markdown and JSON."""
import json
from dataclasses import asdict, dataclass, field

# Exit codes of tools/track zoo (its --help prints them).
EXIT_CODES = {
    0: "every patch caught by at least one gate, and no false alarm in the A/A runs",
    1: "a patch escaped every gate it ran, or an A/A run raised a false alarm",
    2: "an error: a patch that does not apply, a build or a count that failed, bad usage",
    3: "incomplete: the budget ran out before every patch was checked (the rest: not run)",
}


@dataclass
class PatchResult:
    name: str
    description: str
    commit: str = ""                 # the patch's commit on top of HEAD
    build_seconds: float = 0.0
    outcomes: list = field(default_factory=list)  # gates.Outcome, in the order run
    error: str = ""                  # the patch did not apply or build
    run: bool = True                 # False: the budget ran out first

    def caught_by(self):
        return [o.gate for o in self.outcomes if o.status == "caught"]

    def verdict(self):
        """caught, escaped (every gate ran and passed), error or not run."""
        if not self.run:
            return "not run"
        if self.caught_by():
            return "caught"
        if self.error or not self.outcomes or any(o.status == "error" for o in self.outcomes):
            return "error"
        return "escaped"

    def seconds(self):
        return self.build_seconds + sum(o.seconds for o in self.outcomes)


def false_alarms(aa):
    """The A/A outcomes (gates.Outcome of the unpatched tree) that failed it."""
    return [o for o in aa if o.status == "caught"]


def exit_code(results, aa):
    verdicts = [r.verdict() for r in results]
    if "escaped" in verdicts or false_alarms(aa):
        return 1
    if "error" in verdicts or any(o.status == "error" for o in aa):
        return 2
    return 3 if "not run" in verdicts else 0


def _moved_text(outcome):
    parts = []
    for metric, m in outcome.moved.items():
        side = m["example"].split("/")[1] if m["example"].count("/") > 1 else ""
        where = f", e.g. {side}" if side else ""
        parts.append(f"{metric} {m['largest']:+.1%} ({m['rows']} rows{where})")
    return "; ".join(parts)


def _caught_text(r):
    if r.verdict() != "caught":
        return f"**{r.verdict()}**" + (f": {r.error}" if r.error else "") + "".join(
            f" ({o.gate}: {o.detail})" for o in r.outcomes if o.status == "error")
    return "; ".join(f"{o.gate}: {_moved_text(o)}" for o in r.outcomes if o.status == "caught")


def markdown(results, aa, head, gates, command):
    """The table as Markdown lines."""
    lines = [f"Regression zoo at {head[:12]}, gates: {', '.join(gates)}; `{command}`", "",
             "| patch | the change | commit | caught by (what moved, largest move) | not caught by "
             "| build s | check s |", "|---|---|---|---|---|---:|---:|"]
    for r in results:
        missed = ", ".join(o.gate for o in r.outcomes if o.status == "passed") or "-"
        lines.append(f"| `{r.name}` | {r.description} | {r.commit[:12] or '-'} | "
                     f"{_caught_text(r)} | {missed} | {r.build_seconds:.0f} | "
                     f"{r.seconds() - r.build_seconds:.0f} |")
    caught = sum(r.verdict() == "caught" for r in results)
    alarms = false_alarms(aa)
    lines += ["", f"Caught: {caught} of {len(results)}. A/A runs of the unpatched tree: "
              f"{len(aa)} gate runs, {len(alarms)} false alarm" + ("" if len(alarms) == 1 else "s")
              + (": " + "; ".join(f"{o.gate}: {_moved_text(o)}" for o in alarms) if alarms else "")
              + "."]
    return lines


def document(results, aa, head, gates, command):
    """The JSON form: every result with its outcomes, the A/A runs, the exit code."""
    return {"head": head, "gates": list(gates), "command": command,
            "exit_code": exit_code(results, aa),
            "caught": sum(r.verdict() == "caught" for r in results),
            "patches": [{**asdict(r), "verdict": r.verdict(), "caught_by": r.caught_by(),
                         "seconds": round(r.seconds(), 1)} for r in results],
            "aa": [asdict(o) for o in aa], "false_alarms": len(false_alarms(aa))}


def write(path_md, path_json, results, aa, head, gates, command):
    with open(path_md, "w", encoding="utf-8") as f:
        f.write("\n".join(markdown(results, aa, head, gates, command)) + "\n")
    with open(path_json, "w", encoding="utf-8") as f:
        json.dump(document(results, aa, head, gates, command), f, indent=1)
        f.write("\n")
