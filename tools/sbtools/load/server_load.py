"""tools/server_load: every server under load, measured the same way (docs/load.md).

Servers: `soapbench serve` with the fastest-mode XML adapter and with its default adapter, each
peer the build declares for load that needs no JIT warm-up (`soapbench list --peers`: LOAD and
not JVM; tools/load_bench warms and loads the JVM ones) and nginx answering the corpus getRate
response (the HTTP floor; every CPU per call is also shown as a multiple of nginx's). Calls:
getRate over SOAP 1.1 doc/literal, add over XML-RPC (each server gets the calls it speaks; ours
speaks both; nginx answers getRate). For each server, call and connection count (default 1 and
32): the server runs pinned to one CPU, its answer to the corpus call is checked once (HTTP 200 and the corpus response's canonical JSON),
then wrk, pinned to the other CPU, POSTs the corpus call over C keep-alive connections for D
seconds. Measured: requests/s, p50/p99 latency (wrk's histogram), the server's CPU time per call
(utime+stime of the whole process over the calls served, /proc/PID/stat) and the connections it
served (connections on which the server sent bytes while wrk ran, read with `ss -i`). Each
cell R times, interleaved; the median and min-max are reported. Exit 1 when a cell has no
numbers (wrong answer, wrk failed) or left connections unserved or had errors.
"""
import argparse
import http.client
import json
import os
import random
import re
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import namedtuple

from sbtools import corpus_calls as cc  # corpus calls and the answer check
from sbtools import gbench, paths, peers, store

TOOL = "tools/server_load"

# The calls under load: each name's corpus family (getRate over SOAP 1.1 doc/literal, add over
# XML-RPC); loaded with tools/sbtools/corpus_calls.py (path, headers, body, expected answer).
CALL_FAMILIES = {"getRate": "soap11-doc-literal", "add": "xmlrpc"}


def corpus_call(name):
    """The corpus call of a call name under load (a corpus_calls.CorpusCall)."""
    return cc.load_call(CALL_FAMILIES[name], name)


# A server: its id on the command line, the name and parser in the results, the calls it
# serves, its command (without the port) and the class that starts it (None: RunningServer,
# which passes --port 0 and reads the URL from the server's first line).
# closes: how a peer closes every connection (its declared CLOSES), whose connections live one
# call each and so cannot be counted as served.
Server = namedtuple("Server", "id name parser calls argv runner closes", defaults=(None, None))

# The targets of issue 12 (a peer's declared CPU_TARGET): our server's CPU per call at most this
# multiple of the peer's.
Target = namedtuple("Target", "call peer ratio")

EPILOG = """\
settings: soapbench serve --threads 1 (one event loop thread, at every connection count); each
peer: its server's own defaults; nginx: one process (master_process off), keep-alive without a
request cap, answering the corpus getRate response with `return 200`. docs/peers.md and
docs/load.md "Servers under load" list every setting.

examples:
  tools/server_load                                   # 3 s per cell, 3 repetitions
  tools/server_load --reps 5 --json /tmp/server_load.json
  tools/server_load --servers nginx,soapbench-fastest --calls getRate   # ours against the floor
  tools/server_load --servers ID --server-args "ID=ARGS"   # one server with arguments of its own
"""


def fastest_xml_adapter(soapbench):
    """The XML adapter in its library's fastest mode (flag fastest-mode of `soapbench list`)."""
    for name, fmt, flags in cc.adapters(soapbench):
        if fmt == "xml" and "fastest-mode" in flags:
            return name
    raise gbench.ResultError(f"{soapbench} list shows no XML adapter with the flag fastest-mode")


def load_peers(args):
    """The peers of this build under load here: declared LOAD, not on the JVM (no warm-up
    here), built, serving one of the calls."""
    return [p for p in args.peers if p["load"] and not p["jvm"] and p["built"]
            and peer_calls(p)]


def peer_calls(peer):
    """The calls a peer speaks the family of and implements (its OPERATIONS; none: all)."""
    return [c for c, f in CALL_FAMILIES.items() if f in peer["families"]
            and (not peer["operations"] or c in peer["operations"])]


def peer_server(peer):
    """A peer's Server: the calls it serves (a ONE_FAMILY server: those of its first family
    among them), its program, --family F when it serves one family per process."""
    calls = peer_calls(peer)
    argv = [peer["server"]]
    if peer["one_family"]:
        calls = [c for c in calls if CALL_FAMILIES[c] == CALL_FAMILIES[calls[0]]]
        argv += ["--family", CALL_FAMILIES[calls[0]]]
    return Server(peer["name"], peer["name"], peer["parser"], calls, argv,
                  closes=peer["closes"])


def targets(args):
    """Issue 12's targets: per peer under load with a declared CPU_TARGET, per call it serves."""
    return [Target(call, p["name"], p["cpu_target"]) for p in load_peers(args)
            if p["cpu_target"] for call in peer_server(p).calls]


def servers(args):
    """Every server this run may start, by id (peers missing from the build are left out)."""
    ours = [args.soapbench, "serve", "--threads", "1"]
    out = {
        "soapbench-fastest": Server("soapbench-fastest", "soapbench", None, ["getRate", "add"],
                                    ours + ["--parser", fastest_xml_adapter(args.soapbench)]),
        "soapbench-default": Server("soapbench-default", "soapbench", None, ["getRate", "add"],
                                    ours),
    }
    out.update((p["name"], peer_server(p)) for p in load_peers(args))
    out["nginx"] = Server("nginx", "nginx", NGINX_PARSER, ["getRate"], [args.nginx], RunningNginx)
    return {k: s for k, s in out.items() if os.access(s.argv[0], os.X_OK)}


def stop_child(proc):
    """Stops a child process by its PID: SIGTERM, then SIGKILL after 5 s."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class RunningServer:
    """A server child process pinned to one CPU, on port 0; its URL from its first line."""

    def __init__(self, server, cpu, extra, stderr=None):
        """stderr: a file for the server's stderr (a JVM logs there while it serves; a pipe
        nobody reads would fill and stall it), or None: a pipe, read when it fails to start."""
        argv = ["taskset", "-c", str(cpu), *server.argv, *extra, "--port", "0"]
        self.proc_ = subprocess.Popen(argv, stdout=subprocess.PIPE,
                                      stderr=stderr or subprocess.PIPE,
                                      text=True)  # taskset execs: this is the server's PID
        line = self.proc_.stdout.readline()
        m = re.search(r"serving (http://[^ ]+:(\d+))", line)
        if not m:
            stop_child(self.proc_)  # first: its stderr then ends, and is read before closing
            err = self.proc_.stderr.read()[:500] if stderr is None else ""
            self.stop()
            raise gbench.ResultError(f"{' '.join(argv)} did not start: {line!r} {err!r}")
        self.url_ = m.group(1)  # http://127.0.0.1:PORT
        self.port_ = int(m.group(2))  # the port it listens on
        p = re.search(r"\(parser ([^ ,]+)", line)
        self.parser_ = p.group(1) if p else server.parser  # the XML adapter it says it uses

    def cpu_seconds(self):
        """utime + stime of the whole process (every thread, living or ended), in seconds."""
        with open(f"/proc/{self.proc_.pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self):
        """stop_child, and its pipes closed."""
        stop_child(self.proc_)
        for pipe in (self.proc_.stdout, self.proc_.stderr):
            if pipe is not None:
                pipe.close()


# The HTTP floor (issue 14): nginx answering the call's corpus response, with nothing behind it.
# One process (master_process off): the PID that is pinned and measured is the one that serves,
# as for the other servers. `return 200 '...'` answers any method, POST included, with the text.
NGINX_PARSER = "none (fixed answer)"
NGINX_CONF = """daemon off;
master_process off;
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log;
events {{ worker_connections 1024; }}
http {{
  access_log off;
  client_body_temp_path {tmp}/body;
  proxy_temp_path {tmp}/proxy;
  fastcgi_temp_path {tmp}/fastcgi;
  uwsgi_temp_path {tmp}/uwsgi;
  scgi_temp_path {tmp}/scgi;
  keepalive_requests 1000000;
  keepalive_timeout 60s;
  server {{
    listen 127.0.0.1:{port};
    location / {{
      default_type "{content_type}";
      return 200 '{body}';
    }}
  }}
}}
"""
NGINX_PORT_TRIES = 3  # free_port() can lose its port to another program before nginx binds it
NGINX_START_S = 10  # how long nginx may take to bind its port (or give up on it)


def free_port():
    """A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0, then closed)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def nginx_string(text):
    """text as the inside of a single-quoted nginx string; a '$' would be a variable there."""
    if "$" in text:
        raise gbench.ResultError("the nginx floor cannot answer a body with '$' in it")
    for c, esc in (("\\", "\\\\"), ("'", "\\'"), ("\n", "\\n"), ("\r", "\\r"), ("\t", "\\t")):
        text = text.replace(c, esc)
    return text


def nginx_conf(tmp, port, call, body):
    """Writes tmp/nginx.conf answering every request with body (nginx_string) as the call's
    family's Content-Type."""
    path = os.path.join(tmp, "nginx.conf")
    with open(path, "w", encoding="utf-8") as f:
        f.write(NGINX_CONF.format(tmp=tmp, port=port, body=body,
                                  content_type=cc.FAMILIES[call.family].content_type))
    return path


def nginx_listening(proc, tmp):
    """True once nginx has written its PID file (it does so after binding its port: a connect
    alone could reach another program that took the port), False when it ends or after
    NGINX_START_S (it tries a taken port for about 2.5 s before it gives up)."""
    deadline = time.monotonic() + NGINX_START_S
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            with open(os.path.join(tmp, "nginx.pid"), encoding="ascii") as f:
                if f.read().strip() == str(proc.pid):
                    return True
        except OSError:
            pass
        time.sleep(0.02)
    return False


class RunningNginx(RunningServer):
    """nginx as the HTTP floor: a generated config in a temporary directory, pinned to one CPU,
    on a free port (retried when another program took it first), removed when stopped."""

    def __init__(self, server, cpu, extra):
        call = corpus_call(server.calls[0])
        with open(cc.corpus_path(call.family, call.name, "response"), encoding="utf-8") as f:
            body = nginx_string(f.read())  # the corpus response
        self.tmp_ = tempfile.mkdtemp(prefix="sb-nginx-")  # config, error log, temp paths
        for _ in range(NGINX_PORT_TRIES):
            port = free_port()
            argv = ["taskset", "-c", str(cpu), *server.argv, "-p", self.tmp_, "-e",
                    os.path.join(self.tmp_, "error.log"), "-c",
                    nginx_conf(self.tmp_, port, call, body), *extra]
            self.proc_ = subprocess.Popen(argv, stdout=subprocess.DEVNULL,
                                          stderr=subprocess.PIPE, text=True)
            if nginx_listening(self.proc_, self.tmp_):
                break
            self.stop(keep_tmp=True)
            err = self.error_log()
            if "Address already in use" not in err:
                self.stop()
                raise gbench.ResultError(f"{' '.join(argv)} did not start: {err[-500:]!r}")
        else:
            self.stop()
            raise gbench.ResultError(f"nginx found no free port in {NGINX_PORT_TRIES} tries")
        self.url_ = f"http://127.0.0.1:{port}"  # where it listens
        self.port_ = port  # the port it listens on
        self.parser_ = server.parser  # none: the answer is fixed

    def error_log(self):
        """nginx's error log (its startup errors included: -e)."""
        try:
            with open(os.path.join(self.tmp_, "error.log"), encoding="utf-8") as f:
                return f.read()
        except OSError:
            return ""

    def stop(self, keep_tmp=False):
        """SIGTERM (nginx's fast shutdown), SIGKILL after 5 s; the directory removed."""
        super().stop()
        if not keep_tmp:
            shutil.rmtree(self.tmp_, ignore_errors=True)


def check_answer(args, server, call):
    """None when the server answers the corpus call with HTTP 200 and the corpus response's
    canonical JSON (corpus_calls.AnswerCheck), else what is wrong."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port_, timeout=10)
    try:
        conn.request("POST", call.path, body=call.body, headers=call.headers)
        resp = conn.getresponse()
        status, answer = resp.status, resp.read()
    except OSError as e:
        return f"no answer: {e}"
    finally:
        conn.close()
    return args.checker.problem(call, status, answer)


def wrk_script(call, path):
    """A wrk Lua script POSTing the corpus call, whose done() prints one JSON line."""
    headers = "".join(f"wrk.headers[{json.dumps(k)}] = {json.dumps(v)}\n"
                      for k, v in call.headers.items())
    lua = f"""wrk.method = "POST"
local f = assert(io.open({json.dumps(cc.corpus_path(call.family, call.name, "call"))}, "rb"))
wrk.body = f:read("*a")
f:close()
{headers}done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('SERVER_LOAD {{"requests":%d,"duration_us":%d,"p50_us":%d,' ..
    '"p99_us":%d,"errors":{{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}}}}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect, e.read, e.write, e.status, e.timeout))
end
"""
    with open(path, "w", encoding="utf-8") as f:
        f.write(lua)


def sent_bytes(port):
    """{client address: bytes the server has sent on that connection} for every established
    server-side connection on the port (`ss -i`), accepted or still in the accept queue."""
    out = subprocess.run(["ss", "-Htni", "state", "established", f"( sport = :{port} )"],
                         stdout=subprocess.PIPE, text=True, check=True).stdout
    sent, peer = {}, None
    for line in out.splitlines():
        if line and not line[0].isspace():
            peer = line.split()[-1]
            sent[peer] = 0
        elif peer is not None:
            m = re.search(r"\bbytes_sent:(\d+)", line)
            sent[peer] = int(m.group(1)) if m else 0
    return sent


def accept_queue(port):
    """Connections waiting in the listen socket's accept queue (its Recv-Q)."""
    out = subprocess.run(["ss", "-Hltn", f"( sport = :{port} )"], stdout=subprocess.PIPE,
                         text=True, check=True).stdout
    return sum(int(line.split()[1]) for line in out.splitlines() if line.strip())


def served_during(samples):
    """(served, open): connections open at two samples or more, and those whose server sent
    bytes between their first and last sample. An accepted connection that no thread serves is
    open but not served (Abyss accepts beyond maxConn and leaves it so); so is one in the
    accept queue."""
    first, last, seen = {}, {}, {}
    for sample in samples:
        for peer, sent in sample.items():
            first.setdefault(peer, sent)
            last[peer] = sent
            seen[peer] = seen.get(peer, 0) + 1
    opened = [p for p, n in seen.items() if n >= 2]
    return sum(last[p] > first[p] for p in opened), len(opened)


def sample_while_running(wrk, port, duration):
    """Connection samples (sent bytes per connection, accept-queue length) taken while wrk runs,
    a few per run: however late wrk starts on a busy machine, its connections are seen at least
    twice (a sample taken as wrk ends is dropped: its connections may be closing)."""
    interval = max(0.1, duration / 8)
    deadline = time.monotonic() + duration + 60
    samples, waiting = [], []
    while wrk.poll() is None and time.monotonic() < deadline:
        sent, queued = sent_bytes(port), accept_queue(port)
        if wrk.poll() is not None:
            break
        if sent or queued:
            samples.append(sent)
            waiting.append(queued)
        time.sleep(interval)
    return samples, waiting


def load_run(args, server, call, connections, script):
    """One wrk run against a started server: its numbers, the CPU and connections measured."""
    argv = ["taskset", "-c", str(args.load_cpu), args.wrk, "-t1", f"-c{connections}",
            f"-d{args.duration}s", "--timeout", f"{args.duration + 5}s", "-s", script,
            server.url_ + call.path]
    cpu0 = server.cpu_seconds()
    wrk = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    samples, waiting = sample_while_running(wrk, server.port_, args.duration)
    served, opened = served_during(samples)
    out, err = wrk.communicate(timeout=args.duration + 60)
    cpu = server.cpu_seconds() - cpu0
    line = next((ln for ln in out.splitlines() if ln.startswith("SERVER_LOAD ")), None)
    if wrk.returncode != 0 or line is None:
        return {"error": f"wrk exited {wrk.returncode}: {(err or out).strip()[:300]}"}
    if len(samples) < 2:
        return {"error": "wrk ended before its connections were sampled twice (a slow machine: "
                         "try a longer --duration)"}
    r = json.loads(line.split(" ", 1)[1])
    n = r["requests"]
    return {"requests": n, "rps": n / (r["duration_us"] / 1e6), "p50_us": r["p50_us"],
            "p99_us": r["p99_us"], "cpu_s": cpu, "cpu_us_per_call": cpu * 1e6 / n if n else None,
            "connections_served": served, "connections_open": opened,
            "accept_queue_max": max(waiting),
            "errors": r["errors"]}


def plan(args, available):
    """The cells [(server id, call, connections)] of this run, in order."""
    cells = []
    for sid in args.servers:
        if sid not in available:
            print(f"{TOOL}: server {sid} is not in this build; left out", file=sys.stderr)
            continue
        for call in available[sid].calls:
            if call in args.calls:
                cells += [(sid, call, c) for c in args.connections]
    if not cells:
        raise gbench.ResultError("nothing to measure (see --servers, --calls)")
    return cells


def measure(args, available, cells):
    """{cell: {"check": None or error, "runs": [...]}}: every cell R times; within a repetition
    the cells run in a shuffled order (seeded by the repetition), each server started once."""
    results = {c: {"check": None, "runs": []} for c in cells}
    started = {}
    try:
        for sid in sorted({c[0] for c in cells}):
            extra = shlex.split(args.server_args.get(sid, ""))
            runner = available[sid].runner or RunningServer
            started[sid] = runner(available[sid], args.server_cpu, extra)
            for call in {c[1] for c in cells if c[0] == sid}:
                bad = check_answer(args, started[sid], corpus_call(call))
                for c in cells:
                    if c[:2] == (sid, call):
                        results[c]["check"] = bad
        with tempfile.TemporaryDirectory(prefix="sb-load-") as tmp:
            scripts = {}
            for name in {c[1] for c in cells}:
                scripts[name] = os.path.join(tmp, f"{name}.lua")
                wrk_script(corpus_call(name), scripts[name])
            for rep in range(args.reps):
                order = list(cells)
                random.Random(rep).shuffle(order)
                for sid, call, conns in order:
                    if results[(sid, call, conns)]["check"] is None:
                        run = load_run(args, started[sid], corpus_call(call), conns, scripts[call])
                        results[(sid, call, conns)]["runs"].append(run)
                        progress(rep, sid, call, conns, run)
    finally:
        for s in started.values():
            s.stop()
    return results, {sid: s.parser_ for sid, s in started.items()}


def progress(rep, sid, call, conns, run):
    what = run.get("error") or (f"{run['rps']:.0f} req/s, {run['cpu_us_per_call'] or 0:.1f} µs "
                                f"CPU/call, {run['connections_served']} served")
    print(f"  rep {rep + 1} {sid} {call} c={conns}: {what}", file=sys.stderr, flush=True)


METRICS = ("rps", "p50_us", "p99_us", "cpu_us_per_call")


def cell_record(available, parsers, cell, result):
    """The JSON record of one cell: medians, min-max, connections served and its problems."""
    sid, call, conns = cell
    runs = result["runs"]
    rec = {"server": available[sid].name, "server_id": sid, "parser": parsers.get(sid),
           "call": call, "family": CALL_FAMILIES[call], "connections": conns, "runs": runs,
           "problems": []}
    bad = result["check"] or next((r["error"] for r in runs if "error" in r), None)
    if bad is None and any(not r["requests"] for r in runs):
        bad = "no request completed"
    if bad is not None:
        rec["problems"].append(bad)
        return rec
    for m in METRICS:
        vals = [r[m] for r in runs]
        rec[m] = statistics.median(vals)
        rec.setdefault("range", {})[m] = [min(vals), max(vals)]
    rec["requests"] = sum(r["requests"] for r in runs)
    rec["connections_served"] = min(r["connections_served"] for r in runs)
    rec["errors"] = sum(sum(r["errors"].values()) for r in runs)
    if available[sid].closes:  # each connection one call: none is open at two samples
        rec["closes"] = available[sid].closes
    elif rec["connections_served"] < conns:
        worst = min(runs, key=lambda r: r["connections_served"])
        rec["problems"].append(f"served {worst['connections_served']} of {conns} connections "
                               f"({worst['connections_open']} open, up to "
                               f"{worst['accept_queue_max']} in the accept queue)")
    if rec["errors"]:
        rec["problems"].append(f"{rec['errors']} wrk errors (socket errors or non-2xx answers)")
    return rec


def floor_ratios(cells):
    """Adds cpu_x_nginx to every cell with numbers: its CPU per call over nginx's (the HTTP
    floor, one fixed answer whatever the call) at the same connection count, where measured."""
    floor = {c["connections"]: c["cpu_us_per_call"] for c in cells
             if c["server"] == "nginx" and c.get("cpu_us_per_call")}
    for c in cells:
        if c.get("cpu_us_per_call") and c["connections"] in floor:
            c["cpu_x_nginx"] = c["cpu_us_per_call"] / floor[c["connections"]]


def target_records(cells, targets):
    """Our server's CPU per call over the peer's, per target, adapter and connection count
    (only between cells without problems)."""
    out = []
    for t in targets:
        for ours in cells:
            if ours["server"] != "soapbench" or ours["call"] != t.call or ours["problems"]:
                continue
            peer = next((c for c in cells if c["server"] == t.peer and c["call"] == t.call and
                         c["connections"] == ours["connections"] and not c["problems"]), None)
            if peer is None:
                continue
            ratio = ours["cpu_us_per_call"] / peer["cpu_us_per_call"]
            out.append({"call": t.call, "parser": ours["parser"], "peer": t.peer,
                        "connections": ours["connections"], "ratio": ratio, "target": t.ratio,
                        "verdict": "PASS" if ratio <= t.ratio else "SHORT"})
    return out


def wrk_version(wrk):
    proc = subprocess.run([wrk, "-v"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    m = re.search(r"wrk (\S+)", proc.stdout)
    return m.group(1) if m else "?"


def run_context(args):
    return {"machine_id": store.this_machine(paths.RESULTS_DIR, args.build_dir, args.machine),
            "cpu_model": next((ln.split(":", 1)[1].strip() for ln in open("/proc/cpuinfo")
                               if ln.startswith("model name")), "?"),
            "cpus": os.cpu_count(), "wrk": wrk_version(args.wrk), "duration_s": args.duration,
            "reps": args.reps, "server_cpu": args.server_cpu, "load_cpu": args.load_cpu,
            "server_args": args.server_args, "date": time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                                                  time.gmtime()),
            "git_sha": store.source_sha(),
            "command": " ".join([TOOL, *args.argv])}


def fmt_range(rec, m, scale="{:.0f}"):
    if m not in rec:
        return "-"
    lo, hi = rec["range"][m]
    return f"{scale.format(rec[m])} ({scale.format(lo)}–{scale.format(hi)})"


def print_table(doc):
    print(f"{'server':<10} {'parser':<22} {'call':<8} {'conns':>5} {'req/s (min–max)':>22} "
          f"{'p50 µs':>7} {'p99 µs':>7} {'CPU µs/call (min–max)':>24} {'× nginx':>7} "
          f"{'served':>6}")
    for c in doc["cells"]:
        served = c.get("connections_served", "-")
        floor = f"{c['cpu_x_nginx']:.2f}×" if "cpu_x_nginx" in c else "-"
        print(f"{c['server']:<10} {c['parser'] or '-':<22} {c['call']:<8} {c['connections']:>5} "
              f"{fmt_range(c, 'rps'):>22} {fmt_range(c, 'p50_us').split()[0]:>7} "
              f"{fmt_range(c, 'p99_us').split()[0]:>7} "
              f"{fmt_range(c, 'cpu_us_per_call', '{:.1f}'):>24} {floor:>7} {served:>6}"
              + ("".join(f"\n    !! {p}" for p in c["problems"])))
    for t in doc["targets"]:
        print(f"target {t['call']}: soapbench ({t['parser']}) / {t['peer']} CPU per call at "
              f"{t['connections']} connection(s): {t['ratio']:.3f}× (at most {t['target']}×) "
              f"{t['verdict']}")


def parse_args(argv):
    ap = argparse.ArgumentParser(prog=TOOL, description=__doc__.split("\n", 2)[2], epilog=EPILOG,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    csv = lambda s: [x for x in s.split(",") if x]  # noqa: E731
    ap.add_argument("--build-dir", default=paths.BUILD_DIR, help="the build tree (default build/)")
    ap.add_argument("--servers", type=csv,
                    help="comma-separated server ids (default: every one: ours with its fastest "
                         "and its default adapter, the peers `soapbench list --peers` declares for "
                         "load without a JIT, nginx)")
    ap.add_argument("--calls", type=csv, default=list(CALL_FAMILIES),
                    help=f"comma-separated calls (default: {','.join(CALL_FAMILIES)})")
    ap.add_argument("--connections", type=lambda s: [int(x) for x in csv(s)], default=[1, 32],
                    help="comma-separated connection counts (default 1,32)")
    ap.add_argument("--duration", type=int, default=3, help="seconds per run (wrk: whole seconds)")
    ap.add_argument("--reps", type=int, default=3, help="runs per cell (default 3)")
    ap.add_argument("--server-cpu", type=int, default=0, help="CPU the servers run on")
    ap.add_argument("--load-cpu", type=int, default=min(1, os.cpu_count() - 1),
                    help="CPU wrk runs on (default 1)")
    ap.add_argument("--server-args", action="append", default=[], metavar="ID=ARGS",
                    help="extra arguments for one server, e.g. 'soapbench-default=--threads 2'")
    ap.add_argument("--json", metavar="FILE", help="write here (default "
                    "<build-dir>/results/server_load.json)")
    ap.add_argument("--machine", metavar="ID", help="machine id (default: this machine)")
    ap.add_argument("--wrk", default="wrk", help="the wrk program (Debian package wrk)")
    ap.add_argument("--nginx", default=shutil.which("nginx") or "/usr/sbin/nginx",
                    help="the nginx program of the HTTP floor (Debian package nginx; default: "
                         "nginx on PATH, else /usr/sbin/nginx)")
    args = ap.parse_args(argv)
    args.argv = argv
    args.server_args = dict(a.split("=", 1) for a in args.server_args)
    args.soapbench = os.path.join(args.build_dir, "soapbench")
    args.peers = peer_list(args.soapbench)
    args.servers = args.servers or ["soapbench-fastest", "soapbench-default",
                                    *(p["name"] for p in load_peers(args)), "nginx"]
    args.json = args.json or os.path.join(args.build_dir, "results", "server_load.json")
    return args


def peer_list(soapbench):
    """The build's peers (`soapbench list --peers --json`); none without a soapbench (a run
    then has our server's rows and nginx's alone)."""
    if not os.access(soapbench, os.X_OK):
        return []
    return peers.built(soapbench)


def main(argv=None):
    args = parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        available = servers(args)
        cells = plan(args, available)
        # Answers are decoded with our default XML adapter (what `soapbench serve` names).
        probe = RunningServer(Server("probe", "soapbench", None, [], [args.soapbench, "serve"]),
                              args.server_cpu, [])
        probe.stop()
        args.checker = cc.AnswerCheck(args.soapbench, probe.parser_)
        results, parsers = measure(args, available, cells)
        recs = [cell_record(available, parsers, c, results[c]) for c in cells]
        floor_ratios(recs)
        doc = {"tool": TOOL, "machine_id": None, "context": run_context(args), "cells": recs,
               "targets": target_records(recs, targets(args))}
        doc["machine_id"] = doc["context"]["machine_id"]
    except (gbench.ResultError, OSError, subprocess.SubprocessError) as e:
        print(f"{TOOL}: {e}", file=sys.stderr)
        return 1
    os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
    with open(args.json, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
    print_table(doc)
    print(f"{TOOL}: wrote {paths.rel(args.json)}")
    return 1 if any(c["problems"] for c in recs) else 0


if __name__ == "__main__":
    sys.exit(main())
