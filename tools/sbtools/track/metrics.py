"""What each recorded metric is: its unit, whether it is exact or measured, which way is better,
and whether change points and the gate look at it. The one list of these facts."""
import re
from dataclasses import dataclass

MIN_MOVE = 0.005  # the smallest move of an exact count the gate and change points report (0.5%)


@dataclass(frozen=True)
class Metric:
    unit: str            # what the value counts
    exact: bool          # deterministic for a build and commit (no noise to test against)
    lower_better: bool   # a rise is a regression; None: any change is (a count that must not move)
    analyzed: bool       # change points, gate, dashboard
    any_change: bool = False  # every change counts, however small (no max(0.5%, floor) band)
    gated: str = ""      # if set, the gate judges only benchmarks this regex finds; the others'
                         # values are information (change points and dashboard still show them)


# Google Benchmark's own fields and the counters our executables write (docs/results.md); the
# matrices' numbers (importers.py names them). A counter not listed here is stored, not analyzed.
METRICS = {
    "real_time": Metric("ns", exact=False, lower_better=True, analyzed=True),
    "cpu_time": Metric("ns", exact=False, lower_better=True, analyzed=True),
    "instructions": Metric("instructions", exact=True, lower_better=True, analyzed=True),
    "allocs_per_msg": Metric("allocations", exact=True, lower_better=True, analyzed=True),
    "peak_heap_bytes": Metric("bytes", exact=True, lower_better=True, analyzed=False),
    "bytes_per_second": Metric("bytes/s", exact=False, lower_better=False, analyzed=False),
    "msgs_per_s": Metric("messages/s", exact=False, lower_better=False, analyzed=False),
    "bytes_sent": Metric("bytes", exact=True, lower_better=True, analyzed=False),
    "bytes_received": Metric("bytes", exact=True, lower_better=True, analyzed=False),
    # the matrices
    "accepted": Metric("0/1", exact=True, lower_better=False, analyzed=True),
    "passed": Metric("0/1", exact=True, lower_better=False, analyzed=True),
    "right": Metric("0/1", exact=True, lower_better=False, analyzed=True),  # tools/wild
    "rps": Metric("requests/s", exact=False, lower_better=False, analyzed=True),
    "cpu_us_per_call": Metric("us", exact=False, lower_better=True, analyzed=True),
    "tps": Metric("calls/s", exact=False, lower_better=False, analyzed=True),
    # tools/callcount: one side of a whole call, per call (docs/results.md "callcount"). System
    # calls and bytes must not move either way unnoticed: a system call gone (TCP_NODELAY no
    # longer set) is as much a change to look at as one added.
    "syscalls": Metric("system calls", exact=True, lower_better=None, analyzed=True,
                       any_change=True),
    "request_bytes": Metric("bytes", exact=True, lower_better=None, analyzed=True,
                            any_change=True),
    "response_bytes": Metric("bytes", exact=True, lower_better=None, analyzed=True,
                             any_change=True),
    "allocs_per_call": Metric("allocations", exact=True, lower_better=True, analyzed=True,
                              any_change=True),
    "voluntary_switches": Metric("context switches", exact=True, lower_better=True,
                                 analyzed=True, any_change=True),
    "lock_calls": Metric("mutex locks", exact=True, lower_better=True, analyzed=True,
                         any_change=True),
    # tools/icount with callgrind's cache simulation: instructions and simulated L1/LL misses as
    # estimated cycles. An unrelated change that moved code by 3 KB moved it by up to 1.9% on the
    # small messages (instruction-cache misses follow code layout) and by at most 0.05% on the
    # 64 KB response: gated there only, information elsewhere.
    "estimated_cycles": Metric("cycles", exact=True, lower_better=True, analyzed=True,
                               gated=r"/respond\.64KB\.response$"),
    # the standard suites (soapbench conformance --suite)
    "valid_accepted_pct": Metric("%", exact=True, lower_better=False, analyzed=True),
    "not_wf_rejected_pct": Metric("%", exact=True, lower_better=False, analyzed=True),
    "crashes": Metric("documents", exact=True, lower_better=True, analyzed=True),
    "hangs": Metric("documents", exact=True, lower_better=True, analyzed=True),
}


# Families of metrics by name prefix: syscalls:<name>, one system call's count per call.
PREFIXED = {
    "syscalls:": METRICS["syscalls"],
}


def metric(name):
    """The facts of a metric; an unlisted counter: measured, lower better unless it is a rate."""
    known = METRICS.get(name)
    if known:
        return known
    for prefix, facts in PREFIXED.items():
        if name.startswith(prefix):
            return facts
    rate = name.endswith(("_per_s", "_per_second"))
    unit = "ns" if name.endswith("_ns") else ""
    return Metric(unit, exact=False, lower_better=not rate, analyzed=False)


def analyzed_metrics():
    return sorted(name for name, m in METRICS.items() if m.analyzed)


def absent_is_zero(name):
    """A count of one kind among many (syscalls:<name>): a series one run lacks counted 0 there,
    so a system call that appears or disappears is a change, not a missing series."""
    return any(name.startswith(prefix) for prefix in PREFIXED)


def band(name, floor):
    """The move an exact metric's value must reach to count: 0 for any_change metrics (every
    change counts), else max(MIN_MOVE, the series' noise floor)."""
    return 0.0 if metric(name).any_change else max(MIN_MOVE, floor)


def counts(name, move, threshold):
    """Whether a relative move of an exact metric counts as a change (beyond its band)."""
    if move == 0:
        return False
    return abs(move) >= threshold * (1 - 1e-9)  # 0.5% is caught at 0.5%, rounding aside


def worse(name, move):
    """Whether a move of the metric is a regression."""
    lower = metric(name).lower_better
    return True if lower is None else (move > 0) == lower


def gated(name, benchmark):
    """Whether the gate judges this metric on this benchmark (else the value is information)."""
    pattern = metric(name).gated
    return not pattern or re.search(pattern, benchmark) is not None
