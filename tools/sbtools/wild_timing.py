"""The wild corpus's headline messages timed (issue 41: "the headline sizes timed"): per family,
the largest and the median-sized of the messages the manifest types without a WSDL, decoded by
every adapter of their format with `soapbench compare --level decode`, which checks before timing
that every adapter did the same work (an adapter that refuses or disagrees is named, not timed).

`tools/wild --time [SECONDS]` runs it within that budget (DEFAULT_BUDGET_S) and keeps the compare document in its
result document under "timings"; tools/report's "Real-world messages" draws it as "Your messages"
draws any compare run (sbtools.report.your_messages).
"""
import collections
import json
import os
import subprocess
import tempfile

DEFAULT_BUDGET_S = 20  # bench.wild's (`--time` alone): the default benchmark set's share


def headline(entries):
    """The manifest entries to time, in path order: per family, the largest and the median-sized
    (the lower median of an even count) of those typed without a WSDL."""
    by_family = collections.defaultdict(list)
    for e in entries:
        if e.get("expected") == "typed":
            by_family[e["family"]].append(e)
    chosen = {}
    for family_entries in by_family.values():
        ordered = sorted(family_entries, key=lambda e: (e["bytes"], e["path"]))
        for e in (ordered[-1], ordered[(len(ordered) - 1) // 2]):
            chosen[e["path"]] = e
    return [chosen[p] for p in sorted(chosen)]


def command(soapbench, files, budget_s, out, parsers=()):
    """The compare command line for `files` (paths relative to the corpus folder), every adapter
    or those named in `parsers`."""
    return [soapbench, "compare", "--level", "decode", "--budget", f"{budget_s:g}",
            "--json", out, *[a for p in sorted(parsers) for a in ("--parser", p)], *files]


def run(soapbench, corpus_dir, entries, budget_s, parsers=(), progress=None):
    """The compare document of the headline messages, timed within budget_s seconds. Raises
    subprocess.CalledProcessError when compare fails (its stderr in the message)."""
    files = [e["path"] for e in headline(entries)]
    if progress:
        progress(f"timing {len(files)} headline message(s) within {budget_s:g} s: "
                 + ", ".join(files))
    with tempfile.TemporaryDirectory(prefix="sb-wild-time-") as tmp:
        out = os.path.join(tmp, "compare.json")
        # Run in the corpus folder so the messages are named by their manifest paths.
        r = subprocess.run(command(os.path.abspath(soapbench), files, budget_s, out, parsers),
                           cwd=corpus_dir, capture_output=True, text=True,
                           timeout=budget_s * 3 + 60)
        if r.returncode != 0:
            raise subprocess.CalledProcessError(r.returncode, r.args, r.stdout, r.stderr)
        with open(out, encoding="utf-8") as f:
            return json.load(f)
