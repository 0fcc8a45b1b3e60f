"""Wire bytes per family: bytes per call both ways, against the binary control."""
from sbtools.fmt import fmt_num, short, table
from sbtools.report.data import call_key, families_in, wire_bytes

TITLE = "Wire bytes per family"
SOURCE = None


def compute(run):
    ka = {k: r for k, r in run.rt.items() if k[0] == "keepalive"}
    if not ka:
        return None
    wire = {}
    for (_v, f, _p, c), r in ka.items():
        if wire_bytes(r):
            wire.setdefault((f, c), wire_bytes(r))
    calls = sorted({k[3] for k in ka}, key=call_key)
    fams = families_in(run.data, ka)
    return {"calls": calls, "families": fams,
            "bytes": {c: {f: wire[(f, c)] for f in fams if (f, c) in wire} for c in calls}}


def markdown(d, charts):
    rows = []
    for c in d["calls"]:
        per, base = d["bytes"][c], d["bytes"][c].get("binary")
        rows.append([f"`{c}`"] + ["–" if f not in per else
                                  f"{fmt_num(per[f])} ({per[f] / base:.1f}×)"
                                  if base and f != "binary" else fmt_num(per[f])
                                  for f in d["families"]])
    text = ["Bytes per call on the wire, both directions (TCP payload counted at the socket, "
            "HTTP headers included), keep-alive; in brackets the ratio to the length-prefixed "
            "binary control.", "",
            table(["call"] + [short(f) for f in d["families"]], rows)]
    if charts:
        groups = [(c, [(f, d["bytes"][c][f]) for f in d["families"] if d["bytes"][c].get(f)])
                  for c in d["calls"]]
        fig, _ax = charts.grouped(groups, "bytes per call (sent + received)",
                                  "wire bytes per family against the binary control", "wire.svg",
                                  log=True)
        text += ["", charts.save(fig, "wire.svg", "wire bytes per family")]
    return "\n".join(text)
