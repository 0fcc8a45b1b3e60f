"""Numbers and tables as the Markdown report (and the console tools) print them."""


def us(ns, digits=3):
    """Nanoseconds as microseconds: 3 significant digits, whole numbers from 100 µs."""
    if ns is None:
        return "–"
    v = ns / 1e3
    if v >= 100:
        return f"{v:,.0f}"
    return f"{v:.{digits}g}"


def fmt_num(v, digits=3):
    if v is None:
        return "–"
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    return f"{v:.{digits}g}"


def whole(v):
    """A count or rate without decimals, thousands separated; – when absent."""
    return "–" if v is None else f"{v:,.0f}"


def pct(v):
    if v is None:
        return "–"
    if v >= 10:
        return f"{v:.0f}%"
    if v >= 0.1:
        return f"{v:.1f}%"
    return f"{v:.2g}%"


def rng(vals):
    """A range of percentages, one figure when both ends print the same."""
    lo, hi = min(vals), max(vals)
    return pct(lo) if abs(hi - lo) < 1e-12 or pct(lo) == pct(hi) else f"{pct(lo)}–{pct(hi)}"


def span(vals):
    """A range of ratios ('1.20–1.50×'), one figure when both ends print the same."""
    lo, hi = min(vals), max(vals)
    return f"{lo:.2f}×" if f"{lo:.2f}" == f"{hi:.2f}" else f"{lo:.2f}–{hi:.2f}×"


def table(head, rows, align=None):
    """A Markdown table; align per column: l, r or c (default: first left, the rest right)."""
    align = align or ["l"] + ["r"] * (len(head) - 1)
    sep = ["---:" if a == "r" else ":---:" if a == "c" else "---" for a in align]
    out = ["| " + " | ".join(head) + " |", "| " + " | ".join(sep) + " |"]
    for r in rows:
        out.append("| " + " | ".join(str(c).replace("|", "\\|") for c in r) + " |")
    return "\n".join(out)


def md_escape(s):
    return str(s).replace("\n", " ")


# The protocol families as README and docs/service.md name them; the codes are codecs/family.h's
# (the corpus folders, --family). Pages show these; narrow tables keep short().
FAMILY_TITLES = {"xmlrpc": "XML-RPC", "soap11-rpc-encoded": "SOAP 1.1 rpc/encoded",
                 "soap11-rpc-literal": "SOAP 1.1 rpc/literal",
                 "soap11-doc-literal": "SOAP 1.1 document/literal",
                 "soap12-doc-literal": "SOAP 1.2 document/literal", "jsonrpc": "JSON-RPC 2.0",
                 "binary": "binary control"}


def family_title(fam):
    """A family's name for readers: soap11-rpc-encoded -> SOAP 1.1 rpc/encoded."""
    return FAMILY_TITLES.get(fam, fam)


def short(fam):
    """A family's column label: soap11-rpc-encoded -> s11-enc, soap12-doc-literal -> s12-doc."""
    parts = fam.split("-")
    if not parts[0].startswith("soap") or len(parts) < 3:
        return fam
    style = "enc" if parts[2] == "encoded" else "lit" if parts[1] == "rpc" else parts[1]
    return f"s{parts[0][4:]}-{style}"
