"""The result files of one report, read once: benchmark Results by name (through sbtools.names),
the context's facts, and the instruction counts."""
from collections import OrderedDict, defaultdict

from sbtools import gbench, names, stats
from sbtools.facts import Facts, adapter_rows
from sbtools.gbench import ResultError
from sbtools.paths import rel
from sbtools.report import your_messages
from sbtools.rounds import ROUNDS_KEY, decided_pairs

NOISY = 0.05   # a coefficient of variation above this marks a result noisy
MARK = "†"     # the noisy mark in the tables
# The raw loopback floor the round trips are set against (roundtrip/floor/<mode>/<bytes>): every
# round trip runs unpinned with blocking sockets, so its floor is the blocking one.
FLOOR_MODE = "blocking"
CALL_ORDER = ["getRate", "add", "concat", "complex", "respond.2500B", "respond.7500B",
              "echoDoubles.1000", "getChain"]


def call_key(c):
    return (CALL_ORDER.index(c) if c in CALL_ORDER else len(CALL_ORDER), c)


class Data:
    """Every benchmark of the report's files (stacks_bench's apart), their context and facts."""

    def __init__(self, paths):
        self.paths = paths              # the benchmark files, as given
        self.docs = []                  # [(path, document)]
        self.res = OrderedDict()        # name (without /iterations:N) -> Result
        self.raw_names = {}             # name -> name as written
        self.stacks = OrderedDict()     # stacks_bench's results (real stacks), kept apart
        self.compare = []               # `soapbench compare` documents (report.your_messages)
        self.warnings = []              # what the reader must know about the inputs
        self.rounds = None              # the rounds' decisions (sbtools.bench_rounds), if read
        for p in paths:
            self._read(p)
        ids = {gbench.machine_id(d) for _p, d in self.docs}
        ids.discard(None)
        if len(ids) > 1:
            self.warnings.append("the files come from different machines: " + ", ".join(sorted(ids)))
        self.machine = sorted(ids)[0] if ids else "unknown"  # the machine id
        self.ctx = {}                   # the parse_bench context first, then anything it lacks
        for _p, d in self.docs:
            for k, v in gbench.context(d).items():
                self.ctx.setdefault(k, v)
        self.adapters = OrderedDict()   # bench name -> registry row, every file's
        for _p, d in self.docs:
            for a, flags in adapter_rows(gbench.context(d)).items():
                self.adapters.setdefault(a, flags)
        for name in self.res:  # adapters seen in benchmark names but not in the context count
            f = names.fields(name, "level")
            if f and not f["adapter"].endswith("-direct"):
                self.adapters.setdefault(f["adapter"], {"registry": f["adapter"]})
        self.max_reps = max((r.reps for r in self.res.values()), default=0)
        self.facts = Facts(self.ctx, list(self.res))
        self.icount = {}                # benchmark name -> instructions per iteration
        self.icount_path = None         # the tools/icount file read, or None
        self.icount_doc = None          # its document
        self.icount_absent = ("No instruction counts were given (`--icount FILE`, written by "
                              "tools/icount)")  # why there are none, when there are none

    def _read(self, p):
        doc = gbench.load_json(p)
        if not gbench.is_gb(doc):
            raise ResultError(f"{p}: not Google Benchmark JSON")
        self.docs.append((p, doc))
        if your_messages.is_compare(doc):
            self.compare.append(doc)  # `soapbench compare`: the "Your messages" section only
            return
        if gbench.bench_kind(doc, p).startswith("stacks_bench"):
            # Its decode/<stack>/... and roundtrip/.../<client>~<server>/... rows are not
            # adapters: only the "Real stacks" section reads them.
            for name, r in gbench.results_of(doc).items():
                self.stacks[gbench.pair_name(name)] = r
            return
        if isinstance(doc.get(ROUNDS_KEY), dict):
            self.rounds = doc[ROUNDS_KEY]   # tools/bench_rounds' decisions
        for name, r in gbench.results_of(doc).items():
            key = gbench.pair_name(name)
            if key in self.res:
                self.warnings.append(f"{key} appears in more than one file; the last one is used")
            self.res[key] = r
            self.raw_names[key] = name

    def load_icount(self, path):
        doc = gbench.load_json(path)
        if not gbench.is_icount(doc):
            raise ResultError(f"{path}: not a tools/icount file")
        self.icount = {gbench.pair_name(k): float(v) for k, v in doc["instructions"].items()}
        self.icount_path = path
        self.icount_doc = doc
        sha = gbench.context(doc).get("git_sha")
        if sha and sha != self.ctx.get("git_sha"):
            self.warnings.append(f"the instruction counts ({rel(path)}) come from git `{sha}`, "
                                 f"the timings from `{self.ctx.get('git_sha', '?')}`")

    def instr(self, name):
        """Instructions per iteration of a benchmark (tools/icount), or None."""
        return self.icount.get(name)

    def icount_note(self, bench_names):
        """Why an instructions column is empty, or '' when it has counts."""
        if not self.icount_path:
            return f"{self.icount_absent}: the instructions columns are empty."
        if not any(n in self.icount for n in bench_names):
            return (f"`{rel(self.icount_path)}` holds no counts for these benchmarks (tools/icount's "
                    "filter did not include them): the instructions columns are empty.")
        return ""

    def get(self, name):
        r = self.res.get(name)
        return r if r is not None and r.error is None and r.time is not None else None

    def t(self, name):
        r = self.get(name)
        return r.time if r else None

    def mark(self, name):
        r = self.get(name)
        return MARK if r is not None and r.noisy(NOISY) else ""

    def _of_kind(self, kind, rows=None):
        """[(fields, Result)] of the benchmarks of one name kind."""
        out = []
        for name, r in (self.res if rows is None else rows).items():
            f = names.fields(name, kind)
            if f is not None:
                out.append((f, r))
        return out

    def level(self, level):
        """{(adapter, family, file): Result} for parse/walk/decode benchmarks."""
        return {(f["adapter"], f["family"], f["file"]): r for f, r in self._of_kind("level")
                if f["level"] == level and r.error is None and r.time}

    def roundtrip(self):
        """{(variant, family, parser, call): Result}."""
        return {(f["variant"], f["family"], f["parser"], f["call"]): r
                for f, r in self._of_kind("roundtrip") if r.error is None}

    def messaging(self):
        """{(stack, call): Result}: roundtrip_bench's rows, then stacks_bench's (CORBA, gRPC)."""
        out = {}
        for rows in (self.res, self.stacks):
            for f, r in self._of_kind("messaging", rows):
                if r.error is None:
                    out.setdefault((f["stack"], f["call"]), r)
        return out

    def floor(self, mode=FLOOR_MODE):
        """{payload bytes: Result} of the raw loopback floor in one mode."""
        return {int(f["bytes"]): r for f, r in self._of_kind("floor")
                if f["mode"] == mode and r.error is None and r.time and f["bytes"].isdigit()}

    def floor_modes(self):
        return list(OrderedDict.fromkeys(f["mode"] for f, _r in self._of_kind("floor")))

    def stacks_of_kind(self, kind):
        """[(fields, Result)] of stacks_bench's benchmarks of one kind that ran."""
        return [(f, r) for f, r in self._of_kind(kind, self.stacks)
                if r.error is None and r.time is not None]

    def format_of_family(self, rt, fam):
        """json when a family's round trips ran JSON adapters (their registry rows), else xml."""
        return "json" if any(self.adapters.get(p, {}).get("format") == "json"
                             for (_v, f, p, _c) in rt if f == fam) else "xml"


def families_in(data, keys, idx=1):
    """The families of keys (tuples, the family at idx) in the run's family order, others after,
    the binary control last."""
    order = data.facts.families
    seen = {k[idx] for k in keys}
    return [f for f in order if f in seen] + sorted(seen - set(order) - {"binary"}) + \
        (["binary"] if "binary" in seen else [])


def bytes_per_msg(r):
    bps, mps = r.counter("bytes_per_second"), r.counter("msgs_per_s")
    if bps and mps:
        return bps / mps
    return None


def mb_per_s(r):
    bps = r.counter("bytes_per_second")
    return bps / 1e6 if bps else None


def wire_bytes(r):
    return (r.counter("bytes_sent") or 0) + (r.counter("bytes_received") or 0)


def total_ns(r):
    return r.counter("total_ns") or r.time


def decode_ranking(data):
    """{family: [(adapter, geomean ratio to the fastest, n files)]} sorted fastest first.
    Over the decode files every adapter of the family's format has."""
    dec = data.level("decode")
    out = {}
    for fam in families_in(data, dec):
        files = sorted({k[2] for k in dec if k[1] == fam})
        # The messages the most adapters share (in a normal run: every adapter has every one).
        have = {f: frozenset(k[0] for k in dec if k[1] == fam and k[2] == f) for f in files}
        widest = max(have.values(), key=lambda s: (len(s), sum(1 for v in have.values() if v == s),
                                                   sorted(s)))
        adapters = sorted(widest)
        common = [f for f in files if widest <= have[f]]
        if not common:
            continue
        ratios = defaultdict(list)
        for f in common:
            best = min(dec[(a, fam, f)].time for a in adapters)
            for a in adapters:
                ratios[a].append(dec[(a, fam, f)].time / best)
        ranked = sorted(((a, stats.geomean(v), len(v)) for a, v in ratios.items()),
                        key=lambda x: x[1])
        top = ranked[0][1]  # normalised so the fastest is exactly 1.00
        out[fam] = [(a, g / top, n) for a, g, n in ranked]
    return out


def headline_decode(data):
    """{family: (file, Ranking)}: per family the decode message the most adapters ran with
    repetitions (complex.call on a tie), ranked over its adapters."""
    by = defaultdict(dict)
    for (a, fam, fl), r in data.level("decode").items():
        by[(fam, fl)][a] = r
    out = OrderedDict()
    for fam in families_in(data, [(None, f) for f, _fl in by]):
        files = sorted(fl for f, fl in by if f == fam)
        pick = max(files, key=lambda fl: (sum(1 for r in by[(fam, fl)].values() if r.reps >= 2),
                                          fl == "complex.call", len(by[(fam, fl)])))
        decided = rounds_verdicts(data.rounds, fam, pick)
        out[fam] = (pick, stats.Ranking(by[(fam, pick)], decided))
    return out


def headline_rule(data):
    """The rule the headline rankings follow: the rounds' decisions where the run has them."""
    if not data.rounds:
        return stats.RULE
    return ("a ranking word only where the rounds decided the pair different (a sequential test, "
            f"all decisions together at alpha {data.rounds.get('alpha', 0.01):g}; see [Rounds "
            "until decided](#rounds-until-decided)) or, for a pair they did not compare, where "
            + stats.RULE.split(" only where ", 1)[1])


def rounds_verdicts(doc, family, file):
    """decided(leader, adapter) for stats.Ranking from the rounds' decisions on a family's
    complex.call, or None without them: (apart, p) where the pair was compared (apart: decided
    different with the leader the faster), None where it was not."""
    if not doc or file != "complex.call":
        return None
    found = decided_pairs(doc)

    def decided(leader, adapter):
        got = found.get((family, frozenset((leader, adapter))))
        if got is None:
            return None
        state, faster, p = got
        return state == "different" and faster == leader, p
    return decided

