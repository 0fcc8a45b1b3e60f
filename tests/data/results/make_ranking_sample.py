#!/usr/bin/python3
"""Writes parse_bench.ranking.json: a HAND-MADE parse_bench result (invented times) whose
decode of complex.call is laid out so tools/report's ranking rule has one answer per family:

  xmlrpc              5 repetitions, rapidxml-dom clearly ahead (no overlap, p = 0.008)
  soap11-rpc-encoded  5 repetitions, pugixml-dom and rapidxml-dom overlap (tied within noise),
                      libxml2-sax clearly behind both
  jsonrpc             one repetition each, rapidjson-dom 40% below simdjson-ondemand: no rank

The context is parse_bench.run1.json's plus the facts harness/run_context.cpp writes.

Usage: tests/data/results/make_ranking_sample.py   (deterministic: no random numbers)
"""
import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ next to the samples
from make_roundtrip_sample import FACT_CONTEXT, HERE, aggregates  # noqa: E402

TIMES = {  # (family, adapter): real_time per repetition, ns
    ("xmlrpc", "rapidxml-dom"): [10000, 10100, 9950, 10050, 10020],
    ("xmlrpc", "pugixml-dom"): [13000, 13150, 12900, 13080, 13020],
    ("xmlrpc", "libxml2-sax"): [20000, 20300, 19900, 20150, 20050],
    ("soap11-rpc-encoded", "pugixml-dom"): [10000, 10400, 9900, 10200, 10100],
    ("soap11-rpc-encoded", "rapidxml-dom"): [10150, 9800, 10300, 10050, 10500],
    ("soap11-rpc-encoded", "libxml2-sax"): [20000, 20300, 19900, 20150, 20050],
    ("jsonrpc", "rapidjson-dom"): [5000],
    ("jsonrpc", "simdjson-ondemand"): [8000],
}


def entries(name, times, family_index):
    reps = []
    for i, t in enumerate(times):
        e = {"name": name, "family_index": family_index, "per_family_instance_index": 0,
             "run_name": name, "run_type": "iteration", "repetitions": len(times),
             "repetition_index": i, "threads": 1, "iterations": 1000, "real_time": float(t),
             "cpu_time": float(t), "time_unit": "ns", "bytes_per_second": 1500e9 / t,
             "msgs_per_s": 1e9 / t}
        reps.append(e)
    return reps + (aggregates(reps) if len(times) > 1 else [])


def main():
    with open(os.path.join(HERE, "parse_bench.run1.json"), encoding="utf-8") as f:
        ctx = dict(json.load(f)["context"])
    ctx["note"] = "hand-made sample for tests/tools/test_tools.py (invented numbers)"
    ctx.update({k: v for k, v in FACT_CONTEXT.items() if not k.startswith("variant:")})
    benchmarks = []
    for i, ((fam, adapter), times) in enumerate(TIMES.items()):
        benchmarks += entries(f"decode/{adapter}/{fam}/complex.call", times, i)
    out = os.path.join(HERE, "parse_bench.ranking.json")
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"context": ctx, "benchmarks": benchmarks}, f, indent=1)
        f.write("\n")
    print(f"wrote {out}: {len(benchmarks)} entries")


if __name__ == "__main__":
    main()
