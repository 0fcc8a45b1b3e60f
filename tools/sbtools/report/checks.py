"""Sets of messages with known right answers, and what each adapter got wrong in each: the evidence
the report's recommendation is drawn from (report.right_answers).

A Check is one set of messages judged per adapter: a title, the rule that makes an answer wrong
(one sentence, shown wherever the recommendation is), its scope ("format": an adapter is judged
once for every family of its format; "family": per family), and per adapter and scope how many
messages were judged and which it got wrong, [(message, why)]. A new set of messages with
per-adapter right/wrong outcomes is one more function here returning a Check, listed in
all_checks().

The sets the result files hold today:
- hostile inputs (`soapbench conformance --json`, policy mode): a crash or a time-out is wrong; an
  accepted hostile file is a library fact (docs/corpus.md), not judged here.
- standard suites (`soapbench conformance --suite ... --json`): under the service's policy, a
  not-well-formed document accepted, a valid one rejected, a document read differently from the
  suite's canonical output (XML; also the library configuration's comparisons on documents the
  policy admits) or from most adapters (JSON), a crash, a hang; except a document most adapters
  of the format answer against the suite (listed as disputed, held against none).
- the benchmark corpus (parse_bench): a message whose walk Digest or decoded value differs from
  the manifest's (the benchmark's check failed: an error in the result file).
- your messages (`soapbench compare`): a Digest or decoded value that differs from the one most
  adapters agree on, or work flagged as differing (a named fastest mode's text).
- real-world messages (`tools/wild --both --json`, corpus/wild/): an answer other than the
  manifest's, or one where the manifest refuses; a refusal is coverage, not wrong; a wrong answer
  every adapter gives on a message is soapbench's decoding, held against none (report.real_world).
"""
import os
from collections import Counter, OrderedDict, defaultdict

from sbtools import gbench, names
from sbtools.report import conformance, real_world, your_messages

LEVELS = ("parse", "walk", "decode", "classic")  # parse_bench's checked levels
# The suites' failure kinds judged under the policy: failures key -> what the adapter did.
SUITE_KINDS = {"accepted_not_wf": "accepted a not-well-formed document",
               "rejected_valid": "rejected a valid document",
               "digest_disagreements": "read it differently from the reference output"}


class Check:
    """One set of messages and, per adapter and scope (a format or a family), how many it judged
    and what it got wrong."""

    def __init__(self, key, title, rule, scope, anchor=None, right=""):
        self.key = key          # short id: hostile, suites, corpus, your-messages
        self.title = title      # "standard suites"
        self.rule = rule        # what makes an answer wrong, one sentence
        self.right = right      # what a right answer is, a few words (the first screen's)
        self.scope = scope      # "format" or "family"
        self.anchor = anchor    # the report section it comes from, or None
        self.judged = defaultdict(Counter)                     # adapter -> {where: messages}
        # adapter -> where -> [(message, why, detail)]: why names the kind of wrong answer (the
        # report groups by it), detail is about this message ("" when nothing more is known)
        self.wrong = defaultdict(lambda: defaultdict(list))
        self.notes = []         # what the check set aside, for the reader

    def judge(self, adapter, where, message=None, why=None, detail=""):
        """Counts one judged message of adapter at where; a why makes it a wrong answer."""
        self.count(adapter, where, 1)
        if why is not None:
            self.fail(adapter, where, message, why, detail)

    def count(self, adapter, where, n):
        """Counts n judged messages of adapter at where."""
        self.judged[adapter][where] += n

    def fail(self, adapter, where, message, why, detail=""):
        """Records a wrong answer among the messages already counted."""
        self.wrong[adapter][where].append((message, why, detail))

    def covers(self, where):
        """Whether any adapter was judged at where."""
        return any(where in w for w in self.judged.values())

    def verdict(self, adapter, where):
        """None when adapter was not judged at where, else its wrong answers there ([] = right):
        [(message, why, detail)]."""
        if not self.judged.get(adapter, {}).get(where):
            return None
        return list(self.wrong.get(adapter, {}).get(where, []))

    def adapters(self):
        return list(self.judged)


# --- hostile inputs ---------------------------------------------------------------------------

def hostile(run):
    """Crashes and hangs on the hostile inputs (policy mode), or None without that document."""
    path = run.paths.get("conformance")
    if not path or not os.path.exists(path):
        return None
    try:
        recs, _level = conformance.read(path)
    except gbench.ResultError:
        return None
    check = Check("hostile", "hostile inputs", "a crash or a time-out on a hostile input under "
                  "the service's policy (an accepted hostile file is a library fact, not judged)",
                  "format", "conformance-hostile-inputs",
                  "no crash or time-out under the service's policy")
    for r in recs:
        if r["mode"] != "policy":
            continue
        fmt = "json" if "/json/" in r["file"] else "xml"
        bad = r["result"] in ("crashed", "timeout")
        check.judge(r["adapter"], fmt, os.path.basename(r["file"]),
                    ("crashed" if r["result"] == "crashed" else "timed out") if bad else None)
    return check if check.judged else None


# --- the standard suites ----------------------------------------------------------------------

def _filtered_ids(record):
    return {i for ids in record.get("filtered", {}).values() for i in ids}


def suite_failures(suite):
    """{adapter: {(kind, document id)}}: under the policy, what each adapter got wrong, and the
    library configuration's digest disagreements on documents the policy judges."""
    out = defaultdict(set)
    policy = {r["adapter"]: r for r in suite["records"] if r["config"] == "policy"}
    for r in suite["records"]:
        if r["config"] == "policy":
            for kind in SUITE_KINDS:
                out[r["adapter"]].update((kind, i) for i in r.get("failures", {}).get(kind, []))
        elif r["adapter"] in policy:
            # A document the policy refuses (a DOCTYPE) never reaches the service: only those it
            # judges count.
            skip = _filtered_ids(policy[r["adapter"]])
            out[r["adapter"]].update(("digest_disagreements", i) for i in
                                     r.get("failures", {}).get("digest_disagreements", [])
                                     if i not in skip)
    return out


def _suite_why(kind, suite):
    ref = ("the suite's canonical output" if suite["format"] == "xml"
           else "what most adapters read")
    return SUITE_KINDS[kind].replace("the reference output", ref)


def suites(run):
    """The standard suites' wrong answers, or None without a suites document."""
    got = run.read("conformance_suites")
    doc = got[1] if got else None
    if not isinstance(doc, dict) or "suites" not in doc:
        return None
    check = Check("suites", "standard suites",
                  "under the service's policy, a not-well-formed document accepted, a valid one "
                  "rejected, a document read differently from the suite's canonical output (XML) "
                  "or from most adapters (JSON), a crash or a hang; a document most adapters of "
                  "the format answer against the suite is disputed and held against none",
                  "format", "conformance-the-standard-suites",
                  "under the service's policy every not-well-formed document rejected, every "
                  "valid one accepted and read as the suite's canonical output (XML) or as most "
                  "adapters read it (JSON), disputed documents aside")
    for suite in doc["suites"]:
        policy = [r for r in suite["records"] if r["config"] == "policy"]
        failures = suite_failures(suite)
        counts = Counter(f for fs in failures.values() for f in fs)
        disputed = sorted(i for (k, i), n in counts.items() if 2 * n > len(policy))
        if disputed:
            check.notes.append(f"{suite['suite']}: disputed (most adapters answer against the "
                               f"suite): " + ", ".join(f"`{i}`" for i in disputed))
        for r in policy:
            adapter = names.field(r["adapter"])
            check.count(adapter, suite["format"], r["valid"] + r["not_wf"])
            for kind, i in sorted(failures[r["adapter"]]):
                if i not in disputed:
                    check.fail(adapter, suite["format"], f"{suite['suite']} {i}",
                               _suite_why(kind, suite), f"{counts[(kind, i)]} of {len(policy)} "
                               f"{suite['format'].upper()} adapters did")
            if r["crashes"] or r["hangs"]:
                check.fail(adapter, suite["format"], suite["suite"], "crashed or hung",
                           f"{r['crashes']} crashes, {r['hangs']} hangs")
    return check if check.judged else None


# --- the benchmark corpus ---------------------------------------------------------------------

def corpus(data):
    """parse_bench's per-message checks (walk Digest, decoded value against the manifest): a
    failed check is an error in the result file."""
    check = Check("corpus", "benchmark corpus",
                  "a walk Digest or decoded value that differs from the corpus manifest's, or a "
                  "message refused (the benchmark's check before timing)", "family",
                  "decode-throughput-per-adapter-and-family",
                  "every message's Digest and decoded value as the manifest's")
    for name, r in data.res.items():
        f = names.fields(name, "level")
        if not f or f["level"] not in LEVELS or f["adapter"].endswith("-direct"):
            continue
        why = None if r.error is None else r.error.split(": ", 2)[-1][:160]
        check.judge(f["adapter"], f["family"], f"{f['family']}/{f['file']} ({f['level']})", why)
    return check if check.judged else None


# --- your messages ----------------------------------------------------------------------------

def _kind(why):
    """The kind of a compare line: its text up to the first parenthesis or count."""
    for cut in (" from the one", " ("):
        why = why.split(cut, 1)[0]
    return why


def _disagrees(why):
    """A left-out line that is a different answer (not a refusal): harness/equal_work.cpp's."""
    return "differs from the one" in why


def your_messages_check(data):
    """`soapbench compare`: an answer different from most adapters', or flagged work."""
    if not data.compare:
        return None
    check = Check("your-messages", "your messages",
                  "a Digest or decoded value different from the one most adapters agree on, or "
                  "work that differs in a stated way (a named fastest mode's text)", "family",
                  "your-messages", "on every message the answer most adapters give")
    for doc in data.compare:
        facts = your_messages.messages(doc)
        ctx = gbench.context(doc)
        seen = OrderedDict()
        for name in gbench.results_of(doc):
            parsed = your_messages.split_name(gbench.pair_name(name))
            if parsed:
                level, adapter, fam, message = parsed
                flag = str(ctx.get(f"compare_flag:{gbench.pair_name(name)}", ""))
                seen[(adapter, fam, message, level)] = flag or None
        for message, level, adapter, why in your_messages.left_out(doc):
            fam = facts.get(message, {}).get("family", "?")
            seen[(adapter, fam, message, level)] = why if _disagrees(why) else None
        for (adapter, fam, message, level), why in seen.items():
            check.judge(adapter, fam, f"{message} ({level})", why and _kind(why), why or "")
    return check if check.judged else None


# --- real-world messages ----------------------------------------------------------------------

def wild(run):
    """tools/wild's verdicts on corpus/wild/, or None without its document."""
    got = real_world.verdicts_of(run)
    if not got or got[2]:
        return None
    check = Check("wild", "real-world messages",
                  "on a message of corpus/wild/ (real traffic), an answer other than the "
                  "manifest's (decided from the specifications), or an answer where it refuses or "
                  "needs a WSDL; a refusal is not wrong, and a wrong answer every adapter gives "
                  "is soapbench's decoding, held against none and shown on the first screen",
                  "family", real_world.ANCHOR,
                  "no wrong answer on the real-world messages (corpus/wild/)")
    common = real_world.shared(got[1])
    for v in got[1]:
        msg = real_world.message(v)
        bad = v["verdict"] == "wrong" and (v["family"], msg) not in common
        detail = v["detail"].split(" -> ", 1)[0] if bad else ""
        check.judge(v["adapter"], v["family"], msg,
                    real_world.kind(v["detail"]) if bad else None, detail[:160])
    for (fam, msg), (n, detail) in common.items():
        check.notes.append(f"{fam} `{msg}`, answered wrong by all {n} adapters "
                           f"({real_world.kind(detail)})")
    return check if check.judged else None


# What a check missing from the results would need: key -> (title, how to get it).
ABSENT = OrderedDict([
    ("hostile", ("hostile inputs", "no `soapbench conformance` document (`tools/report "
                 "--conformance FILE`)")),
    ("suites", ("standard suites", "no `soapbench conformance --suite` document (`tools/report "
                "--conformance-suites FILE`)")),
    ("corpus", ("benchmark corpus", "no parse_bench results")),
    ("your-messages", ("your messages", "no `soapbench compare` document among the files")),
    ("wild", ("real-world messages", f"no `{real_world.TOOL}` document: {real_world.PRODUCE}")),
])


def absent(found):
    """[(title, why)] of the checks these results lack."""
    keys = {c.key for c in found}
    return [v for k, v in ABSENT.items() if k not in keys]


def all_checks(run):
    """Every check these results hold, in the order the report lists them."""
    found = (hostile(run), suites(run), corpus(run.data), your_messages_check(run.data), wild(run))
    return [c for c in found if c is not None]
