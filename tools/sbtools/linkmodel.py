"""The link model's formula, written here only: a measured keep-alive call projected onto a link.

    projected = sum(cpu counters) + RTT × round trips + sum(byte counters) × 8 / bandwidth
    parser share = sum(parser counters) / projected

Its parameters are the C++'s (harness/link_model.h) and travel in every result file's context
(`link:<name>`, `link_model:*`, roundtrip_bench's `variant:<name>` round trips; sbtools.facts):
the C++ computes nothing with them, so the report's figures and the formula printed beside them
cannot drift apart.
"""


def projected(model, r, round_trips, bandwidth, rtt):
    """(projected call seconds, parser seconds) of Result r on a link (bits/s, seconds), with the
    run's model (Facts.model: the counters each part sums)."""
    cpu = sum(r.counter(k) or 0.0 for k in model["cpu"]) / 1e9
    wire = sum(r.counter(k) or 0.0 for k in model["bytes"])
    total = cpu + rtt * round_trips + wire * 8 / bandwidth
    parser = sum(r.counter(k) or 0.0 for k in model["parser"]) / 1e9
    return total, parser


def measured_share(model, r):
    """The parsers' share of the measured (loopback) call, percent, or None."""
    total = r.counter("total_ns") or r.time
    dec = sum(r.counter(k) or 0 for k in model["parser"])
    return dec / total * 100 if total else None


def formula_lines(model, round_trips):
    """The formula as the report prints it, with the run's counters."""
    return [
        "projected call time = " + " + ".join(model["cpu"]),
        "                    + RTT × round trips",
        "                    + (" + " + ".join(model["bytes"]) + ") × 8 / bandwidth",
        "round trips         = per connection variant: " + ", ".join(
            f"{v} {n}" for v, n in round_trips.items()),
        "parser share        = (" + " + ".join(model["parser"]) + ") / projected call time"]


def link_text(bps, rtt):
    for unit, scale in (("Gbit/s", 1e9), ("Mbit/s", 1e6), ("kbit/s", 1e3)):
        if bps >= scale:
            return f"{bps / scale:g} {unit}, {rtt * 1e3:g} ms RTT"
    return f"{bps:g} bit/s, {rtt * 1e3:g} ms RTT"
