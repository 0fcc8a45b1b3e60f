"""Conformance: hostile inputs. The matrix `soapbench conformance --json` writes, per mode and
error class, what each adapter rejected; accepted files, crashes, the longest and largest cases."""
import os

from sbtools.fmt import md_escape, table, us
from sbtools.gbench import ResultError, load_json
from sbtools.paths import rel

TITLE = "Conformance: hostile inputs"
SOURCE = "conformance"


def _first(d, keys, default=None):
    for k in keys:
        if k in d and d[k] is not None:
            return d[k]
    return default


def conformance_records(doc):
    """Flattens the shapes `soapbench conformance --json` may write into records
    {adapter, file, accepted, error, time_ns}. Accepted shapes: a list of records;
    {"results"|"records"|"entries"|"matrix": [records]}; {adapter: {file: record}}."""
    recs = []
    if isinstance(doc, dict):
        for key in ("results", "records", "entries", "matrix", "conformance"):
            if isinstance(doc.get(key), list):
                doc = doc[key]
                break
    if isinstance(doc, list):
        items = [(None, None, x) for x in doc if isinstance(x, dict)]
    elif isinstance(doc, dict):
        items = []
        for a, files in doc.items():
            if isinstance(files, dict):
                for f, rec in files.items():
                    items.append((a, f, rec if isinstance(rec, dict) else {"result": rec}))
    else:
        items = []
    for a, f, rec in items:
        adapter = _first(rec, ("adapter", "parser", "name"), a)
        file = _first(rec, ("file", "path", "input", "hostile"), f)
        if adapter is None or file is None:
            continue
        acc = _first(rec, ("accepted", "ok", "passed"))
        if acc is None:
            res = str(_first(rec, ("result", "outcome", "verdict", "status"), "")).lower()
            acc = True if res in ("accepted", "accept", "ok", "pass", "parsed") else \
                False if res else None
        if isinstance(acc, str):
            acc = acc.lower() in ("true", "yes", "accepted", "ok")
        err = _first(rec, ("error", "reason", "message", "stderr"), "")
        t = None
        for k, scale in (("time_ns", 1), ("ns", 1), ("time_us", 1e3), ("us", 1e3),
                         ("time_ms", 1e6), ("ms", 1e6), ("elapsed_ms", 1e6), ("time_s", 1e9),
                         ("seconds", 1e9), ("time", 1e9)):
            if isinstance(rec.get(k), (int, float)):
                t = rec[k] * scale
                break
        recs.append({"adapter": str(adapter).replace("/", "-"), "file": str(file), "accepted": acc,
                     "error": str(err or "").strip(), "time_ns": t,
                     "expected": _first(rec, ("expected", "expect"))})
    return recs


def read(path):
    """(records with mode, class, result and peak attached, level) of a conformance file."""
    doc = load_json(path)
    recs = conformance_records(doc)
    raw = doc.get("records", []) if isinstance(doc, dict) else []
    # Attach mode, class, outcome and peak heap from the raw records (same order).
    for r, x in zip(recs, raw if len(raw) == len(recs) else [{}] * len(recs)):
        r["mode"] = x.get("mode", "policy")
        r["class"] = x.get("error_class") or "?"
        r["result"] = x.get("result") or {True: "accepted", False: "rejected"}.get(r["accepted"], "?")
        r["peak"] = x.get("peak_bytes")
    return recs, doc.get("level", "walk") if isinstance(doc, dict) else "walk"


def mode_matrix(recs, mode, classes, adapters):
    """{class: {adapter: {n, rejected, crashed, timeout}}} of one mode."""
    by = {}
    for r in recs:
        if r["mode"] == mode:
            by.setdefault((r["class"], r["adapter"]), []).append(r)
    return {c: {a: {"n": len(by[(c, a)]),
                    **{k: sum(1 for r in by[(c, a)] if r["result"] == v)
                       for k, v in (("rejected", "rejected"), ("crashed", "crashed"),
                                    ("timeout", "timeout"))}}
                for a in adapters if by.get((c, a))}
            for c in classes}


def compute(run):
    path = run.paths.get("conformance")
    if not path or not os.path.exists(path):
        return None
    try:
        recs, level = read(path)
    except ResultError as e:
        return {"path": rel(path), "error": f"could not be read: {e}"}
    if not recs:
        return {"path": rel(path), "error": "holds no records this report understands."}
    adapters = list(dict.fromkeys(r["adapter"] for r in recs))
    classes = sorted({r["class"] for r in recs})
    timed = [r for r in recs if r["time_ns"] is not None and r["time_ns"] >= 0]
    return {"path": rel(path), "error": None, "level": level, "adapters": adapters,
            "files": len({r["file"] for r in recs}),
            "modes": [{"mode": m, "classes": mode_matrix(recs, m, classes, adapters)}
                      for m in ("policy", "library") if any(r["mode"] == m for r in recs)],
            "accepted": sorted((r for r in recs if r["result"] == "accepted"),
                               key=lambda r: (r["mode"], r["adapter"], r["file"])),
            "broken": [r for r in recs if r["result"] in ("crashed", "timeout")],
            "slowest": sorted(timed, key=lambda r: -r["time_ns"])[:10],
            "largest": sorted([r for r in timed if isinstance(r.get("peak"), (int, float))],
                              key=lambda r: -r["peak"])[:10] if timed else []}


def cell_text(c):
    txt = f"{c['rejected']}/{c['n']}"
    if c["crashed"]:
        txt += f" {c['crashed']}C"
    if c["timeout"]:
        txt += f" {c['timeout']}T"
    bad = c["rejected"] + c["crashed"] + c["timeout"] < c["n"] or c["crashed"] or c["timeout"]
    return f"**{txt}**" if bad else txt


def mib(r):
    p = r.get("peak")
    return f"{p / 1048576:.1f}" if isinstance(p, (int, float)) and p >= 0 else "–"


def case_tables(d):
    text = []
    if d["accepted"]:
        rows = [[r["mode"], f"`{r['adapter']}`", f"`{os.path.basename(r['file'])}`", f"`{r['class']}`"]
                for r in d["accepted"]]
        text += ["Accepted hostile files (library facts):", "",
                 table(["mode", "adapter", "file", "class"], rows), ""]
    if d["broken"]:
        rows = [[r["mode"], f"`{r['adapter']}`", f"`{os.path.basename(r['file'])}`",
                 md_escape(r["error"][:160])] for r in d["broken"]]
        text += ["Crashes and timeouts:", "",
                 table(["mode", "adapter", "file", "what happened"], rows), ""]
    if d["slowest"]:
        rows = [[r["mode"], f"`{r['adapter']}`", f"`{os.path.basename(r['file'])}`", r["result"],
                 us(r["time_ns"]), mib(r), md_escape(r["error"][:100]) or "–"] for r in d["slowest"]]
        text += ["Longest cases (one run each):", "",
                 table(["mode", "adapter", "file", "result", "µs", "peak MiB", "error"], rows,
                       ["l", "l", "l", "l", "r", "r", "l"]), ""]
        rows = [[r["mode"], f"`{r['adapter']}`", f"`{os.path.basename(r['file'])}`", r["result"],
                 f"{r['peak'] / 1048576:.1f}", us(r["time_ns"])] for r in d["largest"]]
        text += ["Largest peak heap:", "",
                 table(["mode", "adapter", "file", "result", "peak MiB", "µs"], rows,
                       ["l", "l", "l", "l", "r", "r"])]
    return text


def markdown(d, _charts):
    if d["error"]:
        return f"`{d['path']}` {d['error']}"
    text = [f"From `{d['path']}` (`soapbench conformance --json`, level `{d['level']}`): every "
            f"adapter on each of {d['files']} hostile files, each case in its own process. Two "
            "modes: **policy** (the suite's defaults: DOCTYPE refused as SOAP requires, nesting "
            "depth 256) and **library** (DOCTYPE let through to the library; external entities "
            "and the network stay off). Cells count rejected / files of that class for the "
            "adapter's format; a bold cell means some were accepted (a library fact, listed "
            "below); C = crashed, T = timed out. Reproduce: `build/soapbench conformance --json "
            "FILE`.", ""]
    for m in d["modes"]:
        rows = [[f"`{c}`"] + [cell_text(cells[a]) if a in cells else "" for a in d["adapters"]]
                for c, cells in m["classes"].items() if cells]
        text += [f"**{m['mode']}**", "",
                 table(["class"] + [f"`{a}`" for a in d["adapters"]], rows,
                       ["l"] + ["c"] * len(d["adapters"])), ""]
    return "\n".join(text + case_tables(d))
