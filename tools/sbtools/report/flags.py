"""Adapter flags: every adapter's registry row from the result file's context."""
from sbtools.fmt import md_escape, table

TITLE = "Adapter flags"
SOURCE = None
COLUMNS = [("library", "library"), ("version", "version"), ("format", "format"),
           ("model", "model"), ("utf8", "utf8"), ("entities", "entities"),
           ("namespaces", "namespaces"), ("insitu", "in-situ"), ("reuse", "reuse"),
           ("fastest", "fastest"), ("exempt", "digest exempt")]


def compute(run):
    rows = [{"adapter": fl.get("registry", a), **{k: fl.get(k, "?") for k, _h in COLUMNS},
             "mode": fl.get("mode", "")}
            for a, fl in run.data.adapters.items() if "format" in fl]
    return {"rows": rows} if rows else None


def markdown(d, _charts):
    rows = [[f"`{r['adapter']}`"] + [r[k] for k, _h in COLUMNS] + [md_escape(r["mode"])]
            for r in d["rows"]]
    return ("From the result file's `adapter:<name>` context keys (the registry rows). "
            "*utf8*: validates UTF-8; *entities*: expands entity and character references; "
            "*namespaces*: resolves namespaces; *in-situ*: writes into its input (gets a fresh "
            "copy outside the timed region); *reuse*: reuses parser state across messages; "
            "*fastest*: a named fastest mode; *digest exempt*: only the structure of its digest "
            "is checked.\n\n" +
            table(["adapter"] + [h for _k, h in COLUMNS] + ["mode"], rows,
                  ["l", "l", "l", "l", "l", "c", "c", "c", "c", "c", "c", "c", "l"]))
