"""The dashboard's whole-call table (site.py puts it on a machine's callcount page): each row's
newest counts per side (tools/callcount) beside the parse rows of the same message from the
machine's newest instruction counts (tools/icount: the decode of the request, which the server
parses, or of the answer, which the client does)."""
import html

from sbtools import names

COLUMNS = ("row", "instructions client / server", "corpus parse (icount)", "of the side's",
           "system calls c / s", "allocations c / s", "mutex locks c / s", "bytes out / in")


def _newest(series, machine, suite):
    """{(benchmark, metric): newest value} of one machine and suite."""
    return {(x.benchmark, x.metric): x.values[-1] for x in series
            if x.machine == machine and x.suite == suite and x.values}


def _num(v):
    return "–" if v is None else f"{v:,.0f}" if abs(v) >= 100 else f"{v:g}"


def rows(series, machine):
    """[[cell text]] of the table, one row per callcount row of the machine's newest run."""
    calls = _newest(series, machine, "callcount")
    parse = _newest(series, machine, "icount")
    found = {}
    for bench, _metric in calls:
        f = names.fields(bench, "callcount")
        if f:
            found.setdefault((f["variant"], f["family"], f["adapter"], f["call"]), None)
    out = []
    for variant, family, adapter, call in sorted(found):
        row = f"{variant}/{family}/{adapter}/{call}"
        get = lambda side, metric: calls.get(  # noqa: E731
            (f"callcount/{side}/{row}", metric))
        request = parse.get((f"decode/{adapter}/{family}/{call}.call", "instructions"))
        answer = parse.get((f"decode/{adapter}/{family}/{call}.response", "instructions"))
        side = "server" if request else "client"
        whole = get(side, "instructions")
        part = request or answer
        out.append([row, f"{_num(get('client', 'instructions'))} / {_num(get('server', 'instructions'))}",
                    _num(part), f"{100 * part / whole:.0f}% of the {side}" if part and whole else "–",
                    f"{_num(get('client', 'syscalls'))} / {_num(get('server', 'syscalls'))}",
                    f"{_num(get('client', 'allocs_per_call'))} / "
                    f"{_num(get('server', 'allocs_per_call'))}",
                    f"{_num(get('client', 'lock_calls'))} / {_num(get('server', 'lock_calls'))}",
                    f"{_num(get('client', 'request_bytes'))} / "
                    f"{_num(get('client', 'response_bytes'))}"])
    return out


def table(series, machine):
    """The HTML table (with its heading), or '' when the machine has no whole-call counts."""
    body = rows(series, machine)
    if not body:
        return ""
    head = "".join(f"<th>{html.escape(c)}</th>" for c in COLUMNS)
    cells = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>"
                    for r in body)
    return ("<h2>The whole call, newest run, beside its parse rows</h2>\n"
            "<p>Per call, exact: each side's instructions, system calls, allocations and mutex "
            "locks (tools/callcount) and the bytes each way; the corpus parse is the newest "
            "tools/icount decode of the call's corpus file on this machine (the same call, not "
            "the same bytes: the client's encoder writes its own).</p>\n"
            f"<table><tr>{head}</tr>{cells}</table>\n")
