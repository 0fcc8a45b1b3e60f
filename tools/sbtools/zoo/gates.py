"""The exact-count gates the zoo runs, as the test command runs them (tools/gate_counts.sh):
count with the tree's own tool, then `tools/track gate` on the counts. The reference is the
unpatched tree's counts, measured in the same study and recorded into a throw-away store at
HEAD's commit, so each patch is judged as a pull request is, against its merge base's run of
the same build (threshold max(0.5%, the series' noise floor) for instructions; any change of a
system call, byte, allocation, switch or lock count), and not against a committed baseline
that may be older than HEAD."""
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field

PY = "/usr/bin/python3"
COUNT_TIMEOUT = 3600  # seconds for one count (tools/icount's default subset with the cache sim)


@dataclass(frozen=True)
class Gate:
    name: str
    targets: tuple     # what its count needs built
    tool: str          # tools/<tool> --quiet --out FILE writes its counts
    what: str          # for --help and the table


GATES = {g.name: g for g in (
    Gate("callcount", ("callcount",), "callcount",
         "whole-call counts: per-side instructions, system calls by name, wire bytes, "
         "allocations, voluntary switches, mutex locks (tools/callcount, about 15 s)"),
    Gate("icount", ("parse_bench",), "icount",
         "instruction counts and cache-aware estimated cycles of decode, parse and walk "
         "(tools/icount's default subset, 612 rows; 4-6 minutes)"),
)}
ORDER = ("callcount", "icount")   # cheapest first (--stop-at-first)


class GateError(Exception):
    """A count or a judgement that did not run to an answer."""


@dataclass
class Outcome:
    gate: str
    status: str                 # caught, passed, error
    seconds: float = 0.0        # counting and judging
    verdict: str = ""           # the gate's verdict word (PASS, WARN, FAIL, ...)
    moved: dict = field(default_factory=dict)  # metric -> {rows, largest, example}
    detail: str = ""            # an error's text


def _run(cmd, cwd, log, timeout):
    with open(log, "a", encoding="utf-8") as out:
        out.write(f"$ {' '.join(cmd)}\n")
        out.flush()
        try:
            r = subprocess.run(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise GateError(f"{' '.join(cmd[:2])}: over {timeout} s (log: {log})")
    return r.returncode


def count(gate, tree, out, log):
    """Runs gate's counting tool in tree (a built worktree) into out."""
    rc = _run([PY, os.path.join("tools", gate.tool), "--quiet", "--out", out], tree, log,
              COUNT_TIMEOUT)
    if rc != 0 or not os.path.isfile(out):
        raise GateError(f"tools/{gate.tool}: exit {rc} (log: {log})")


def record(tree, db, counts, log):
    """Stores the reference counts (the unpatched tree's) in the study's store."""
    rc = _run([PY, "tools/track", "--db", db, "record", "--no-probe", counts], tree, log, 600)
    if rc != 0:
        raise GateError(f"tools/track record: exit {rc} (log: {log})")


def judge(tree, db, counts, base_commit, verdict_path, log):
    """tools/track gate on counts against base_commit's run in db: (exit code, verdict doc)."""
    rc = _run([PY, "tools/track", "--db", db, "gate", "--no-probe", "--no-save",
               "--results-dir", "", "--base-commit", base_commit, "--json", verdict_path,
               counts], tree, log, 600)
    doc = None
    if os.path.isfile(verdict_path):
        import json
        with open(verdict_path, encoding="utf-8") as f:
            doc = json.load(f)
    return rc, doc


def interpret(gate_name, exit_code, doc, seconds=0.0):
    """The Outcome of a gate's exit code and JSON verdict: caught when it failed the change
    (exit 1) with regressions attributed to the commits, passed on exit 0, else an error."""
    verdict = (doc or {}).get("verdict", "")
    if exit_code == 0:
        return Outcome(gate_name, "passed", seconds, verdict)
    gating = [r for r in (doc or {}).get("regressions", []) if r.get("gating")]
    if exit_code == 1 and gating:
        return Outcome(gate_name, "caught", seconds, verdict, moved(gating))
    notes = "; ".join(n.get("text", "") for n in (doc or {}).get("notes", [])
                      if n.get("level") != "notice")
    return Outcome(gate_name, "error", seconds, verdict,
                   detail=f"tools/track gate exit {exit_code}" + (f": {notes}" if notes else ""))


def moved(rows):
    """{metric: {rows, largest (the move of largest size), example (its benchmark)}}."""
    out = {}
    for r in rows:
        m = out.setdefault(r["metric"], {"rows": 0, "largest": 0.0, "example": ""})
        m["rows"] += 1
        if abs(r["move"]) > abs(m["largest"]) or not m["example"]:
            m["largest"], m["example"] = r["move"], r["benchmark"]
    return dict(sorted(out.items()))


def check(gate, tree, db, base_commit, out_dir, label, log):
    """Counts gate in tree and judges the counts against base_commit: an Outcome."""
    t0 = time.monotonic()
    counts = os.path.join(out_dir, f"{label}.{gate.name}.json")
    try:
        count(gate, tree, counts, log)
        rc, doc = judge(tree, db, counts, base_commit,
                        os.path.join(out_dir, f"{label}.{gate.name}.verdict.json"), log)
    except GateError as e:
        return Outcome(gate.name, "error", time.monotonic() - t0, detail=str(e))
    return interpret(gate.name, rc, doc, time.monotonic() - t0)


def progress(text):
    print(f"tools/track zoo: {text}", file=sys.stderr, flush=True)
