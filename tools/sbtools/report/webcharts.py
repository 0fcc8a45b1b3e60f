"""The web page's charts: the same drawing calls as sbtools.charts.Charts (a section's markdown()
makes them from its compute() data), recorded as Chart.js specifications instead of drawn as
SVG. save() returns the placeholder the page's script (web_assets/report.js) draws into.

A specification: {"title", "type": "bar" | "line" | "scatter", "labels" (category axes),
"datasets": [{"label", "data"}], "x", "y" (the axes' titles), "logx", "logy", "horizontal",
"stacked", "ref" (a reference line's y)}. Colours and styles are the script's, one pair per
series name, distinct within a chart. A bar chart whose series are adapters of both formats is
drawn as one chart per format (XML adapters, JSON adapters): no category holds empty slots for
the other format's adapters, and each chart has half the series.
"""
import html

from sbtools.fmt import short


def _num(v):
    """A value as JSON carries it: None stays None (a gap), floats keep 6 significant digits."""
    return None if v is None else float(f"{v:.6g}")


FORMAT_NAMES = {"xml": "XML adapters", "json": "JSON adapters"}


def split_by_format(spec, formats):
    """[spec] or one spec per format of its series (formats: {series: xml | json}), each keeping
    only the categories where its series have a value."""
    fmts = list(dict.fromkeys(formats.get(d["label"]) for d in spec["datasets"]))
    if len(fmts) < 2 or None in fmts:
        return [spec]
    out = []
    for fmt in fmts:
        sets = [d for d in spec["datasets"] if formats.get(d["label"]) == fmt]
        keep = [i for i in range(len(spec["labels"])) if any(d["data"][i] is not None
                                                            for d in sets)]
        out.append(dict(spec, title=f"{spec['title']}: {FORMAT_NAMES.get(fmt, fmt)}",
                        labels=[spec["labels"][i] for i in keep],
                        datasets=[dict(d, data=[d["data"][i] for i in keep]) for d in sets]))
    return out


class WebCharts:
    """Collects the charts of one page; each save() is one figure (one or more specs).
    formats: {series name: xml | json} of the adapters (bar charts split by format)."""

    def __init__(self, formats=None):
        self.figures = {}   # figure id -> {"title", "specs": [spec]}
        self.written = []   # figure ids in page order
        self.formats = formats or {}

    def save(self, fig, name, title):
        fid = name.rsplit(".", 1)[0].replace(".", "-")
        self.figures[fid] = {"title": title, "specs": fig}
        self.written.append(fid)
        return (f'<figure class="chart-figure" id="chart-{html.escape(fid)}" data-chart="'
                f'{html.escape(fid)}"><figcaption>{html.escape(title)}</figcaption></figure>')

    def grouped(self, groups, ylabel, title, _name, log=False, ref=None):
        series = list(dict.fromkeys(s for _l, bars in groups for s, _v in bars))
        values = {(label, s): v for label, bars in groups for s, v in bars}
        spec = {"title": title, "type": "bar", "labels": [label for label, _b in groups],
                "datasets": [{"label": s, "data": [_num(values.get((label, s)))
                                                   for label, _b in groups]} for s in series],
                "y": ylabel, "logy": log, "ref": ref}
        return split_by_format(spec, self.formats), None

    def level_bars(self, groups, levels, file):
        return [{"title": f"{g['family']}: {file}", "type": "bar", "labels": g["adapters"],
                 "datasets": [{"label": lv, "data": [_num(v) for v in g["mb_s"][lv]]}
                              for lv in levels], "y": "MB/s"} for g in groups]

    def size_lines(self, families, lines):
        return [{"title": fam, "type": "line", "logx": True, "x": "message bytes", "y": "MB/s",
                 "datasets": [{"label": a, "data": [{"x": _num(b), "y": _num(v)} for b, v in pts]}
                              for a, pts in lines[fam]]} for fam in families]

    def memory_bars(self, file, families, adapters, cells):
        specs = []
        for i, label in ((0, "allocations per message"), (1, "peak heap, KiB")):
            spec = {"title": f"decode of {file}: {label}", "type": "bar", "y": label,
                    "labels": [short(f) for f in families],
                    "datasets": [{"label": a, "data": [
                        None if (a, f) not in cells else
                        _num((cells[(a, f)][i] or 0) / (1024 if i else 1)) for f in families]}
                        for a in adapters if any((a, f) in cells for f in families)]}
            specs += split_by_format(spec, self.formats)
        return specs

    def phase_bars(self, bars, phases, title):
        return [{"title": title, "type": "bar", "horizontal": True, "stacked": True,
                 "x": "µs per call", "labels": [b[0] for b in bars],
                 "datasets": [{"label": p, "data": [_num((b[1][j] or 0) / 1e3) for b in bars]}
                              for j, p in enumerate(phases)]}]

    def share_lines(self, shares, xs):
        return [{"title": f"keep-alive {sh['call']}", "type": "line", "labels": xs, "logy": True,
                 "y": "parser share of the call, %",
                 "datasets": [{"label": short(fam), "data": [_num(v.get(x) or None) for x in xs]}
                              for fam, v in sh["rows"].items()]} for sh in shares]

    def load_charts(self, runs, label):
        out = []
        for call in sorted({r["call"] for r in runs}):
            closed = [r for r in runs if r["mode"] == "closed" and r["call"] == call and r["points"]]
            fams = sorted({r["family"] for r in closed})
            if not fams:
                continue
            specs = [{"title": fam, "type": "line", "logx": True, "x": "connections",
                      "y": "transactions / s",
                      "datasets": [{"label": label(r), "data": [
                          {"x": p["connections"], "y": _num(p["tps"] or 0)}
                          for p in sorted(r["points"], key=lambda p: p["connections"])]}
                          for r in closed if r["family"] == fam]} for fam in fams]
            out.append(self.save(specs, f"load_tps_{call}.svg", f"TPS against connections, {call}"))
        opened = [r for r in runs if r["mode"] == "open" and r["points"]]
        if opened:
            datasets = []
            for r in opened:
                pts = sorted(r["points"], key=lambda p: p["tps"] or 0)
                for q in ("p50_us", "p99_us"):
                    datasets.append({"label": f"{r['call']} {q[:-3]}", "data": [
                        {"x": _num(p["tps"] or 0), "y": _num((p[q] or 0) / 1000)} for p in pts]})
            spec = {"title": "Latency against achieved rate", "type": "line", "logy": True,
                    "x": "achieved calls / s", "y": "latency from the due time, ms",
                    "datasets": datasets}
            out.append(self.save([spec], "load_latency_rate.svg", "Latency against achieved rate"))
        return out

    def speed_scatter(self, points):
        return [{"title": "Speed against conformance (W3C XML suite, JSONTestSuite)",
                 "type": "scatter", "logx": True,
                 "x": "decode time, geometric mean over families (× the fastest of its format)",
                 "y": "not-well-formed documents rejected (%), as benchmarked",
                 "datasets": [{"label": fmt.upper(), "data": [
                     {"x": _num(g), "y": _num(p), "name": name}
                     for name, f, g, p in points if f == fmt]}
                     for fmt in dict.fromkeys(f for _n, f, _g, _p in points)]}]
