"""What each recorded metric is: its unit, whether it is exact or measured, which way is better,
and whether change points and the gate look at it. The one list of these facts."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Metric:
    unit: str            # what the value counts
    exact: bool          # deterministic for a build and commit (no noise to test against)
    lower_better: bool   # a rise is a regression
    analyzed: bool       # change points, gate, dashboard


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
    "rps": Metric("requests/s", exact=False, lower_better=False, analyzed=True),
    "cpu_us_per_call": Metric("us", exact=False, lower_better=True, analyzed=True),
    "tps": Metric("calls/s", exact=False, lower_better=False, analyzed=True),
    # the standard suites (soapbench conformance --suite)
    "valid_accepted_pct": Metric("%", exact=True, lower_better=False, analyzed=True),
    "not_wf_rejected_pct": Metric("%", exact=True, lower_better=False, analyzed=True),
    "crashes": Metric("documents", exact=True, lower_better=True, analyzed=True),
    "hangs": Metric("documents", exact=True, lower_better=True, analyzed=True),
}


def metric(name):
    """The facts of a metric; an unlisted counter: measured, lower better unless it is a rate."""
    known = METRICS.get(name)
    if known:
        return known
    rate = name.endswith(("_per_s", "_per_second"))
    unit = "ns" if name.endswith("_ns") else ""
    return Metric(unit, exact=False, lower_better=not rate, analyzed=False)


def analyzed_metrics():
    return sorted(name for name, m in METRICS.items() if m.analyzed)
