"""What `tools/track ab` measures: two build trees' benchmarks run in rounds, both sides in each.

Suites (each a program of the build tree, its rows chosen by name):
  parse      bench/parse_bench rows (--parse REGEX, a Google Benchmark filter)
  roundtrip  bench/roundtrip_bench rows (--roundtrip REGEX)
  load       `soapbench load` points against `soapbench serve` of the same tree
             (--load FAMILY:CALL:CONNECTIONS), server on one CPU, generator on the other

Modes, per round and suite, a fair coin drawn for each (the A/B's statistics rest on it):
  interleaved  base and head one after the other, the coin choosing which goes first
               (randomized multiple interleaved trials: Abedi and Brecht, ICPE 2017)
  duet         base and head at the same time, one per CPU, the coin choosing which starts
               first, on which CPU (Bulej et al., ICPE 2020); load points are always
               interleaved, as a server and its generator need both CPUs
A round's value of a benchmark is its Google Benchmark run's real and CPU time (ns per
iteration), of a load point its calls per second and median latency.
"""
import json
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass, field

from sbtools import gbench
from sbtools.names import field as name_field

from . import TrackError

SUITES = ("parse", "roundtrip", "load")
METRICS = {"parse": ("cpu_time", "real_time"), "roundtrip": ("cpu_time", "real_time"),
           "load": ("tps", "p50_us")}
PROGRAMS = {"parse": ("bench", "parse_bench"), "roundtrip": ("bench", "roundtrip_bench"),
            "load": ("soapbench",)}
LOAD_POINT = re.compile(r"^([a-z0-9-]+):([A-Za-z0-9._-]+):([0-9]+)$")
_REGEX_SPECIAL = re.compile(r"([\\.^$|?*+()\[\]{}])")


@dataclass
class Tree:
    """One side: a build tree and the environment its programs run with."""
    side: str                  # base, head
    path: str
    env: dict = field(default_factory=dict)   # added to the environment (--base-env/--head-env)

    def program(self, suite):
        return os.path.join(self.path, *PROGRAMS[suite])

    def environ(self):
        return dict(os.environ, **self.env)


def check_tree(tree, suites):
    """TrackError unless the tree holds the programs of every suite asked for."""
    if not os.path.isdir(tree.path):
        raise TrackError(f"{tree.side} build tree {tree.path}: not a folder")
    for suite in suites:
        exe = tree.program(suite)
        if not os.access(exe, os.X_OK):
            raise TrackError(f"{tree.side} build tree {tree.path}: no "
                             f"{os.path.relpath(exe, tree.path)} (build it: cmake --build "
                             f"{tree.path} --target {PROGRAMS[suite][-1]})")


def exact_filter(names):
    """A Google Benchmark filter (POSIX extended regex) matching exactly these names, with the
    suffixes of how they run (/min_time:0.005 of parse_bench's tail rows)."""
    return ("^(" + "|".join(_REGEX_SPECIAL.sub(r"\\\1", n) for n in sorted(names)) +
            ")(/(iterations|repeats|min_time|min_warmup_time):[^/]+)*$")


def default_adapters(tree):
    """The default XML and JSON adapters as name fields, from the context of a parse_bench run
    of one memcpy floor (its context names them; a run that matches nothing writes none)."""
    floors = list_rows(tree, "parse", "^floor/memcpy/", [])
    if not floors:
        raise TrackError(f"{tree.program('parse')}: no floor/memcpy row to read its context from")
    with tempfile.TemporaryDirectory(prefix="sb-ab-") as tmp:
        out = os.path.join(tmp, "context.json")
        subprocess.run([tree.program("parse"), f"--benchmark_filter={exact_filter(floors[:1])}",
                        "--benchmark_min_time=0.0001", f"--benchmark_out={out}",
                        "--benchmark_out_format=json"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, env=tree.environ(), timeout=300, check=False)
        try:
            ctx = gbench.context(gbench.load_json(out))
        except gbench.ResultError as e:
            raise TrackError(f"{tree.program('parse')}: no context naming the default adapters: "
                             f"{e}") from None
    adapters = sorted(name_field(ctx[k]) for k in ("default_adapter:xml", "default_adapter:json")
                      if ctx.get(k))
    if not adapters:
        raise TrackError(f"{tree.program('parse')}: its context names no default adapter")
    return adapters


def default_filters(adapters):
    """{suite: filter} of the default set: the default adapters' headline rows (decode of the
    getRate and add calls, parse and decode of the 64 KB response, in every family) and their
    keep-alive getRate round trips."""
    a = "|".join(adapters)
    return {"parse": f"^(decode/({a})/[^/]+/(getRate|add)\\.call"
                     f"|(parse|decode)/({a})/[^/]+/respond\\.64KB\\.response)$",
            "roundtrip": f"^roundtrip/keepalive/[^/]+/({a})/getRate$"}


def list_rows(tree, suite, regex, extra):
    """The row names a filter picks in a tree (Google Benchmark's listing)."""
    argv = [tree.program(suite), "--benchmark_list_tests=true", f"--benchmark_filter={regex}",
            "--core-repetitions=1", *extra]
    proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env=tree.environ(), timeout=300, check=False)
    if proc.returncode != 0:
        raise TrackError(f"{' '.join(argv)} exited {proc.returncode}: {proc.stderr.strip()[-300:]}")
    return [gbench.series_name(line.strip()) for line in proc.stdout.splitlines() if line.strip()]


def load_points(specs):
    """Load point names (load/FAMILY/CALL/cN) from FAMILY:CALL:CONNECTIONS specs."""
    out = []
    for spec in specs:
        m = LOAD_POINT.match(spec)
        if not m:
            raise TrackError(f"--load {spec}: expected FAMILY:CALL:CONNECTIONS, e.g. "
                             "soap11-doc-literal:getRate:4")
        out.append(f"load/{m.group(1)}/{m.group(2)}/c{m.group(3)}")
    return out


@dataclass
class Settings:
    mode: str = "interleaved"     # interleaved, duet
    min_time: float = 0.002       # Google Benchmark --benchmark_min_time per row and run
    parse_set: str = "default"    # parse_bench --set
    load_seconds: float = 1.0     # measured seconds per load point (after 0.3 s of warm-up)
    cpus: tuple = ()              # the two CPUs a duet uses


class Rounds:
    """Runs rounds: round(pending) -> ({side: {(suite, row): {metric: value}}}, errors)."""

    def __init__(self, trees, settings, rng, work):
        self.trees, self.settings, self.rng, self.work = trees, settings, rng, work
        self.contexts = {}     # side -> the context of its first Google Benchmark file
        self.placement = []    # per suite run: (suite, the side that went first)

    def round(self, pending):
        """pending: {suite: [row names]}. Values and errors ({(suite, row): message})."""
        values = {t.side: {} for t in self.trees}
        errors = {}
        for suite, rows in pending.items():
            if not rows:
                continue
            if suite == "load":
                self._load(rows, values, errors)
            elif self.settings.mode == "duet" and len(self.settings.cpus) >= 2:
                self._duet(suite, rows, values, errors)
            else:
                self._interleaved(suite, rows, values, errors)
        return values, errors

    def _argv(self, tree, suite, rows, out):
        mt = f"{self.settings.min_time:g}"
        argv = [tree.program(suite), f"--benchmark_filter={exact_filter(rows)}",
                f"--benchmark_min_time={mt}", "--core-repetitions=1",
                f"--benchmark_out={out}", "--benchmark_out_format=json"]
        if suite == "parse":
            argv += [f"--tail-min-time={mt}", f"--set={self.settings.parse_set}"]
        return argv

    def _start(self, tree, suite, rows, cpu=None):
        out = os.path.join(self.work, f"{tree.side}.{suite}.json")
        if os.path.exists(out):
            os.remove(out)
        argv = self._argv(tree, suite, rows, out)
        if cpu is not None:
            argv = ["taskset", "-c", str(cpu)] + argv
        log = open(out + ".log", "w", encoding="utf-8")
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=log, env=tree.environ())
        log.close()
        return proc, out

    def _finish(self, tree, suite, proc, out, values, errors):
        try:
            code = proc.wait(timeout=3600)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            raise TrackError(f"{tree.program(suite)} ran over an hour: stopped") from None
        try:
            doc = gbench.load_json(out)
        except gbench.ResultError as e:
            with open(out + ".log", encoding="utf-8", errors="replace") as f:
                tail = f.read().strip()[-400:]
            raise TrackError(f"{tree.side}: {tree.program(suite)} exited {code} without results: "
                             f"{tail or e}") from None
        self.contexts.setdefault(tree.side, gbench.context(doc))
        for run_name, r in gbench.results_of(doc).items():
            row = gbench.series_name(run_name)
            if r.error:
                errors[(suite, row)] = f"{tree.side}: {r.error}"
            elif r.times:   # one repetition a run; the middle one should there be more
                mid = len(r.times) // 2
                values[tree.side][(suite, row)] = {"real_time": sorted(r.times)[mid],
                                                   "cpu_time": sorted(r.cpu_times)[mid]}

    def _interleaved(self, suite, rows, values, errors):
        order = list(self.trees) if self.rng.random() < 0.5 else list(reversed(self.trees))
        self.placement.append((suite, order[0].side))
        for tree in order:
            proc, out = self._start(tree, suite, rows)
            self._finish(tree, suite, proc, out, values, errors)

    def _duet(self, suite, rows, values, errors):
        # The coin picks which tree starts first (a few ms ahead) on the first CPU: nothing
        # about the placement may follow the label.
        order = list(self.trees) if self.rng.random() < 0.5 else list(reversed(self.trees))
        self.placement.append((suite, order[0].side))
        started = [(tree, *self._start(tree, suite, rows, cpu))
                   for tree, cpu in zip(order, self.settings.cpus[:2])]
        for tree, proc, out in started:
            self._finish(tree, suite, proc, out, values, errors)

    def _load(self, rows, values, errors):
        order = list(self.trees) if self.rng.random() < 0.5 else list(reversed(self.trees))
        self.placement.append(("load", order[0].side))
        for tree in order:
            for row in rows:
                try:
                    values[tree.side][("load", row)] = self._load_point(tree, row)
                except TrackError as e:
                    errors[("load", row)] = f"{tree.side}: {e}"

    def _load_point(self, tree, row):
        from sbtools.load import load_bench, server_load  # only load points need them
        _load, family, call, conns = row.split("/")
        cpus = self.settings.cpus or (0, 0)
        server = server_load.Server("soapbench", "soapbench", None, [call],
                                    [tree.program("load"), "serve", "--threads", "1"])
        try:
            running = server_load.RunningServer(server, cpus[0], [])
        except gbench.ResultError as e:
            raise TrackError(str(e)) from None
        out = os.path.join(self.work, f"{tree.side}.load.json")
        try:
            argv = ["taskset", "-c", str(cpus[-1]), tree.program("load"), "load", "--url",
                    running.url_, *load_bench.load_options(family), "--call", call,
                    "--connections", conns[1:], "--duration", f"{self.settings.load_seconds:g}",
                    "--warmup", "0.3", "--server-pid", str(running.proc_.pid), "--json", out]
            proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  text=True, env=tree.environ(), timeout=120, check=False)
        finally:
            running.stop()
        try:
            with open(out, encoding="utf-8") as f:
                point = json.load(f)["points"][0]
        except (OSError, ValueError, KeyError, IndexError):
            raise TrackError(f"soapbench load exited {proc.returncode}: "
                             f"{proc.stderr.strip()[-300:]}") from None
        if point.get("errors_total"):
            raise TrackError(f"{point['errors_total']} errors (first: {point.get('first_error')})")
        if not point.get("tps") or not point.get("p50_us"):
            raise TrackError(f"no call answered ({point.get('calls')} calls, tps "
                             f"{point.get('tps')}, p50 {point.get('p50_us')} us)")
        return {"tps": point["tps"], "p50_us": point["p50_us"]}


PLANTED = "SOAPBENCH_PLANTED_SLOWDOWN"   # measure/planted_slowdown.h


def planted_envs(spec):
    """({base env}, {head env}) of a calibrated slowdown PCT:REGEX planted into head: head
    carries SOAPBENCH_PLANTED_SLOWDOWN=PCT:REGEX, base the same variable at 0% with the same
    length, so the two sides' environments (whose size moves the initial stack) differ in one
    digit only."""
    pct, colon, regex = spec.partition(":")
    if not colon or not re.fullmatch(r"[0-9]+(\.[0-9]+)?", pct) or not regex:
        raise TrackError(f"--plant {spec}: expected PERCENT:REGEX, e.g. 5:^decode/pugixml-dom/")
    return {PLANTED: "0" * len(pct) + ":" + regex}, {PLANTED: spec}


def duet_cpus():
    """Two CPUs this process may use (the first and last allowed), or () with fewer."""
    allowed = sorted(os.sched_getaffinity(0))
    return (allowed[0], allowed[-1]) if len(allowed) >= 2 else ()
