"""tools/wild: `soapbench decode` over a wild corpus (corpus/wild/, docs/corpus.md "The wild corpus"),
every message by every adapter of its format, judged against the manifest's expected outcome.

Verdicts per (message, adapter):
  right    typed to the manifest's canonical JSON; or refused where the manifest says refused, or
           (without --with-wsdl) where it says the message needs its WSDL
  refused  refused where the manifest expects a typed answer (the reason is kept)
  wrong    typed where the manifest says refused or needs a WSDL, or typed to another answer:
           a silent wrong answer
With --with-wsdl the messages that need a WSDL are decoded with it (--wsdl FILE) and judged against
canonical_with_wsdl (typed) or with_wsdl_refused (refused); the other messages are left out.
--both runs the two passes, without WSDLs and then with them.
--time [SECONDS] then times the headline messages (per family the largest and the median-sized typed
without a WSDL, sbtools.wild_timing) with every adapter, within SECONDS, and keeps the
`soapbench compare` document in --json's document under "timings".
--json FILE writes every verdict as a result document (tool "tools/wild", machine_id, context,
verdicts): `tools/results save` keeps it in results/<machine-id>/ and tools/report draws its
"Real-world messages" section and right-answers check from it (`ctest -R bench.wild` writes one
into build/results/ on every benchmark run).
Exit 1 when any verdict is wrong (--fail-on refused: also when any is refused), 0 otherwise, 2 on
bad usage or input.
"""
import argparse
import collections
import hashlib
import json
import os
import subprocess
import sys
import time

from sbtools import paths, store, wild_timing
from sbtools.gbench import ResultError

VERDICTS = ("right", "refused", "wrong")
TOOL = "tools/wild"  # the result document's "tool" (sbtools.store.MACHINE_FILES)
WILD_DIR = os.path.join(paths.CORPUS_DIR, "wild")
TIMEOUT_S = 120


def load_manifest(corpus_dir):
    with open(os.path.join(corpus_dir, "manifest.json"), encoding="utf-8") as f:
        return json.load(f)


def adapters(soapbench):
    """{"xml": [names], "json": [names]} from `soapbench list --json`."""
    out = subprocess.run([soapbench, "list", "--json"], capture_output=True, text=True,
                         check=True, timeout=TIMEOUT_S).stdout
    by = collections.defaultdict(list)
    for a in json.loads(out):
        by[a["format"]].append(a["name"])
    return dict(by)


def decode(soapbench, adapter, corpus_dir, entries, method="", wsdl=None):
    """{path: ("typed", canonical line) | ("refused", reason)} for entries decoded in one run."""
    files = [os.path.join(corpus_dir, e["path"]) for e in entries]
    cmd = [soapbench, "decode", "--parser", adapter]
    if method:
        cmd += ["--method", method]
    # The options after the files: before issue 44's fix --wsdl took every path after it.
    cmd += files + (["--wsdl", os.path.join(corpus_dir, wsdl)] if wsdl else [])
    try:
        run = subprocess.run(cmd, capture_output=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return {e["path"]: ("refused", f"no answer within {TIMEOUT_S} s") for e in entries}
    return match_output(entries, files, run.stdout.decode("utf-8", "replace"),
                        run.stderr.decode("utf-8", "replace"), adapter)


def match_output(entries, files, stdout, stderr, adapter):
    """Pairs decode's output with its files: one stdout line per decoded file and one
    `soapbench: FILE: ADAPTER: reason` stderr line per refused one, both in file order."""
    refusals = {}
    for line in stderr.splitlines():
        for f in files:
            head = f"soapbench: {f}: "
            if line.startswith(head) and f not in refusals:
                rest = line[len(head):]
                refusals[f] = rest[len(adapter) + 2:] if rest.startswith(adapter + ": ") else rest
                break
    # A refusal of the whole run (`soapbench: decode: why`, e.g. an unreadable WSDL).
    general = [line[len("soapbench: decode: "):] for line in stderr.splitlines()
               if line.startswith("soapbench: decode: ")]
    lines = stdout.splitlines()
    out = {}
    for e, f in zip(entries, files):
        if f in refusals:
            out[e["path"]] = ("refused", refusals[f])
        elif lines:
            out[e["path"]] = ("typed", lines.pop(0))
        else:
            out[e["path"]] = ("refused", general[0] if general else "no output and no reason")
    return out


def same_canonical(expected, line):
    if "canonical" in expected:
        return line == expected["canonical"]
    return hashlib.sha256(line.encode("utf-8")).hexdigest() == expected["canonical_sha256"]


def judge(entry, result, with_wsdl=False):
    """(verdict, detail) of one decode result against the manifest entry."""
    kind, text = result
    expected = entry["expected"]
    if with_wsdl:
        if "canonical_with_wsdl" in entry:
            want = {"canonical": entry["canonical_with_wsdl"]}
            expected = "typed"
        elif "with_wsdl_refused" in entry:
            expected = "refused"
        else:
            return None
    else:
        want = entry
    if expected == "typed":
        if kind == "refused":
            return "refused", text
        if same_canonical(want, text):
            return "right", ""
        return "wrong", "typed to another answer: " + text[:200]
    if kind == "refused":
        return "right", text
    why = ("typed without its WSDL" if expected == "needs-wsdl"
           else "typed what the manifest refuses: " + entry.get("reason", entry.get(
               "with_wsdl_refused", "")))
    return "wrong", why + " -> " + text[:200]


def groups(entries, with_wsdl):
    """Entries grouped by what one decode run can share: format, method and WSDL."""
    g = collections.defaultdict(list)
    for e in entries:
        if with_wsdl:
            if e["expected"] != "needs-wsdl":
                continue
            key = (e["format"], e.get("operation", ""), e["wsdl"])
        else:
            key = (e["format"], e.get("operation", ""), None)
        g[key].append(e)
    return g


def run(soapbench, corpus_dir, parsers=None, with_wsdl=False, progress=None):
    """[(entry, adapter, verdict, detail)] over the corpus."""
    manifest = load_manifest(corpus_dir)
    names = adapters(soapbench)
    out = []
    plan = groups(manifest["entries"], with_wsdl)
    for (fmt, method, wsdl), entries in sorted(plan.items(), key=lambda kv: str(kv[0])):
        for adapter in names.get(fmt, []):
            if parsers and adapter not in parsers:
                continue
            results = decode(soapbench, adapter, corpus_dir, entries, method, wsdl)
            for e in entries:
                v = judge(e, results[e["path"]], with_wsdl)
                if v is not None:
                    out.append((e, adapter, v[0], v[1]))
        if progress:
            progress(f"{len(entries)} {fmt} message(s), method '{method}'"
                     + (f", {wsdl}" if wsdl else "") + ": judged")
    return out


def document(verdicts, soapbench, corpus_dir, argv, timings=None):
    """The --json result document: every verdict ({"with_wsdl": the pass}), the run's context
    (machine, date, commit, command) and, with --time, the compare document ("timings"): the shape
    `tools/results save` and tools/report read."""
    try:  # the machine folder it is filed under: this build's (sbtools.store.this_machine)
        machine = store.this_machine(paths.RESULTS_DIR, os.path.dirname(soapbench))
    except ResultError as err:
        print(f"tools/wild: no machine_id in the document ({err})", file=sys.stderr)
        machine = None
    doc = {"tool": TOOL, "machine_id": machine,
            "context": {"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                        "git_sha": store.source_sha(), "corpus": paths.rel(corpus_dir),
                        "command": " ".join([TOOL, *argv])},
            "verdicts": [{"path": e["path"], "family": e["family"], "adapter": ad,
                          "with_wsdl": w, "verdict": v, "detail": d}
                         for e, ad, v, d, w in verdicts]}
    if timings is not None:
        doc["timings"] = timings
    return doc


def table(verdicts):
    """{(family, adapter): Counter(verdict)}."""
    t = collections.defaultdict(collections.Counter)
    for e, adapter, verdict, *_ in verdicts:
        t[(e["family"], adapter)][verdict] += 1
    return t


def format_table(t):
    lines = ["| family | adapter | right | refused | wrong |", "|---|---|---|---|---|"]
    for (family, adapter) in sorted(t):
        c = t[(family, adapter)]
        lines.append(f"| {family} | {adapter} | {c['right']} | {c['refused']} | {c['wrong']} |")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="tools/wild", description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--soapbench", default=os.path.join(paths.BUILD_DIR, "soapbench"),
                    help="the soapbench binary (default: build/soapbench)")
    ap.add_argument("--corpus", default=WILD_DIR, help="the corpus folder (default: corpus/wild)")
    ap.add_argument("--parser", action="append", default=[],
                    help="judge only this adapter (repeatable; default: every adapter)")
    passes = ap.add_mutually_exclusive_group()
    passes.add_argument("--with-wsdl", action="store_true",
                        help="decode the messages that need a WSDL with it, and only those")
    passes.add_argument("--both", action="store_true",
                        help="both passes: every message without WSDLs, then those that need a "
                             "WSDL with it")
    ap.add_argument("--fail-on", choices=["wrong", "refused", "none"], default="wrong",
                    help="exit 1 when a verdict is wrong (default), wrong or refused, or never")
    ap.add_argument("--details", action="store_true",
                    help="one line per message and adapter that is not right")
    ap.add_argument("--time", type=float, nargs="?", const=wild_timing.DEFAULT_BUDGET_S,
                    metavar="SECONDS",
                    help="then time the headline messages (per family the largest and the "
                         "median-sized) with every adapter within SECONDS (default "
                         f"{wild_timing.DEFAULT_BUDGET_S})")
    ap.add_argument("--json", metavar="FILE",
                    help="write every verdict to FILE as a result document (tools/report's "
                         "\"Real-world messages\")")
    argv = list(sys.argv[1:] if argv is None else argv)
    a = ap.parse_args(argv)
    if not os.access(a.soapbench, os.X_OK):
        print(f"tools/wild: no soapbench at {a.soapbench} (build it, or give --soapbench)",
              file=sys.stderr)
        return 2
    if a.time is not None and not a.time > 0:
        print("tools/wild: --time takes a positive number of seconds", file=sys.stderr)
        return 2
    verdicts = []  # (entry, adapter, verdict, detail, with_wsdl)
    timings = None
    say = lambda s: print("tools/wild: " + s, file=sys.stderr)  # noqa: E731
    try:
        for with_wsdl in ([False, True] if a.both else [a.with_wsdl]):
            verdicts += [(*v, with_wsdl) for v in run(
                a.soapbench, a.corpus, set(a.parser), with_wsdl,
                progress=say)]
        if a.time:
            timings = wild_timing.run(a.soapbench, a.corpus, load_manifest(a.corpus)["entries"],
                                      a.time, set(a.parser), progress=say)
    except subprocess.CalledProcessError as err:
        print(f"tools/wild: {' '.join(map(str, err.cmd[:3]))} failed ({err.returncode}): "
              f"{(err.stderr or '').strip()[-400:]}", file=sys.stderr)
        return 2
    except (OSError, ValueError, KeyError, subprocess.TimeoutExpired) as err:
        print(f"tools/wild: {err}", file=sys.stderr)
        return 2
    if a.details:
        for e, adapter, verdict, detail, w in verdicts:
            if verdict != "right":
                print(f"{verdict}: {e['path']}{' (with its WSDL)' if w else ''}: {adapter}: "
                      f"{detail}")
    for w in sorted({v[4] for v in verdicts}):
        if a.both:
            print("with their WSDLs:" if w else "without WSDLs:")
        print(format_table(table([v for v in verdicts if v[4] == w])))
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(document(verdicts, a.soapbench, a.corpus, argv, timings), f, indent=1)
    wrong = sum(1 for v in verdicts if v[2] == "wrong")
    if wrong:
        print(f"tools/wild: {wrong} wrong answer(s): see --details or tools/report's "
              "\"Real-world messages\"", file=sys.stderr)
    bad = {"wrong": {"wrong"}, "refused": {"wrong", "refused"}, "none": set()}[a.fail_on]
    return 1 if any(v[2] in bad for v in verdicts) else 0
