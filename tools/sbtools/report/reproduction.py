"""Run and reproduction: the machine, the files read and their context, and the commands that
reproduce the numbers."""
import os
import shlex

from sbtools import gbench
from sbtools.paths import rel
from sbtools.report.data import MARK, NOISY

TITLE = "Run and reproduction"


def file_line(p, d):
    dc = gbench.context(d)
    reps = max((r.reps for r in gbench.results_of(d).values()), default=0)
    return (f"- `{rel(p)}`: {gbench.bench_kind(d, p)}, set `{dc.get('bench_set', '–')}`, "
            f"{len(d['benchmarks'])} entries, {reps} repetition(s), run {dc.get('date', '?')}, "
            f"git `{dc.get('git_sha', '?')}`, pinned CPU {dc.get('pinned_cpu', 'none')}, "
            f"CPU scaling {'on' if dc.get('cpu_scaling_enabled') else 'off'}"
            + (f", load average {dc['load_avg'][0]:.1f} at the start"
               if isinstance(dc.get("load_avg"), list) and dc["load_avg"] else ""))


def context_lines(run):
    data = run.data
    c = data.ctx
    libs = ", ".join(f"{k[4:]} {v}" for k, v in sorted(c.items()) if k.startswith("lib_"))
    lines = [
        f"- machine `{data.machine}`: {c.get('cpu_model', '?')}, {c.get('cpu_cores', '?')} cores "
        f"online, caches {c.get('caches', '?')}",
        f"- compiler {c.get('compiler', '?')}, {c.get('build', '?')} build, "
        f"soapbench {c.get('soapbench_version', '?')} at git `{c.get('git_sha', '?')}`",
        f"- libraries: {libs or '?'}",
    ] + [file_line(p, d) for p, d in data.docs]
    if data.max_reps >= 2:
        lines.append(f"- times are medians of the repetitions; {MARK} marks results whose "
                     f"coefficient of variation across repetitions exceeds {NOISY:.0%}; "
                     "intervals and the ranking rule: [Statistics](#statistics)")
    else:
        lines.append("- one repetition per benchmark: no variation is known (run with "
                     "`--benchmark_repetitions=5` to get medians and the noise mark)")
    if data.icount_path:
        lines.append(f"- instructions per iteration: `{rel(data.icount_path)}` (tools/icount, "
                     "callgrind; deterministic for one binary)")
    else:
        lines.append("- no instruction counts given (`--icount FILE`): instructions columns empty")
    callcount = run.paths.get("callcount")
    if callcount:
        lines.append(f"- the whole call's counts: `{rel(callcount)}` (tools/callcount; exact for "
                     "one binary)")
    if data.facts.missing:
        lines.append("- these result files predate the context keys " + ", ".join(
            f"`{k}`" for k in data.facts.missing) + " (written by harness/run_context.cpp): "
            "family order from the benchmark names, parser per family by lowest median, and "
            "no link-model projection where the model is missing")
    return lines + [f"- warning: {w}" for w in data.warnings[:5]]


def commands(run):
    data = run.data
    sha = str(data.ctx.get("git_sha", "?")).replace("-dirty", "")
    dirty = "-dirty" in str(data.ctx.get("git_sha", ""))
    cmds = [f"git checkout {sha}" + ("   # the run was made from a modified tree" if dirty else ""),
            "tools/run_bench.sh        # setup, build (release preset), ctest -L bench, "
            "tools/results save, tools/report"]
    for p, d in data.docs:
        if gbench.bench_kind(d, p) != "parse_bench":
            continue
        dc = gbench.context(d)
        results = gbench.results_of(d).values()
        reps = max((r.reps for r in results), default=0)
        # Repetitions on every benchmark came from the flag; on a headline subset, from the set.
        flag = ("--benchmark_repetitions" if all(r.reps == reps for r in results)
                else "--core-repetitions")
        extra = f" {flag}={reps}" if reps > 1 else ""
        if dc.get("fixed_iterations"):
            extra += f" --iterations={dc['fixed_iterations']}"
        cmds.append(f"# the parse benchmarks of {os.path.basename(p)} alone ({len(results)} "
                    "benchmarks; fewer than the set holds means a --benchmark_filter was used)")
        cmds.append(f"build/bench/parse_bench --set={dc.get('bench_set', 'default')}{extra} "
                    "--benchmark_out=build/results/parse_bench.json --benchmark_out_format=json")
    cmds.append("tools/report " + " ".join(rel(p) for p in data.paths)
                + (f" --out-dir {rel(run.out_dir)}" if run.explicit_out else ""))
    return cmds


def markdown(run):
    return "\n".join(context_lines(run)) + "\n\n" + (
        "The numbers come from the files listed above; to reproduce them on this machine:\n\n"
        "```sh\n" + "\n".join(commands(run)) + "\n```\n\n"
        "This report was written by `" + shlex.join(["tools/report"] + run.argv) + "`.")
