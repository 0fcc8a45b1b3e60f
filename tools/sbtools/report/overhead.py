"""Adapter overhead vs direct calls: parse/<lib>-dom against parse/<lib>-dom-direct."""
from sbtools import names
from sbtools.fmt import fmt_num, table, us
from sbtools.report.data import MARK
from sbtools.stats import geomean

TITLE = "Adapter overhead vs direct calls"
SOURCE = "icount"
DIRECT = "-dom-direct"


def library_rows(data, lib):
    """[(file, direct name, adapter name)] of one library's direct-call references that ran."""
    out = []
    for name in data.res:
        f = names.fields(name, "level")
        if f is None or f["level"] != "parse" or f["adapter"] != lib + DIRECT or not data.get(name):
            continue
        rest = f"{f['family']}/{f['file']}"
        adapter = names.build("level", level="parse", adapter=f"{lib}-dom", family=f["family"],
                              file=f["file"])
        if data.get(adapter):
            out.append((rest, name, adapter))
    return out


def compute(run):
    data = run.data
    libs = sorted({f["adapter"][:-len(DIRECT)] for f in
                   (names.fields(n, "level") for n in data.res)
                   if f and f["level"] == "parse" and f["adapter"].endswith(DIRECT)})
    rows, detail, bench_names = [], [], []
    for lib in libs:
        pairs = library_rows(data, lib)
        for rest, direct, adapter in pairs:
            bench_names += [direct, adapter]
            detail.append({"library": lib, "file": rest, "direct_instr": data.instr(direct),
                           "adapter_instr": data.instr(adapter),
                           "direct_ns": data.t(direct), "direct_noisy": data.mark(direct) != "",
                           "adapter_ns": data.t(adapter), "adapter_noisy": data.mark(adapter) != ""})
        mine = [x for x in detail if x["library"] == lib]
        iratios = [x["adapter_instr"] / x["direct_instr"] for x in mine
                   if x["direct_instr"] and x["adapter_instr"]]
        if mine:
            rows.append({"library": lib, "instr": geomean(iratios), "counted": len(iratios),
                         "time": geomean([x["adapter_ns"] / x["direct_ns"] for x in mine]),
                         "timed": len(mine)})
    if not rows:
        return None
    return {"rows": rows, "detail": detail, "note": data.icount_note(bench_names)}


def prose(rows):
    def files(n):
        return f"{n} file" + ("" if n == 1 else "s")
    parts = [f"`{r['library']}/dom` {(r['instr'] - 1) * 100:+.2f}% in instructions "
             f"({files(r['counted'])}; time: {(r['time'] - 1) * 100:+.1f}% over {files(r['timed'])})"
             if r["instr"] else
             f"`{r['library']}/dom` {(r['time'] - 1) * 100:+.1f}% in time ({files(r['timed'])}; "
             "no instruction counts)" for r in rows]
    return "Adapter overhead, geometric mean: " + "; ".join(parts) + "."


def detail_row(x):
    di, ai = x["direct_instr"], x["adapter_instr"]
    return [f"`{x['library']}`", f"`{x['file']}`", fmt_num(di), fmt_num(ai),
            f"{(ai / di - 1) * 100:+.2f}%" if di and ai else "–",
            us(x["direct_ns"]) + (MARK if x["direct_noisy"] else ""),
            us(x["adapter_ns"]) + (MARK if x["adapter_noisy"] else ""),
            f"{(x['adapter_ns'] / x['direct_ns'] - 1) * 100:+.1f}%"]


def markdown(d, _charts):
    summary = [[f"`{r['library']}/dom`", f"{(r['instr'] - 1) * 100:+.2f}%" if r["instr"] else "–",
                str(r["counted"]), f"{(r['time'] - 1) * 100:+.1f}%", str(r["timed"])]
               for r in d["rows"]]
    text = ["`parse/<lib>-dom` (through the adapter) against `parse/<lib>-dom-direct` (the library "
            "called directly, no adapter) on the same files; geometric mean of adapter/direct. "
            "The overhead is stated from the instructions (tools/icount), the CPU work the "
            "adapter adds; the timings stand beside them and on a shared machine swing by more "
            "than the overhead itself.", "", prose(d["rows"]), "",
            table(["adapter", "overhead, instructions", "files counted", "overhead, time",
                   "files timed"], summary), "",
            table(["library", "file", "direct instr.", "adapter instr.", "overhead instr.",
                   "direct µs", "adapter µs", "overhead time"], [detail_row(x) for x in d["detail"]],
                  ["l", "l", "r", "r", "r", "r", "r", "r"])]
    return "\n".join(text + (["", d["note"]] if d["note"] else []))
