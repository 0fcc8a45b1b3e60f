"""What the C++ writes into the result files' context (harness/run_context.cpp, docs/results.md)
and the tools must not restate: families, default adapters, every adapter's registry row, the
link model's parameters and the connection variants' round trips."""
from collections import OrderedDict

from sbtools import names


def packed(value):
    """'a=1;b=2' -> {'a': '1', 'b': '2'} (the context's packed values)."""
    return dict(x.split("=", 1) for x in str(value).split(";") if "=" in x)


def adapter_rows(ctx):
    """{bench name of the adapter: its registry row (flags) + 'registry': registry name}."""
    rows = OrderedDict()
    for k, v in ctx.items():
        if k.startswith("adapter:"):
            flags = packed(v)
            flags["registry"] = k[len("adapter:"):]
            rows.setdefault(names.field(flags["registry"]), flags)
    return rows


class Facts:
    """The context's facts of one run (ctx: the merged context of its files; bench_names: the
    benchmark names, only read for result files older than the context keys)."""

    def __init__(self, ctx, bench_names):
        self.missing = []   # context keys the files lack (older result files)
        self.families = [f for f in str(ctx.get("families", "")).split(",") if f]  # corpus order
        if not self.families:
            self.missing.append("families")
            seen = OrderedDict()  # fallback: the order the benchmark names show them in
            for n in bench_names:
                fam = names.parse(n)[1].get("family")
                if fam and fam != "binary" and not fam.endswith(".call"):
                    seen.setdefault(fam, None)
            self.families = list(seen)
        self.default = {fmt: ctx.get(f"default_adapter:{fmt}")  # format -> registry name
                        for fmt in ("xml", "json")}
        if not all(self.default.values()):
            self.missing.append("default_adapter:xml|json")
        self.links = []     # [(name, bits/s, rtt s)]; loopback (0 bit/s) is measured, not modelled
        for k, v in ctx.items():
            if k.startswith("link:"):
                kv = packed(v)
                bps, rtt = float(kv.get("bits_per_second", 0)), float(kv.get("rtt_seconds", 0))
                if bps > 0:
                    self.links.append((k[5:], bps, rtt))
        self.links.sort(key=lambda link: -link[1])  # the context comes sorted by name
        self.model = {part: [c for c in str(ctx.get(f"link_model:{part}", "")).split(",") if c]
                      for part in ("cpu", "parser", "bytes")}  # part -> the counters it sums
        if not self.links or not all(self.model.values()):
            self.missing.append("link:<name>, link_model:*")
            self.links = []
        self.round_trips = {k[8:]: int(packed(v).get("round_trips", 0))  # variant -> round trips
                            for k, v in ctx.items() if k.startswith("variant:")}
        self.adapters = adapter_rows(ctx)  # bench name -> registry row

    def default_bench_name(self, fmt):
        """The default adapter of a format (xml, json) as benchmark names write it, or None."""
        d = self.default.get(fmt)
        return names.field(d) if d else None

    def format_of(self, adapter):
        """xml or json for an adapter's bench name (its registry row), None when unknown."""
        return self.adapters.get(adapter, {}).get("format")
