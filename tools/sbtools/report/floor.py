"""The raw loopback floor (roundtrip/floor/<mode>/<bytes>) and the binary control against it;
nearest_floor() sets any round trip beside the floor of its size."""
import math

from sbtools.fmt import fmt_num, table, us
from sbtools.report.data import FLOOR_MODE, MARK, NOISY, call_key, total_ns, wire_bytes

TITLE = "Raw loopback floor"
SOURCE = None
FLOOR_TARGET = 1.3  # the binary control must come within this multiple of the floor (issue 13)
FLOOR_RULE = (f"× floor: the call's total over `roundtrip/floor/{FLOOR_MODE}/<bytes>` (a raw TCP "
              "ping-pong with floor_echo, no framework, measured in the same run), the floor row "
              "whose bytes on the wire (sent + received) are nearest the call's by ratio.")


def nearest_floor(data, r):
    """(floor payload bytes, floor Result) for a round trip: the FLOOR_MODE floor row whose bytes
    on the wire (sent + received) are nearest the round trip's, by ratio; None without floors."""
    floors = data.floor()
    b = wire_bytes(r)
    if not floors or not b:
        return None
    size = min(floors, key=lambda k: abs(math.log((wire_bytes(floors[k]) or 1) / b)))
    return size, floors[size]


def times_floor(data, r):
    """The round trip's total over its nearest floor's, or None."""
    f = nearest_floor(data, r)
    return None if f is None else total_ns(r) / total_ns(f[1])


def compute(run):
    data = run.data
    modes = data.floor_modes()
    if not modes:
        return None
    sizes = sorted({b for m in modes for b in data.floor(m)})
    floors = [{"mode": m, "ns": {b: (total_ns(r), r.noisy(NOISY)) for b, r in data.floor(m).items()}}
              for m in modes]
    ka = sorted(((c, r) for (v, f, p, c), r in run.rt.items()
                 if v == "keepalive" and f == "binary"), key=lambda cr: call_key(cr[0]))
    control = []
    for c, r in ka:
        f = nearest_floor(data, r)
        if f is not None:
            control.append({"call": c, "ns": total_ns(r), "bytes": wire_bytes(r),
                            "floor_bytes": f[0], "floor_ns": total_ns(f[1]),
                            "ratio": total_ns(r) / total_ns(f[1])})
    return {"sizes": sizes, "floors": floors, "control": control, "target": FLOOR_TARGET}


def markdown(d, _charts):
    rows = [[f"`{f['mode']}`"] + [f"{us(f['ns'][b][0])}{MARK if f['ns'][b][1] else ''}"
                                  if b in f["ns"] else "–" for b in d["sizes"]]
            for f in d["floors"]]
    text = ["The raw loopback floor: a length-prefixed message echoed by `floor_echo` (a child "
            "process, plain POSIX sockets, no framework), µs per ping-pong. `blocking`: blocking "
            "recv/send, placed as every round trip (unpinned); `same-cpu`: both processes pinned "
            "to one CPU; `busy-poll`: non-blocking recv spinning on both ends. Columns: payload "
            "bytes each way.", "",
            table(["mode"] + [f"{b:,} B" for b in d["sizes"]], rows), ""]
    rows = [[f"`{c['call']}`", us(c["ns"]), fmt_num(c["bytes"]), f"{c['floor_bytes']:,} B",
             us(c["floor_ns"]), f"{c['ratio']:.2f}×",
             "PASS" if c["ratio"] <= d["target"] else "SHORT"] for c in d["control"]]
    if rows:
        text += [f"The binary control (keep-alive, its server a thread of roundtrip_bench) against "
                 f"the floor: within {d['target']}× of it, or the harness adds cost that the "
                 "round trips would count as transport. The target is read on the small calls "
                 "(`getRate`, `add`, `concat`), which are almost all transport; larger ones carry "
                 "their encoding, decoding and service work above the floor. " + FLOOR_RULE, "",
                 table(["call", "binary µs", "bytes", "floor size", "floor µs", "× floor",
                        f"≤ {d['target']}×"], rows, ["l", "r", "r", "r", "r", "r", "l"])]
    return "\n".join(text).rstrip()
