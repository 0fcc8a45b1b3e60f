"""A cache-aware cost from callgrind's cache simulation: instructions and simulated misses folded
into estimated cycles, so a change that keeps the instructions and adds misses (a data layout, an
allocator without an arena) is seen. tools/icount records it beside each row's instructions.

The simulated caches are fixed, as CodSpeed's runner fixes them (valgrind --cache-sim=yes
--I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64, CodSpeedHQ/runner
src/executor/valgrind/measure.rs): the estimate depends on the build, not on the host's caches.
The weights are Itamar Turner-Trauring's (pythonspeed.com, "Consistent benchmarking in CI"), as
iai and iai-callgrind apply them: an L1 hit 1 cycle, a last-level hit 5, a RAM access 35.
CodSpeed's CPU simulation likewise turns cache and memory accesses into cycles; its weights are
not published.
"""

# valgrind options: the cache simulation with the fixed geometry above.
CALLGRIND_OPTIONS = ["--cache-sim=yes", "--I1=32768,8,64", "--D1=32768,8,64",
                     "--LL=8388608,16,64"]
GEOMETRY = "I1 32768,8,64; D1 32768,8,64; LL 8388608,16,64"
FORMULA = "L1 hits + 5 x LL hits + 35 x RAM accesses"
LL_HIT, RAM_ACCESS = 5, 35


def events(names, totals):
    """{event: total} of a callgrind totals line (callgrind leaves trailing zero events out)."""
    values = list(totals) + [0] * (len(names) - len(totals))
    return dict(zip(names, values))


def estimated_cycles(ev):
    """The estimate for {event: total} of a cache-simulating run; None without the simulation's
    events (Dr, Dw, I1mr, D1mr, D1mw, ILmr, DLmr, DLmw)."""
    if "D1mr" not in ev:
        return None
    accesses = ev["Ir"] + ev["Dr"] + ev["Dw"]
    l1_misses = ev["I1mr"] + ev["D1mr"] + ev["D1mw"]
    ram = ev["ILmr"] + ev["DLmr"] + ev["DLmw"]
    return (accesses - l1_misses) + LL_HIT * (l1_misses - ram) + RAM_ACCESS * ram
