"""tools/report: results/<machine-id>/report.md + charts/*.svg from result files.

Every number in the report comes from the Google Benchmark JSON files it reads (medians of
the repetitions when there are repetitions) and, for instructions, a tools/icount file; the
families, default adapters and link model come from the files' context (written by
harness/run_context.cpp); the only constants are the 2001 and 2002 figures, printed as such. A
ranking word ("fastest", "ahead of") appears only where sbtools.stats.Ranking allows it.
"""
import argparse
import glob
import os
import re
import sys

from sbtools import store
from sbtools.charts import Charts
from sbtools.gbench import ResultError
from sbtools.paths import BUILD_DIR, RESULTS_DIR, rel
from sbtools.report import (classic, conformance, conformance_suites, decode, flags, floor,
                            interop, levels, links, load, memory, messaging, noisy, overhead,
                            page, real_world, reproduction, right_answers, roundtrip, rounds,
                            scripting, stacks, statistics, summary, sweep, under_load, wholecall,
                            wire, your_messages)
from sbtools.report.data import Data
from sbtools.report.run import COUNTS
from sbtools.report.run import SOURCES as DOCUMENTS  # the --option of each other tool's document
from sbtools.report.run import Run

# The sections in report order: modules with TITLE, SOURCE, compute(run) and markdown(data, charts).
SECTIONS = [decode, levels, sweep, memory, roundtrip, floor, wire, wholecall, links, messaging,
            stacks, scripting, flags, classic, overhead, conformance, conformance_suites,
            real_world, right_answers, under_load, load, interop, your_messages, noisy, rounds,
            statistics]
DESCRIPTION = ("Write results/<machine-id>/report.md and charts/*.svg (matplotlib, SVG) "
               "from result files: decode throughput per adapter and family, parse vs walk "
               "vs decode, throughput against size, allocations and peak memory, round-trip "
               "phases, wire bytes, link-model parser shares, adapter flags, the 2001 "
               "DOM-vs-pull table, adapter overhead, the conformance matrices, the real-world "
               "messages (tools/wild's verdicts on corpus/wild/), which adapters "
               "gave right answers (the rule the recommendation follows), the servers "
               "under load, the load sweeps and the interop matrix (the newest of each kept "
               "in the machine folder by tools/results save). A section drawn from a document "
               "of another run than the benchmarks says so at its top, with its date and "
               "commit. Sections without data are left out.")
EPILOG = ("examples:\n  tools/report                       # newest run of this machine\n"
          "  tools/report results/<id>/20250101-120000_<sha>.parse_bench.json "
          "results/<id>/20250101-120000_<sha>.roundtrip_bench.json\n"
          "  tools/report --summary build/results/*.json --out-dir /tmp/r")


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="tools/report", description=DESCRIPTION, epilog=EPILOG,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*",
                    help="Google Benchmark JSON files (default: the newest stored run of each "
                         "bench of this machine in results/<machine-id>/)")
    ap.add_argument("--results-dir", default=RESULTS_DIR, help="the results/ folder")
    ap.add_argument("--build-dir", default=BUILD_DIR,
                    help="build tree used to recognise this machine (default build/)")
    ap.add_argument("--machine", metavar="ID", help="machine id (default: this machine)")
    ap.add_argument("--out-dir", metavar="DIR",
                    help="write report.md and charts/ here (default results/<machine-id>/)")
    ap.add_argument("--conformance", metavar="FILE",
                    help="conformance matrix (default: the newest stored in the machine folder)")
    ap.add_argument("--conformance-suites", metavar="FILE",
                    help="the standard suites' matrix, soapbench conformance --suite (default: the "
                         "newest stored in the machine folder)")
    ap.add_argument("--server-load", metavar="FILE",
                    help="servers under load, tools/server_load (default: the newest stored in "
                         "the machine folder)")
    ap.add_argument("--interop", metavar="FILE",
                    help="interop matrix (default: the newest stored in the machine folder)")
    ap.add_argument("--load", metavar="FILE",
                    help="load sweeps, tools/load_bench (default: the newest stored in the "
                         "machine folder)")
    ap.add_argument("--wild", metavar="FILE",
                    help="the real-world messages' verdicts, tools/wild --both --json (default: "
                         "the newest stored in the machine folder)")
    ap.add_argument("--summary", action="store_true",
                    help="also print the decode ranking per family (where significant) on stdout")
    ap.add_argument("--icount", metavar="FILE",
                    help="instruction counts (tools/icount) for the instructions columns (default "
                         "without FILES: results/icount/<build-key>/ of the run's build, the "
                         "counts made at the run's commit on its machine, else the newest; with "
                         "FILES: none, and the report says so)")
    ap.add_argument("--callcount", metavar="FILE",
                    help="the whole call's counts (tools/callcount; default without FILES: "
                         "results/callcount/<build-key>/ of the run's build, as for --icount)")
    ap.add_argument("--no-charts", action="store_true", help="report.md with tables only")
    ap.add_argument("--status", metavar="TEXT", default="",
                    help="a line shown first in report.md and on the page: the run's state "
                         "(tools/run_bench.sh: other sets still running, or stopped by Ctrl-C)")
    ap.add_argument("--html", action="store_true",
                    help="also write index.html (+ assets/): the report as a web page, the "
                         "per-family answer first (the fastest with right answers), each "
                         "section's charts first, long tables folded, sortable tables, Chart.js "
                         "charts; opens from disk, fits a phone")
    return ap.parse_args(argv)


def default_inputs(results_dir, machine):
    mdir = os.path.join(results_dir, machine)
    newest = store.newest_runs(mdir)
    if not newest:
        raise ResultError(f"no stored runs in {rel(mdir)} (tools/results save stores them)")
    return [newest[b] for b in sorted(newest, key=lambda b: (b != "parse_bench", b))]


def inputs(args):
    """The benchmark files: those given, else the newest stored run of each bench."""
    if args.files:
        return args.files
    machine = store.this_machine(args.results_dir, args.build_dir, args.machine)
    return default_inputs(args.results_dir, machine)


def sources(args, data):
    """{source: path or None}: the other tools' documents (given, else the newest stored in the
    machine folder) and the instruction counts (given, else, without FILES, the stored counts of
    the run's build in results/icount/<build-key>/, tools/icount's place)."""
    machine_dir = os.path.join(args.results_dir, args.machine or data.machine)
    found = {}
    for counts in COUNTS:
        found[counts] = getattr(args, counts)
        if found[counts] is None and not args.files:
            found[counts] = getattr(store, f"{counts}_for_run")(args.results_dir, data.ctx)
    for option, tool in DOCUMENTS.items():
        found[option] = getattr(args, option) or store.newest_machine_file(machine_dir, tool)
    return found


def computed(run):
    """[(module, its compute() data or None)] of every section, in report order."""
    return [(module, module.compute(run)) for module in SECTIONS]


def section_markdown(run, module, d, charts):
    """A section's Markdown; one drawn from a document of another run (matrices, load runs,
    instruction counts) starts by saying so."""
    note = run.stale_note(module.SOURCE) if module.SOURCE else ""
    body = module.markdown(d, charts)
    return f"{note}\n\n{body}" if note else body


def section_texts(run, charts, sections=None):
    """[(title, markdown)] of the sections that have data."""
    return [(module.TITLE, section_markdown(run, module, d, charts))
            for module, d in sections or computed(run) if d]


def anchor(title):
    return re.sub(r"[^a-z0-9 -]", "", title.lower()).replace(" ", "-")


def render(run, charts, sections=None):
    """report.md's text."""
    data = run.data
    present = section_texts(run, charts, sections)
    c = data.ctx
    lines = [f"# soapbench results — machine `{data.machine}`", "",
             f"*{c.get('cpu_model', '?')}, {c.get('compiler', '?')}; git `{c.get('git_sha', '?')}`; "
             "generated by tools/report from the result files below — do not edit by hand.*", ""]
    if run.status:
        lines += [f"> **{run.status}**", ""]
    lines += [" ".join(summary.sentences(run)), "", "## Contents", ""]
    lines += [f"- [{t}](#{anchor(t)})" for t, _b in present]
    lines += [f"- [{reproduction.TITLE}](#{anchor(reproduction.TITLE)})", ""]
    for t, body in present:
        lines += [f"## {t}", "", body, ""]
    lines += [f"## {reproduction.TITLE}", "", reproduction.markdown(run), ""]
    return "\n".join(lines).rstrip() + "\n"


def write_report(run, no_charts=False, sections=None):
    charts_dir = os.path.join(run.out_dir, "charts")
    charts = None if no_charts else Charts(charts_dir, list(run.data.adapters),
                                           run.data.facts.families)
    text = render(run, charts, sections)
    os.makedirs(run.out_dir, exist_ok=True)
    if charts is not None:
        # Charts this report no longer draws would be stale: remove them.
        for old in glob.glob(os.path.join(charts_dir, "*.svg")):
            if os.path.basename(old) not in charts.written:
                os.remove(old)
    path = os.path.join(run.out_dir, "report.md")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"report: {rel(path)} ({len(charts.written) if charts else 0} charts in "
          f"{rel(charts_dir)}/)")
    return path


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parse_args(argv)
    try:
        data = Data(inputs(args))
        paths = sources(args, data)
        if paths["icount"]:
            data.load_icount(paths["icount"])
        elif not args.files:
            data.icount_absent = ("No instruction counts of this run's build are stored in "
                                  f"{rel(os.path.join(args.results_dir, 'icount'))}/ (tools/icount "
                                  "writes them there; `--icount FILE` names one)")
        machine_dir = os.path.join(args.results_dir, args.machine or data.machine)
        run = Run(data, paths, argv, args.out_dir or machine_dir, bool(args.out_dir))
        run.status = args.status
        sections = computed(run)
        write_report(run, args.no_charts, sections)
        if args.html:
            page.write_page(run, sections, section_markdown, anchor)
        if args.summary:
            summary.print_summary(run)
    except ResultError as e:
        print(f"tools/report: {e}", file=sys.stderr)
        return 1
    return 0
