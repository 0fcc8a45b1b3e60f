"""The timing A/B measured on itself (tools/track_study ab-record, ab-power, ab-trials): how often
`tools/track ab` finds a planted slowdown within its budget, how often it raises a false alarm,
duet against interleaved, beside the current interleaved gate (9 + 9 runs, Mann-Whitney,
Benjamini-Hochberg: gate.gate_timings) measured the same way.

  ab-record   real A/A rounds of the default A/B set (one build on both sides; two builds of one
              tree with ccache are the same bytes), duet and interleaved rounds alternating so
              both modes see the same load; every round's values kept (rounds.jsonl)
  ab-power    trials resampled from those rounds (whole rounds drawn with replacement, so rows
              keep their correlation, each round's labels swapped by a fresh coin as a real
              round's coin swaps them; a round costs its recorded seconds times the share of rows
              still running): a slowdown of s planted into one row's log ratios (none for A/A),
              the sequential test run to the budget as the command runs it; and the current
              gate on 9 + 9 of the same interleaved rounds with the same plants
  ab-trials   full trials: `tools/track ab` itself, 10 minutes each, head with the planted
              switch (measure/planted_slowdown.h) on one parse row, or nothing (A/A)
"""
import json
import math
import os
import random
import sys
import tempfile
import time
from statistics import median

from sbtools.sequential import Family

from . import ab, ab_runs, gate, importers

SHIFTS = (0.0, 0.02, 0.05, 0.10)
MODES = ("duet", "interleaved")
BUDGET = 600.0


def log(msg):
    print(f"track_study: {msg}", file=sys.stderr, flush=True)


def _trees(build, plant=None):
    """Base and head on one build; plant PCT:REGEX slows head (ab_runs.planted_envs)."""
    base_env, head_env = ab_runs.planted_envs(plant) if plant else ({}, {})
    return ab_runs.Tree("base", build, base_env), ab_runs.Tree("head", build, head_env)


def default_rows(build, settings):
    filters = ab_runs.default_filters(ab_runs.default_adapters(_trees(build)[0]))
    return ab.rows_of(_trees(build), filters, settings, [])


# --- recording ----------------------------------------------------------------------------------

def ab_record(build, folder, rounds, min_time, seed=11):
    """Appends `rounds` rounds of each mode (alternating) to folder/rounds.jsonl."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "rounds.jsonl")
    have = len(load_rounds(folder)) if os.path.exists(path) else 0
    settings = {m: ab_runs.Settings(m, min_time, cpus=ab_runs.duet_cpus()) for m in MODES}
    rows = default_rows(build, settings["duet"])
    rng = random.Random(seed + have)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="sb-ab-study-") as tmp, \
            open(path, "a", encoding="utf-8") as out:
        for i in range(have, 2 * rounds):
            mode = MODES[i % 2]
            runner = ab_runs.Rounds(_trees(build), settings[mode], rng, tmp)
            t0 = time.monotonic()
            values, errors = runner.round(rows)
            if errors:
                raise RuntimeError(f"rows failed: {errors}")
            rec = {"mode": mode, "seconds": round(time.monotonic() - t0, 3),
                   "load": round(os.getloadavg()[0], 2), "min_time": min_time,
                   "rows": {f"{s}:{r}": {side: values[side][(s, r)] for side in values}
                            for s, rs in rows.items() for r in rs}}
            out.write(json.dumps(rec) + "\n")
            out.flush()
            log(f"ab-record: round {i + 1}/{2 * rounds} ({mode}) in {rec['seconds']:.1f} s, "
                f"load {rec['load']}, {time.monotonic() - started:.0f} s so far")


def load_rounds(folder):
    with open(os.path.join(folder, "rounds.jsonl"), encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


# --- resampled trials ---------------------------------------------------------------------------

def log_ratios(rnd, row, met):
    v = rnd["rows"][row]
    return math.log(v["head"][met] / v["base"][met])


def resampled_ab(rounds, rows, planted, shift, rng, budget=BUDGET, alpha=0.01, margin=0.02):
    """One A/B replayed from recorded rounds: (Family, rounds run, seconds used)."""
    metrics = ("cpu_time", "real_time")
    fam = Family([(r, m) for r in rows for m in metrics], alpha=alpha, margin=margin)
    elapsed, n, per_row = 0.0, 0, None
    while True:
        pending = sorted({r for r, _m in fam.open()})
        if not pending or (per_row is not None and elapsed + per_row * len(pending) > budget):
            return fam, n, elapsed
        rnd = rng.choice(rounds)
        # The round's labels swapped by a fresh coin (every row at once, as a real round's
        # coin does): the resampled A/A noise is then symmetric about 0 exactly, as A/A is,
        # instead of about the recorded rounds' sample median.
        flip = 1.0 if rng.random() < 0.5 else -1.0
        per_row = rnd["seconds"] / len(rows)
        elapsed += per_row * len(pending)
        n += 1
        for row in pending:
            for met in metrics:
                d = flip * log_ratios(rnd, row, met)
                fam.add_log_ratio((row, met), d + (math.log1p(shift) if row == planted else 0.0))


def sequential_power(rounds, mode, trials, seed):
    """{shift: figures} of resampled A/Bs in one mode."""
    picked = [r for r in rounds if r["mode"] == mode]
    rows = sorted(picked[0]["rows"])
    rng = random.Random(seed)
    out = {}
    for shift in SHIFTS:
        found = {"cpu_time": 0, "real_time": 0}
        alarms, used, decided_at = 0, [], []
        for _ in range(trials):
            planted = rng.choice(rows) if shift else None
            fam, _n, seconds = resampled_ab(picked, rows, planted, shift, rng)
            used.append(seconds)
            for d in fam.decisions():
                row, met = d.key
                if row == planted and d.state == "different" and d.shift > 0:
                    found[met] += 1
                    decided_at.append(d.rounds)
            alarms += any(d.state == "different" for d in fam.decisions() if d.key[0] != planted)
        out[f"{shift:.2f}"] = {
            "trials": trials, "found_cpu_time": found["cpu_time"] / trials if shift else None,
            "found_real_time": found["real_time"] / trials if shift else None,
            "trials_with_false_alarm": alarms, "median_seconds": round(median(used), 1),
            "median_rounds_to_find": median(decided_at) if decided_at else None}
        log(f"ab-power {mode} {shift:.0%}: {out[f'{shift:.2f}']}")
    return out


def _gate_runs(picked, rows, metric_name, planted, shift, rng):
    """importers.Run objects of 9 interleaved rounds (base, head alternating in time, each
    round's labels swapped by a fresh coin as in resampled_ab), the metric's values under
    real_time (the gate judges real_time)."""
    out = {"base": [], "head": []}
    for i, rnd in enumerate(picked):
        sides = ("base", "head") if rng.random() < 0.5 else ("head", "base")
        for k, side in enumerate(("base", "head")):
            samples = {}
            for row in rows:
                v = rnd["rows"][row][sides[k]][metric_name]
                if side == "head" and row == planted:
                    v *= 1 + shift
                samples[(row, "real_time")] = [v]
            date = f"2000-01-01T00:{i:02d}:{k * 30:02d}Z"
            out[side].append(importers.Run(f"{side}{i}", f"{side}{i}", "study", "ab", "", date,
                                           {}, {}, "", samples))
    return out["base"], out["head"]


def gate_power(rounds, trials, seed):
    """The current interleaved gate (gate.gate_timings) on 9 + 9 of the recorded interleaved
    rounds, real and CPU time, with the same plants."""
    picked = [r for r in rounds if r["mode"] == "interleaved"]
    rows = sorted(picked[0]["rows"])
    rng = random.Random(seed)
    out = {}
    for shift in SHIFTS:
        entry = {}
        for met in ("cpu_time", "real_time"):
            found = alarms = 0
            for _ in range(trials):
                planted = rng.choice(rows) if shift else None
                base, head = _gate_runs(rng.sample(picked, gate.MIN_REPS), rows, met, planted,
                                        shift, rng)
                result = gate.Result("study", "head", "base")
                gate.gate_timings(base, head, result)
                flagged = [r.benchmark for r in result.rows if r.status == "regression"]
                found += planted in flagged
                alarms += any(b != planted for b in flagged)
            entry[met] = {"found": found / trials if shift else None,
                          "trials_with_false_alarm": alarms}
        out[f"{shift:.2f}"] = dict(entry, trials=trials)
        log(f"current gate {shift:.0%}: {out[f'{shift:.2f}']}")
    return out


def noise(rounds):
    """Per mode: rounds, seconds a round, load, and the median over rows of the robust spread
    (IQR / 1.349) of one round's log ratio."""
    out = {}
    for mode in MODES:
        picked = [r for r in rounds if r["mode"] == mode]
        if not picked:
            continue
        rows = sorted(picked[0]["rows"])
        entry = {"rounds": len(picked), "seconds_per_round": round(median(r["seconds"] for r in
                                                                          picked), 2),
                 "load": [min(r["load"] for r in picked), max(r["load"] for r in picked)]}
        for met in ("cpu_time", "real_time"):
            spreads = []
            for row in rows:
                ds = sorted(log_ratios(r, row, met) for r in picked)
                q1, q3 = ds[len(ds) // 4], ds[(3 * len(ds)) // 4]
                spreads.append((q3 - q1) / 1.349)
            entry[f"spread_{met}"] = round(median(spreads), 4)
        out[mode] = entry
    return out


def ab_power(folder, trials, gate_trials, seed=3):
    rounds = load_rounds(folder)
    started = time.monotonic()
    report = {"rounds_file": os.path.join(folder, "rounds.jsonl"), "noise": noise(rounds),
              "rows": len(rounds[0]["rows"]), "budget_s": BUDGET, "alpha": 0.01,
              "margin": 0.02, "sequential": {}}
    log(f"ab-power: noise {report['noise']}")
    for mode in MODES:
        report["sequential"][mode] = sequential_power(rounds, mode, trials, seed)
    report["current_gate"] = gate_power(rounds, gate_trials, seed)
    report["seconds"] = round(time.monotonic() - started, 1)
    return report


# --- full trials --------------------------------------------------------------------------------

def ab_trials(build, folder, shifts, trials, mode, budget=BUDGET, seed=5):
    """Full `tools/track ab` runs appended to folder/trials.jsonl; returns them all."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "trials.jsonl")
    settings = ab_runs.Settings(mode, 0.002, cpus=ab_runs.duet_cpus())
    rows = default_rows(build, settings)
    rng = random.Random(seed)
    plan = [(s, rng.choice(rows["parse"])) for _ in range(trials) for s in shifts]
    done = _read_lines(path)
    for i, (shift, row) in enumerate(plan):
        if i < len(done):
            continue
        # A/A carries the variable at 0% on both sides, so A/A and planted trials differ in
        # the one digit alone.
        base, head = _trees(build, f"{shift * 100:g}:{ab_runs.exact_filter([row])}")
        filters = ab_runs.default_filters(ab_runs.default_adapters(base))
        result = ab.run_ab(base, head, filters, settings, budget=budget, seed=seed + i,
                           progress=ab.Progress())
        planted = [o for o in result.outcomes if o.suite == "parse" and o.row == row]
        rec = {"shift": shift, "row": row if shift else None, "mode": mode,
               "rounds": result.rounds, "seconds": round(result.seconds, 1),
               "load": [min(result.load), max(result.load)] if result.load else None,
               "found": {o.metric: o.worse for o in planted} if shift else None,
               "planted": [o.decision.as_dict() | {"metric": o.metric} for o in planted]
               if shift else None,
               "false_alarms": [f"{o.name} {o.metric}" for o in result.outcomes
                                if o.decision.state == "different"
                                and not (shift and o.suite == "parse" and o.row == row)]}
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(rec, default=list) + "\n")
        log(f"ab-trials {i + 1}/{len(plan)}: {rec}")
    return summarize_trials(_read_lines(path))


def _read_lines(path):
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def summarize_trials(recs):
    out = {}
    for rec in recs:
        e = out.setdefault(f"{rec['shift']:.2f}", {"trials": 0, "found_cpu_time": 0,
                                                  "found_real_time": 0, "with_false_alarm": 0,
                                                  "seconds": [], "load": []})
        e["trials"] += 1
        for met in ("cpu_time", "real_time"):
            e[f"found_{met}"] += bool(rec["found"] and rec["found"].get(met))
        e["with_false_alarm"] += bool(rec["false_alarms"])
        e["seconds"].append(rec["seconds"])
        e["load"] += rec["load"] or []
    for e in out.values():
        e["max_seconds"] = max(e.pop("seconds"))
        loads = e.pop("load")
        e["load"] = [min(loads), max(loads)] if loads else None
    return {"trials": out, "records": recs}
