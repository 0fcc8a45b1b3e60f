"""tools/load_bench: the encoding-style study's load matrix at small scale (docs/load.md "Load").

The study raised concurrency and payload (2,500 and 7,500 byte responses) and measured
transactions per second per SOAP encoding style. Here `soapbench load` (C++: the calls, checks
and latencies; this script only starts servers and collects its JSON) runs a closed-loop sweep
of connections for respond.2500B and respond.7500B in each SOAP 1.1 style (rpc/encoded,
rpc/literal, doc/literal), XML-RPC and JSON-RPC, against `soapbench serve` with its default and
its fastest-mode XML adapter and against every peer the build declares for load (`soapbench list
--peers`: LOAD) in the families it speaks, a JVM peer warmed up before it serves. Then open-loop
sweeps (latency from each call's due time against achieved rate: the hockey stick), on our server
and on the JVM peers, at fractions of the closed-loop peak each reached.
Servers run pinned to one CPU, the generator on the other, as in tools/server_load. Writes
load_bench.json (every `soapbench load` point with its server, family and call); exit 1 when a
point had errors or a server could not be loaded.
"""
import argparse
import json
import os
import subprocess
import sys
import time

from sbtools import corpus_calls as cc
from sbtools import gbench, paths, store
from sbtools.load import server_load


TOOL = "tools/load_bench"
CALLS = ["respond.2500B", "respond.7500B"]


def load_options(family):
    """The `soapbench load` options that speak a family (--protocol, and --style for SOAP)."""
    style = cc.style_of(family)
    return ["--protocol", cc.protocol_of(family)] + (["--style", style] if style else [])


# The study's families: SOAP 1.1's three styles, XML-RPC and JSON-RPC, in corpus order.
STUDY_PROTOCOLS = ("soap11", "xmlrpc", "jsonrpc")
FAMILIES = [f for f in cc.FAMILIES if cc.protocol_of(f) in STUDY_PROTOCOLS]
XML_FAMILIES = [f for f in FAMILIES if f in cc.XML_FAMILIES]
OPEN_FRACTIONS = [0.25, 0.5, 0.75, 0.9, 1.0, 1.2]
# The capacity step: the call nginx answers (tools/server_load's floor) and its family.
CAPACITY_CALL = "getRate"
CAPACITY_FAMILY = server_load.CALL_FAMILIES[CAPACITY_CALL]

# Calls a JVM server answers before its serving line (its JIT warm-up, printed on its stderr, which
# goes to a file beside --json: <json>.<server id>.log).
JVM_WARMUP_CALLS = 3000

EPILOG = """\
servers: soapbench-default, soapbench-fastest and the name of each peer `soapbench list --peers`
declares for load (docs/load.md "Load" names them with examples).

examples:
  tools/load_bench                                   # the matrix, 1 s per point (about 5 min)
  tools/load_bench --servers soapbench-default --families xmlrpc --connections 1,8 \\
      --duration 0.5 --open-family none              # a slice
"""


def load_peers(args):
    """The build's peers declared for load that speak a family of the study, in declaration
    order."""
    return [p for p in args.peers if p["load"] and any(f in p["families"] for f in FAMILIES)]


def peer_argv(peer, warmup):
    """A peer's server command line for one family: --family F for a ONE_FAMILY server,
    --warmup N (JIT warm-up calls) for a JVM one."""
    def argv(family):
        return ([peer["server"]] + (["--family", family] if peer["one_family"] else [])
                + (["--warmup", str(warmup)] if peer["jvm"] else []))
    return argv


def server_table(args):
    """{id: (name, families, argv per family)}: every server this build has."""
    ours = [args.soapbench, "serve", "--threads", "1"]
    fastest = ours + ["--parser", server_load.fastest_xml_adapter(args.soapbench)]
    table = {
        "soapbench-default": ("soapbench", list(FAMILIES), lambda f: ours),
        "soapbench-fastest": ("soapbench", XML_FAMILIES, lambda f: fastest),
    }
    exe = {}
    for p in load_peers(args):
        exe[p["name"]] = p["server"]
        table[p["name"]] = (p["name"], [f for f in FAMILIES if f in p["families"]],
                            peer_argv(p, args.jvm_warmup))
    return {k: v for k, v in table.items() if os.access(exe.get(k, args.soapbench), os.X_OK)}


def jvm_log(args, sid):
    """Where a JVM server's stderr (its warm-up line, its exceptions) goes: beside --json."""
    return f"{args.json}.{sid}.log"


def run_load(args, server, family, call, sweep):
    """`soapbench load` against a started server; its JSON document (or an error record)."""
    out = os.path.join(args.tmp, "point.json")
    if os.path.exists(out):
        os.remove(out)
    argv = ["taskset", "-c", str(args.load_cpu), args.soapbench, "load", "--url", server.url_,
            *load_options(family), "--call", call, *sweep, "--duration", str(args.duration),
            "--warmup", str(args.warmup), "--server-pid", str(server.proc_.pid), "--json", out]
    limit = 60 + 4 * (args.duration + args.warmup) * len(sweep[1].split(","))
    proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=limit)
    if not os.path.exists(out):
        return {"error": f"soapbench load exited {proc.returncode}: {proc.stderr.strip()[-300:]}"}
    with open(out, encoding="utf-8") as f:
        return json.load(f)


def served_calls(args, sid):
    """The calls of --calls that server sid implements: every one for ours; for a peer, those
    whose operation its declaration lists (OPERATIONS; none listed: every one)."""
    ops = next((p["operations"] for p in args.peers if p["name"] == sid), [])
    return [c for c in args.calls if not ops or c.split(".", 1)[0] in ops]


def measure(args, sid, name, family, argv, sweep, mode):
    """One server started for one family, one sweep per call it serves: the run records."""
    runs = []
    log = open(jvm_log(args, sid), "a", encoding="utf-8") if sid in args.jvm else None
    try:
        server = server_load.RunningServer(server_load.Server(sid, name, None, [], argv(family)),
                                           args.server_cpu, [], stderr=log)
    finally:
        if log:
            log.close()  # the child holds its own copy
    try:
        for call in served_calls(args, sid):
            doc = run_load(args, server, family, call, sweep(call))
            parser = "its JSON adapter" if cc.format_of(family) == "json" else server.parser_
            rec = {"server": name, "server_id": sid, "parser": parser, "family": family,
                   "call": call, "mode": mode, "points": doc.get("points", [])}
            if "error" in doc:
                rec["error"] = doc["error"]
            runs.append(rec)
            progress(rec)
    finally:
        server.stop()
    return runs


def progress(rec):
    peak = max((p["tps"] or 0 for p in rec["points"]), default=0)
    errs = sum(p["errors_total"] for p in rec["points"])
    print(f"{TOOL}: {rec['mode']} {rec['server_id']} {rec['family']} {rec['call']}: "
          f"{len(rec['points'])} points, peak {peak:.0f}/s, {errs} errors"
          + (f" ({rec['error']})" if "error" in rec else ""), file=sys.stderr, flush=True)


def closed_sweeps(args, table):
    conns = ",".join(str(c) for c in args.connections)
    runs = []
    for sid in args.servers:
        if sid not in table:
            print(f"{TOOL}: server {sid} is not in this build; left out", file=sys.stderr)
            continue
        if not served_calls(args, sid):
            print(f"{TOOL}: server {sid} implements none of --calls; left out", file=sys.stderr)
            continue
        name, families, argv = table[sid]
        for family in (f for f in args.families if f in families):
            runs += measure(args, sid, name, family, argv, lambda c: ["--connections", conns],
                            "closed")
    return runs


def open_family(args, families):
    """The family of a server's open-loop sweep: --open-family when it serves it, else the first
    of --families it serves; None when it serves none of them."""
    if args.open_family in families:
        return args.open_family
    return next((f for f in args.families if f in families), None)


def open_sweep(args, table, closed):
    """The hockey stick: each of --open-servers on its open family, rates at fractions of the
    peak closed-loop TPS it reached there, --open-connections connections."""
    if args.open_family == "none":
        return []
    runs = []
    for sid in (s for s in args.open_servers
                if s in table and s in args.servers and served_calls(args, s)):
        name, families, argv = table[sid]
        family = open_family(args, families)
        if family is None:
            continue
        peaks = {r["call"]: max((p["tps"] or 0 for p in r["points"]), default=0) for r in closed
                 if r["server_id"] == sid and r["family"] == family}

        def sweep(call, peaks=peaks):
            peak = peaks.get(call) or 1000.0
            rates = ",".join(f"{max(1.0, peak * f):.0f}" for f in OPEN_FRACTIONS)
            return ["--rate", rates, "--connections", str(args.open_connections)]

        runs += measure(args, sid, name, family, argv, sweep, "open")
    return runs


def capacity(args):
    """The generator's ceiling against nginx's fixed answer at --capacity-connections: the
    record (with the `soapbench load` point), or None when skipped. ceiling_tps = calls per
    generator CPU-second x the CPUs the generator may use (pinned to --load-cpu: 1)."""
    if args.capacity_connections <= 0:
        return None
    if not os.access(args.nginx, os.X_OK):
        print(f"{TOOL}: no nginx at {args.nginx}: no capacity step", file=sys.stderr)
        return None
    nginx = server_load.Server("nginx", "nginx", server_load.NGINX_PARSER, [CAPACITY_CALL],
                               [args.nginx], server_load.RunningNginx)
    server = nginx.runner(nginx, args.server_cpu, [])
    try:
        doc = run_load(args, server, CAPACITY_FAMILY, CAPACITY_CALL,
                       ["--connections", str(args.capacity_connections)])
    finally:
        server.stop()
    rec = {"server": "nginx", "parser": nginx.parser, "family": CAPACITY_FAMILY,
           "call": CAPACITY_CALL, "connections": args.capacity_connections,
           "generator_cpus": 1, "points": doc.get("points", [])}
    p = rec["points"][0] if rec["points"] else None
    if "error" in doc or p is None or not p["calls"] or p["errors_total"]:
        rec["error"] = doc.get("error") or f"no clean point: {p and p['first_error']}"
    else:
        cpu_s = p["generator_cpu_share"] * p["elapsed_s"] * p["generator_threads"]
        rec["calls_per_cpu_s"] = p["calls"] / cpu_s
        rec["ceiling_tps"] = rec["calls_per_cpu_s"] * rec["generator_cpus"]
    print(f"{TOOL}: capacity: nginx {CAPACITY_CALL} c={args.capacity_connections}: "
          + (rec["error"] if "error" in rec else
             f"{p['tps']:.0f}/s with the generator {p['generator_cpu_share']:.0%} busy: ceiling "
             f"{rec['ceiling_tps']:.0f} calls/s"), file=sys.stderr, flush=True)
    return rec


def print_table(runs):
    print(f"{'mode':6} {'server':18} {'family':19} {'call':14} {'point':>8} {'tps':>8} "
          f"{'p50 µs':>9} {'p99 µs':>9} {'p99.9 µs':>9} {'errors':>6} {'CPU µs/call':>11}")
    for r in runs:
        for p in r["points"]:
            point = f"c={p['connections']}" if p["mode"] == "closed" else f"r={p['rate']:.0f}"
            cpu = p.get("server_cpu_us_per_call")
            print(f"{r['mode']:6} {r['server_id']:18} {r['family']:19} {r['call']:14} "
                  f"{point:>8} {p['tps'] or 0:8.0f} {p['p50_us'] or 0:9.1f} "
                  f"{p['p99_us'] or 0:9.1f} {p['p999_us'] or 0:9.1f} {p['errors_total']:6} "
                  f"{cpu if cpu is not None else float('nan'):11.1f}")


def parse_args(argv):
    ap = argparse.ArgumentParser(prog=TOOL, description=__doc__.split("\n", 2)[2], epilog=EPILOG,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    csv = lambda s: [x for x in s.split(",") if x]  # noqa: E731
    ap.add_argument("--build-dir", default=paths.BUILD_DIR, help="the build tree (default build/)")
    ap.add_argument("--servers", type=csv,
                    help="comma-separated server ids (default: ours with its default and its "
                         "fastest adapter, then every peer declared for load; a peer not built is "
                         "left out)")
    ap.add_argument("--families", type=csv, default=list(FAMILIES),
                    help=f"comma-separated families (default: {','.join(FAMILIES)})")
    ap.add_argument("--calls", type=csv, default=CALLS, help=f"default {','.join(CALLS)}")
    ap.add_argument("--connections", type=lambda s: [int(x) for x in csv(s)],
                    default=[1, 4, 16, 64], help="closed-loop sweep (default 1,4,16,64)")
    ap.add_argument("--duration", type=float, default=1.0, help="seconds per point (default 1)")
    ap.add_argument("--warmup", type=float, default=0.3, help="seconds before each point")
    ap.add_argument("--open-family", default="soap11-doc-literal",
                    help="family of the open-loop sweeps ('none': no sweep); a server that does "
                         "not serve it is swept on the first of --families it serves")
    ap.add_argument("--open-servers", type=csv,
                    help="servers of the open-loop sweeps, among --servers (default "
                         "soapbench-default and the JVM peers)")
    ap.add_argument("--jvm-warmup", type=int, default=JVM_WARMUP_CALLS,
                    help=f"calls a JVM peer's server answers before it is loaded (JIT "
                         f"warm-up; default {JVM_WARMUP_CALLS})")
    ap.add_argument("--open-connections", type=int, default=64,
                    help="connection pool of the open loop (default 64)")
    ap.add_argument("--capacity-connections", type=int, default=64,
                    help="connections of the capacity step against nginx (0: no step; "
                         "default 64)")
    ap.add_argument("--nginx", default=server_load.parse_args([]).nginx,
                    help="the nginx program of the capacity step (default: tools/server_load's)")
    ap.add_argument("--server-cpu", type=int, default=0, help="CPU the servers run on")
    ap.add_argument("--load-cpu", type=int, default=min(1, os.cpu_count() - 1),
                    help="CPU soapbench load runs on (default 1)")
    ap.add_argument("--json", metavar="FILE",
                    help="write here (default <build-dir>/results/load_bench.json)")
    ap.add_argument("--machine", metavar="ID", help="machine id (default: this machine)")
    args = ap.parse_args(argv)
    args.argv = argv
    args.soapbench = os.path.join(args.build_dir, "soapbench")
    args.peers = server_load.peer_list(args.soapbench)
    args.jvm = [p["name"] for p in load_peers(args) if p["jvm"]]  # their stderr: jvm_log
    args.servers = args.servers or ["soapbench-default", "soapbench-fastest",
                                    *(p["name"] for p in load_peers(args))]
    args.open_servers = args.open_servers or ["soapbench-default", *args.jvm]
    args.json = args.json or os.path.join(args.build_dir, "results", "load_bench.json")
    return args


def main(argv=None):
    args = parse_args(list(sys.argv[1:] if argv is None else argv))
    import tempfile
    try:  # before the sweeps, not after minutes of them: the id the document is filed under
        machine = store.this_machine(paths.RESULTS_DIR, args.build_dir, args.machine)
    except gbench.ResultError as e:
        print(f"{TOOL}: {e}", file=sys.stderr)
        return 1
    os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
    for sid in args.jvm:  # this run's JVM logs only
        if os.path.exists(jvm_log(args, sid)):
            os.remove(jvm_log(args, sid))
    with tempfile.TemporaryDirectory(prefix="sb-load-bench-") as args.tmp:
        try:
            table = server_table(args)
            closed = closed_sweeps(args, table)
            runs = closed + open_sweep(args, table, closed)
            cap = capacity(args)
        except (gbench.ResultError, subprocess.SubprocessError, OSError) as e:
            print(f"{TOOL}: {e}", file=sys.stderr)
            return 1
    doc = {"tool": TOOL, "machine_id": machine,
           "context": {"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                       "git_sha": store.source_sha(),
                       "duration_s": args.duration, "warmup_s": args.warmup,
                       "server_cpu": args.server_cpu, "load_cpu": args.load_cpu,
                       "command": " ".join([TOOL, *args.argv])},
           "runs": runs, "capacity": cap}
    os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
    with open(args.json, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
    print_table(runs)
    bad = [r for r in runs if "error" in r or any(p["errors_total"] for p in r["points"])]
    print(f"{TOOL}: {len(runs)} sweeps, {sum(len(r['points']) for r in runs)} points, "
          f"{len(bad)} with errors -> {paths.rel(args.json)}")
    if cap:
        print(f"{TOOL}: generator ceiling " + (f"{cap['ceiling_tps']:.0f} calls/s"
                                                if "ceiling_tps" in cap else cap["error"]))
    return 1 if bad or not runs or (cap and "error" in cap) else 0


if __name__ == "__main__":
    sys.exit(main())
