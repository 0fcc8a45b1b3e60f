"""Conformance: the standard suites (docs/conformance.md). Reads what `soapbench conformance
--suite w3c-xml --suite json-test-suite --json FILE` writes, computes one table row per adapter,
renders the Markdown tables per format, the worst documents, and a chart of speed (the decode
geomean of the run's ranking) against not-wf rejected %.
"""
import math

from sbtools import gbench, names
from sbtools.paths import rel

TITLE = "Conformance: the standard suites"
SOURCE = "conformance_suites"
TOOL = "soapbench conformance --suite"


def load(path):
    """The document at path (the result tools' strict reader); ValueError when it is not a
    suites file."""
    try:
        doc = gbench.load_json(path)
    except gbench.ResultError as e:
        raise ValueError(str(e)) from e
    if not isinstance(doc, dict) or doc.get("tool") != TOOL or "suites" not in doc:
        raise ValueError(f"{path}: not a `{TOOL}` file")
    return doc


def percent(part, whole):
    """part/whole in percent, None when whole is 0."""
    return None if not whole else 100.0 * part / whole


def _fmt(p):
    return "–" if p is None else f"{p:.0f}%"


def rows(suite):
    """One row per adapter of a suite: its figures in each configuration, by config name."""
    out = {}
    for r in suite["records"]:
        row = out.setdefault(r["adapter"], {"adapter": r["adapter"], "library": r["library"],
                                            "version": r["version"], "configs": {}})
        row["configs"][r["config"]] = {
            "valid": percent(r["accepted_valid"], r["valid"]),
            "not_wf": percent(r["rejected_not_wf"], r["not_wf"]),
            "implementation_defined": (r["accepted_implementation_defined"],
                                       r["implementation_defined"]),
            "edition5": percent(r.get("edition5_conforming", 0), r.get("edition5", 0)),
            "namespaces": percent(r.get("namespaces_conforming", 0), r.get("namespaces", 0)),
            "refused": r["refused_by_policy"],
            "crashes": r["crashes"],
            "hangs": r["hangs"],
            "digest": (r["digest_disagreements"], r["digest_compared"]),
            "counts": (r["accepted_valid"], r["valid"], r["rejected_not_wf"], r["not_wf"]),
        }
    return list(out.values())


def _xml_table(suite):
    head = ("| adapter | valid accepted (policy) | not-wf rejected (policy) | valid accepted "
            "(library) | not-wf rejected (library) | 5th-ed. names | namespaces | crashes / "
            "hangs | Digest ≠ out/ |")
    lines = [head, "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for row in rows(suite):
        p, lib = row["configs"].get("policy", {}), row["configs"].get("library", {})
        fails = sum(c["crashes"] + c["hangs"] for c in row["configs"].values())
        d = lib.get("digest", (0, 0))
        lines.append(f"| {row['adapter']} | {_fmt(p.get('valid'))} | {_fmt(p.get('not_wf'))} | "
                     f"{_fmt(lib.get('valid'))} | {_fmt(lib.get('not_wf'))} | "
                     f"{_fmt(lib.get('edition5'))} | {_fmt(lib.get('namespaces'))} | {fails} | "
                     f"{d[0]}/{d[1]} |")
    return lines


def _json_table(suite):
    lines = ["| adapter | y_ accepted | n_ rejected | i_ accepted | crashes / hangs | "
             "Digest ≠ majority |", "|---|---:|---:|---:|---:|---:|"]
    for row in rows(suite):
        c = row["configs"]["policy"]
        i_acc, i_all = c["implementation_defined"]
        lines.append(f"| {row['adapter']} | {_fmt(c['valid'])} | {_fmt(c['not_wf'])} | "
                     f"{i_acc}/{i_all} | {c['crashes'] + c['hangs']} | "
                     f"{c['digest'][0]}/{c['digest'][1]} |")
    return lines


def _filtered(suite):
    """{config: {reason: count}} of the tests not judged (the same for every adapter)."""
    out = {}
    for r in suite["records"]:
        out.setdefault(r["config"], {k: len(v) for k, v in r["filtered"].items()})
    return out


def render_markdown(doc, worst=10):
    """The Markdown tables of every suite in doc, with filtered tests and worst documents."""
    lines = []
    for suite in doc["suites"]:
        xml = suite["format"] == "xml"
        lines += [f"### {suite['suite']} ({suite['package']})", ""]
        lines += _xml_table(suite) if xml else _json_table(suite)
        lines.append("")
        for config, reasons in sorted(_filtered(suite).items()):
            listed = "; ".join(f"{reason}: {n}" for reason, n in sorted(reasons.items()))
            lines.append(f"Not judged ({config}): {listed}.")
        if suite.get("lossy_in_package"):
            lines.append(f"Lossy in the package, counted apart: {len(suite['lossy_in_package'])} "
                         "tests (invalid UTF-8 replaced by U+FFFD).")
        lines.append("")
        shown = [w for w in suite.get("worst", []) if w["config"] == "policy"][:worst]
        if shown:
            lines += ["Not well-formed, yet accepted by the most adapters (policy):", ""]
            for w in shown:
                lines.append(f"- `{w['id']}` ({len(w['accepted_by'])}/{w['judged_by']}: "
                             f"{', '.join(w['accepted_by'])}): {w['about']}")
            lines.append("")
    return "\n".join(lines)


def chart_points(doc, decode_geomeans):
    """[(adapter, format, decode geomean, not-wf rejected % under the policy)] for the adapters
    that have both; decode_geomeans is keyed by benchmark-name adapters (pugixml-dom)."""
    points = []
    for suite in doc["suites"]:
        for row in rows(suite):
            g = decode_geomeans.get(names.field(row["adapter"]))  # the ranking's names
            p = row["configs"].get("policy", {}).get("not_wf")
            if g is not None and p is not None and g > 0:
                points.append((row["adapter"], suite["format"], g, p))
    return points


def speed_chart(points, charts):
    """Decode geomean (x, log) against not-wf rejected % (y), as the chart's Markdown."""
    return charts.save(charts.speed_scatter(points), "conformance_vs_speed.svg",
                       "speed against conformance")


def adapter_geomeans(ranking):
    """{adapter: geomean of its per-family decode ratios} from tools/report's decode_ranking
    ({family: [(adapter, ratio to the fastest, n)]})."""
    ratios = {}
    for ranked in ranking.values():
        for adapter, ratio, _n in ranked:
            ratios.setdefault(adapter, []).append(ratio)
    return {a: math.exp(sum(math.log(v) for v in r) / len(r)) for a, r in ratios.items()}


def compute(run):
    """The suites' document, its path and the chart's points; None without a suites file."""
    got = run.read(SOURCE)
    if not got:
        return None
    path, doc, error = got
    if doc is None or doc.get("tool") != TOOL or "suites" not in doc:
        return {"path": path, "error": error or f"not a `{TOOL}` file"}
    return {"path": path, "doc": doc, "points": chart_points(doc, adapter_geomeans(run.rank))}


def markdown(d, charts):
    if "error" in d:
        return f"`{rel(d['path'])}` could not be read: {d['error']}."
    text = [f"From `{rel(d['path'])}` (`soapbench conformance --suite w3c-xml --suite "
            "json-test-suite --json FILE`): valid = W3C valid and invalid documents a "
            "non-validating processor must accept; not-wf = documents it must reject; policy = "
            "as benchmarked (no DOCTYPE), library = the internal DTD subset allowed. "
            "docs/conformance.md.", ""]
    if charts and d["points"]:
        text += [speed_chart(d["points"], charts), ""]
    text.append(render_markdown(d["doc"]))
    return "\n".join(text)
