#!/usr/bin/python3
"""Writes roundtrip_bench.sample.json: a HAND-MADE roundtrip_bench result (invented numbers,
plausible magnitudes) in the layout docs/results.md defines, for the tools tests; the round
trip benchmark did not exist when the tools were written. The context is copied from the
real parse_bench sample next to it, so both share one machine_id.

Usage: tests/data/results/make_roundtrip_sample.py   (deterministic: fixed random seed)
"""
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
REPS = 3

FAMILIES = {  # family: (parsers, request bytes, response bytes, decode ns per parser)
    "xmlrpc": (["pugixml-dom", "libxml2-sax"], 330, 390),
    "soap11-rpc-encoded": (["pugixml-dom", "libxml2-sax"], 690, 720),
    "soap11-rpc-literal": (["pugixml-dom", "libxml2-sax"], 560, 600),
    "soap11-doc-literal": (["pugixml-dom", "libxml2-sax"], 540, 590),
    "soap12-doc-literal": (["pugixml-dom", "libxml2-sax"], 560, 610),
    "jsonrpc": (["rapidjson-dom", "simdjson-ondemand"], 250, 240),
    "binary": (["none"], 46, 30),
}
PARSER_NS = {"pugixml-dom": 2600, "libxml2-sax": 5200, "rapidjson-dom": 1100,
             "simdjson-ondemand": 900, "none": 120}
FAMILY_FACTOR = {"xmlrpc": 1.0, "soap11-rpc-encoded": 1.6, "soap11-rpc-literal": 1.35,
                 "soap11-doc-literal": 1.3, "soap12-doc-literal": 1.35, "jsonrpc": 1.0,
                 "binary": 1.0}
CALLS = {"getRate": (1.0, 1.0), "respond.7500B": (1.0, 11.0)}
VARIANTS = {"keepalive": (24000, 0), "newconn": (61000, 1), "tls-full": (455000, 1),
            "tls-resumed": (170000, 1)}
# The facts harness/run_context.cpp and roundtrip_bench write into the context, as they write
# them (families, default adapters, link model, round trips per variant).
FACT_CONTEXT = {
    "families": "xmlrpc,soap11-rpc-encoded,soap11-rpc-literal,soap11-doc-literal,"
                "soap12-doc-literal,jsonrpc",
    "default_adapter:xml": "pugixml/dom", "default_adapter:json": "rapidjson/dom",
    "link:loopback": "bits_per_second=0;rtt_seconds=0",
    "link:datacenter": "bits_per_second=1e+10;rtt_seconds=0.0001",
    "link:LAN": "bits_per_second=1e+09;rtt_seconds=0.0005",
    "link:WAN": "bits_per_second=1e+08;rtt_seconds=0.03",
    "link:mobile": "bits_per_second=1e+07;rtt_seconds=0.08",
    "link_model:cpu": "client_encode_ns,server_decode_ns,dispatch_ns,server_encode_ns,"
                      "client_decode_ns",
    "link_model:parser": "server_decode_ns,client_decode_ns",
    "link_model:bytes": "bytes_sent,bytes_received",
    "variant:keepalive": "round_trips=1", "variant:newconn": "round_trips=2",
    "variant:tls-keepalive": "round_trips=1", "variant:tls-full": "round_trips=3",
    "variant:tls-resumed": "round_trips=3",
}


def entry(name, idx, family_index, instance, counters, rng):
    jitter = lambda v: v * (1 + rng.uniform(-0.015, 0.015))
    c = {k: (round(jitter(v), 1) if k.endswith("_ns") else v) for k, v in counters.items()}
    c["transport_ns"] = round(c["total_ns"] - sum(c[k] for k in (
        "client_encode_ns", "server_decode_ns", "dispatch_ns", "server_encode_ns",
        "client_decode_ns")), 1)
    e = {"name": name, "family_index": family_index, "per_family_instance_index": instance,
         "run_name": name, "run_type": "iteration", "repetitions": REPS, "repetition_index": idx,
         "threads": 1, "iterations": 2000 if not name.startswith("messaging/") else 5000,
         "real_time": c["total_ns"], "cpu_time": c["total_ns"] * 0.45, "time_unit": "ns"}
    e.update(dict(sorted(c.items())))
    return e


def aggregates(reps):
    import statistics
    out = []
    for agg in ("mean", "median", "stddev", "cv"):
        e = {k: v for k, v in reps[0].items() if k not in ("repetition_index",)}
        e["name"] = reps[0]["run_name"] + "_" + agg
        e["run_type"] = "aggregate"
        e["aggregate_name"] = agg
        e["aggregate_unit"] = "percentage" if agg == "cv" else "time"
        for k, v in reps[0].items():
            if isinstance(v, float):
                vals = [r[k] for r in reps]
                m = statistics.fmean(vals)
                e[k] = round({"mean": m, "median": statistics.median(vals),
                              "stddev": statistics.stdev(vals),
                              "cv": statistics.stdev(vals) / m if m else 0.0}[agg], 6)
        out.append(e)
    return out


def main():
    rng = random.Random(8)
    with open(os.path.join(HERE, "parse_bench.run1.json"), encoding="utf-8") as f:
        parse = json.load(f)
    ctx = dict(parse["context"])
    ctx["executable"] = ctx["executable"].replace("parse_bench", "roundtrip_bench")
    ctx["bench_set"] = "default"
    ctx["note"] = "hand-made sample for tests/tools/test_tools.py (invented numbers)"
    ctx.pop("fixed_iterations", None)
    ctx.update(FACT_CONTEXT)
    benchmarks = []
    family_index = 0
    for variant, (transport, conns) in VARIANTS.items():
        for fam, (parsers, req, resp) in FAMILIES.items():
            for parser in parsers:
                for call, (req_k, resp_k) in CALLS.items():
                    if variant != "keepalive" and (call != "getRate" or parser != parsers[0]):
                        continue
                    name = f"roundtrip/{variant}/{fam}/{parser}/{call}"
                    dec = PARSER_NS[parser] * FAMILY_FACTOR[fam]
                    enc = (600 if fam != "binary" else 80) * FAMILY_FACTOR[fam]
                    counters = {
                        "client_encode_ns": enc * req_k, "server_decode_ns": dec * req_k,
                        "dispatch_ns": 150.0 * req_k, "server_encode_ns": enc * resp_k,
                        "client_decode_ns": dec * resp_k,
                        "bytes_sent": float(round(req * req_k) + (0 if fam == "binary" else 170)),
                        "bytes_received": float(round(resp * resp_k) + (0 if fam == "binary" else 120)),
                        "connections": float(conns),
                    }
                    cpu = sum(v for k, v in counters.items() if k.endswith("_ns"))
                    counters["total_ns"] = cpu + transport * (1 + 0.02 * (req_k + resp_k))
                    reps = [entry(name, i, family_index, 0, counters, rng) for i in range(REPS)]
                    benchmarks += reps + aggregates(reps)
                    family_index += 1
    for fam in FAMILIES:
        for call, resp_k in (("sendString", 1.0), ("receiveString", 1.0), ("sendInt", 0.3)):
            name = f"messaging/{fam}/{call}/iterations:5000"
            parser = FAMILIES[fam][0][0]
            dec = PARSER_NS[parser] * FAMILY_FACTOR[fam]
            counters = {"client_encode_ns": 500.0, "server_decode_ns": dec,
                        "dispatch_ns": 100.0, "server_encode_ns": 500.0 * resp_k,
                        "client_decode_ns": dec * resp_k,
                        "bytes_sent": float(FAMILIES[fam][1]),
                        "bytes_received": float(FAMILIES[fam][2]), "connections": 0.0}
            counters["total_ns"] = sum(counters[k] for k in counters if k.endswith("_ns")) + 24000
            reps = [entry(name, i, family_index, 0, counters, rng) for i in range(REPS)]
            benchmarks += reps + aggregates(reps)
            family_index += 1
    out = os.path.join(HERE, "roundtrip_bench.sample.json")
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"context": ctx, "benchmarks": benchmarks}, f, indent=None, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {out}: {len(benchmarks)} entries")


if __name__ == "__main__":
    main()
