"""The opening paragraph (what the statistics allow to say about who is ahead) and the console
summary tools/run_bench.sh prints."""
import re
import sys

from sbtools.fmt import rng
from sbtools.report import answer, real_world, right_answers
from sbtools.report.data import MARK, NOISY, call_key, headline_decode, headline_rule
from sbtools.report.links import parser_shares
from sbtools.stats import RANK_ALPHA, Ranking, ci_text, claim


def adapter_label(data):
    def label(a):
        fastest_mode = data.adapters.get(a, {}).get("fastest") == "yes"
        return f"`{a}`" + (" (a named fastest mode)" if fastest_mode else "")
    return label


def family_sentence(subject, cands):
    """One sentence on families compared by their best result (candidates {family: Result})."""
    rk = Ranking(cands)
    if len(rk.order) < 2:
        return None
    med = ", ".join(f"{f} {ci_text(r)}" for f, r in rk.order)
    if rk.clear:
        (f1, r1), (f2, r2), (fn, rn) = rk.order[0], rk.order[1], rk.order[-1]
        tail = (f" and {rn.time / r1.time:.1f}× ahead of {fn}" if fn != f2 and rk.apart[fn][0]
                else "")
        return (f"{subject}: **{f1}** is the fastest family, {r2.time / r1.time:.2f}× ahead of "
                f"{f2}{tail} (µs, median [interval]: {med}).")
    return f"{subject}: {claim(rk, lambda f: f'**{f}**')} (µs, median [interval]: {med})."


def best_per_family(items, fams):
    """{family: the Result with the lowest median} over items [(family, Result)]."""
    out = {}
    for fam, r in items:
        if fam in fams and (fam not in out or r.time < out[fam].time):
            out[fam] = r
    return out


def decode_sentences(data):
    out = []
    heads = headline_decode(data)
    if heads:
        out.append("Decode per protocol family on its headline message (" + headline_rule(data) +
                   "): " +
                   "; ".join(f"{fam} `{fl}`: {claim(rk, adapter_label(data))}"
                             for fam, (fl, rk) in heads.items()) + ".")
    dec = data.level("decode")
    fams = [f for f in data.facts.families if any(k[1] == f for k in dec)]
    if len(fams) >= 2:
        common = set.intersection(*({k[2] for k in dec if k[1] == f} for f in fams))
        pick = next((f for f in ("complex.call", "getRate.call", "add.call") if f in common),
                    sorted(common)[0] if common else None)
        if pick:
            best = best_per_family([(f, r) for (a, f, fl), r in dec.items() if fl == pick], fams)
            out.append(family_sentence(f"Decoding the same call (`{pick}`), each family with its "
                                       "lowest-median adapter", best))
    return out


def right_picks(run):
    """{family: (the fastest with right answers or None, what the statistics allow to say with
    `x` for an adapter)} by report.right_answers' rule, and the titles of the checks it used."""
    ra = right_answers.compute(run)
    if not ra:
        return {}, []
    out = {}
    for fam, (fl, rk) in headline_decode(run.data).items():
        row = answer.family_row(fam, fl, rk, ra["verdicts"])
        text = row["claim"] or "none"
        out[fam] = (row["pick"], text.replace("\x00", "`").replace("\x01", "`"))
    return out, [c.title for c in ra["verdicts"].checks]


def right_sentence(run):
    picks, titles = right_picks(run)
    if not picks:
        return None
    return (f"The fastest with right answers ({', '.join(titles)}; see "
            "[Right answers](#right-answers)): " +
            "; ".join(f"{fam}: {text}" for fam, (_p, text) in picks.items()) + ".")


def wild_sentence(run):
    """The real-world messages answered wrong (tools/wild), or None when none were."""
    n, items = real_world.wrong_summary(real_world.compute(run))
    if not n:
        return None
    named = "; ".join(("every adapter" if who is None else ", ".join(f"`{a}`" for a in who))
                      + f" on {fam} `{msg}` ({k})" for who, fam, msg, k in items[:4])
    more = f"; {len(items) - 4} more messages" if len(items) > 4 else ""
    return (f"**{n} wrong answers on real-world messages**: {named}{more} (see "
            f"[{real_world.TITLE}](#{real_world.ANCHOR})).")


def roundtrip_sentences(run):
    rt, data = run.rt, run.data
    calls = sorted({k[3] for k in rt if k[0] == "keepalive" and k[1] != "binary"}, key=call_key)
    if not calls:
        return []
    call = calls[0]
    shares = parser_shares(run, call)
    out = [] if shares else [
        f"These result files carry no link model (context `link_model:*`): no parser share of "
        f"the `{call}` call is stated."]
    rows = shares["rows"].values() if shares else []
    lo, lan, wan = ([v[k] for v in rows if v.get(k) is not None] for k in ("loopback", "LAN", "WAN"))
    if lo and lan:
        out.append(f"In a keep-alive `{call}` round trip the parsers (server + client decode) take "
                   f"{rng(lo)} of the call on loopback, but {rng(lan)} on the LAN model"
                   + (f" and {rng(wan)} on the WAN model" if wan else "")
                   + " (each family's parser as in the link section).")
    elif lo:
        out.append(f"In a keep-alive `{call}` round trip the parsers (server + client decode) take "
                   f"{rng(lo)} of the call on loopback (no link model in these result files).")
    fams = [f for f in data.facts.families if f != "binary"] or \
        sorted({k[1] for k in rt} - {"binary"})
    best = best_per_family([(f, r) for (v, f, p, c), r in rt.items()
                            if v == "keepalive" and c == call], fams)
    out.append(family_sentence(f"A keep-alive `{call}` round trip on loopback, each family with "
                               "its lowest-median parser", best))
    return out


def noise_sentences(data):
    out = []
    noisy = [n for n, r in data.res.items() if r.error is None and r.noisy(NOISY)]
    repeated = [n for n, r in data.res.items() if r.error is None and r.cv is not None]
    once = len([r for r in data.res.values() if r.error is None]) - len(repeated)
    if repeated:
        if noisy:
            out.append(f"{len(noisy)} of the {len(repeated)} results with repetitions vary by "
                       f"more than {NOISY:.0%} (marked {MARK}; see [Noisy results](#noisy-results)).")
        else:
            out.append(f"None of the {len(repeated)} results with repetitions varies by more "
                       f"than {NOISY:.0%}.")
    if once:
        out.append(f"{'All' if not repeated else once} results ran once: their noise is unknown "
                   "and no ranking is claimed from them.")
    errors = [n for n, r in data.res.items() if r.error]
    if errors:
        out.append(f"{len(errors)} benchmarks failed and are left out (e.g. `{errors[0]}`).")
    return out


def sentences(run):
    """The opening paragraph's sentences."""
    out = decode_sentences(run.data) + [right_sentence(run), wild_sentence(run)]
    if run.rt:
        out += roundtrip_sentences(run)
    return [x for x in out + noise_sentences(run.data) if x]


def print_summary(run, out=sys.stdout):
    heads = headline_decode(run.data)
    if not heads:
        out.write("no decode results to summarise\n")
        return
    rule = (f"where the rounds until decided called the pair different (all decisions at "
            f"alpha {run.data.rounds.get('alpha', 0.01):g}; report section \"Rounds until "
            "decided\")" if run.data.rounds else
            f"where Mann-Whitney p <= {RANK_ALPHA:g} and the intervals are apart")
    out.write(f"decode per family on its headline message (median of the repetitions; ranked only "
              f"{rule}):\n")
    for fam, (fl, rk) in heads.items():
        out.write(f"  {fam:<20} {fl:<24} {claim(rk, lambda a: a)}\n")
    picks, titles = right_picks(run)
    if picks:
        out.write(f"the fastest with right answers ({', '.join(titles)}; report section "
                  "\"Right answers\"):\n")
        for fam, (_p, text) in picks.items():
            out.write(f"  {fam:<20} {text.replace('`', '')}\n")
    wild = wild_sentence(run)
    if wild:
        out.write(re.sub(r"[`*]|\(see \[.*?\)\)", "", wild).rstrip(" .") + " (report section "
                  f"\"{real_world.TITLE}\")\n")
    for sentence in roundtrip_sentences(run)[-1:] if run.rt else []:
        out.write(re.sub(r"[`*]", "", sentence) + "\n")
