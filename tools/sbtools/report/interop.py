"""Interop: the matrix `soapbench interop --json` writes, per family rows client stack, columns
server stack, and the failures listed."""
import os

from sbtools import peers
from sbtools.gbench import ResultError, load_json
from sbtools.paths import rel

TITLE = "Interop"
SOURCE = "interop"


def cell(cells):
    """One matrix cell from a client -> server pair's cells: "ok/total", "fault" (malformed
    request), or an off pair's reason ("no common protocol", "off (not built)"). Operations a
    server leaves out (off cells of one operation) are not counted."""
    off = [c for c in cells if c.get("status") == "off" and c.get("operation") == "*"]
    if off:
        d = off[0].get("detail", "")
        return "off (not built)" if "not built" in d else d
    cells = [c for c in cells if c.get("status") != "off"]
    ok = sum(1 for c in cells if c.get("status") in ("ok", "fault-ok"))
    if cells and cells[0].get("client") == "malformed":
        return "fault" if ok == len(cells) else "**no fault**"
    return f"{ok}/{len(cells)}" if ok == len(cells) else f"**{ok}/{len(cells)}**"


def family_matrix(cells, fam):
    fc = [c for c in cells if c["family"] == fam]
    servers = list(dict.fromkeys(c["server"] for c in fc))
    clients = sorted(dict.fromkeys(c["client"] for c in fc), key=lambda k: k == "malformed")
    return {"family": fam, "servers": servers,
            "rows": [{"client": cl, "cells": [
                cell([c for c in fc if c["client"] == cl and c["server"] == sv])
                if any(c["client"] == cl and c["server"] == sv for c in fc) else ""
                for sv in servers]} for cl in clients]}


def compute(run):
    path = run.paths.get("interop")
    if not path or not os.path.exists(path):
        return None
    try:
        doc = load_json(path)
    except ResultError as e:
        return {"path": rel(path), "error": f"could not be read: {e}"}
    cells = doc.get("cells") if isinstance(doc, dict) else None
    if not cells:
        return {"path": rel(path), "error": "holds no cells."}
    ctx = doc.get("context") or {}
    return {"path": rel(path), "error": None, "only": ctx.get("only", "?"),
            "sha": ctx.get("git_sha", "?"), "cells": len(cells),
            "families": [family_matrix(cells, f) for f in dict.fromkeys(c["family"] for c in cells)],
            "failed": [{k: c.get(k, "") for k in ("client", "server", "family", "operation", "detail")}
                       for c in cells if c.get("status") == "fail"]}


def drift():
    """The peers that declare DRIFT_ULPS, as "<name>'s doubles within its documented drift"."""
    own = [f"{p['name']}'s" for p in peers.declared() if p["drift_ulps"]]
    if not own:
        return "exactly"
    whose = "its" if len(own) == 1 else "their"
    return f"{peers.joined(own)} doubles within {whose} documented drift"


def markdown(d, _charts):
    if d["error"]:
        return f"`{d['path']}` {d['error']}"
    text = [f"From `{d['path']}` (`soapbench interop --only {d['only']}`, git "
            f"`{d['sha']}`): every client stack against every server stack that "
            "speaks the family, itself included, each answer checked against the contract's "
            f"canonical JSON ({drift()}); a cell counts the "
            "operations answered right, bold when some were not. *malformed request*: `add` with "
            "a value that is not an int, which each server must answer with its protocol's "
            "fault. Reproduce: `build/soapbench interop --only all`.", ""]
    for fam in d["families"]:
        text += [f"**{fam['family']}**", "", "| client \\ server | " + " | ".join(fam["servers"]) + " |",
                 "|---|" + "---|" * len(fam["servers"])]
        for row in fam["rows"]:
            name = "malformed request" if row["client"] == "malformed" else row["client"]
            text.append(f"| {name} | " + " | ".join(row["cells"]) + " |")
        text.append("")
    text.append(f"{d['cells']} cells, {len(d['failed'])} failed.")
    if d["failed"]:
        text += ["", "| client | server | family | operation | expected vs got |", "|---|---|---|---|---|"]
        for c in d["failed"]:
            detail = str(c["detail"])[:200].replace("|", "\\|")
            text.append(f"| {c['client']} | {c['server']} | {c['family']} | `{c['operation']}` | "
                        f"{detail} |")
    return "\n".join(text)
