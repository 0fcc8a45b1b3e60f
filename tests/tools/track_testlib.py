"""What the tools/track tests share: paths, running the tool, result files made from real ones,
a throw-away PostgreSQL cluster and a headless Chromium."""
import copy
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time

from browser import chromium  # noqa: F401  (the tests' headless Chromium, shared)

HERE = os.path.dirname(os.path.abspath(__file__))
from tools_common import PY, REPO, RUN1, TOOLS, dump, load  # noqa: E402,F401  (the tools' tests')

RESULTS = os.path.join(REPO, "results")
DATA = os.path.join(REPO, "tests", "data")
TRACK_DATA = os.path.join(DATA, "track")
ICOUNT = os.path.join(RESULTS, "icount", "18c92917448a", "20261202-175341_6790742da1f5.json")


def track(*args, db=None, env=None, check=None, timeout=300):
    """Runs tools/track; returns the CompletedProcess (check: the exit status wanted)."""
    cmd = [PY, os.path.join(TOOLS, "track")] + (["--db", db] if db else []) + list(args)
    full_env = dict(os.environ, **(env or {}))
    full_env.pop("GITHUB_ACTIONS", None) if not (env and "GITHUB_ACTIONS" in env) else None
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=timeout, cwd=REPO, env=full_env)
    if check is not None and proc.returncode != check:
        raise AssertionError(f"{' '.join(cmd)} exited {proc.returncode}, wanted {check}\n"
                             f"stdout:\n{proc.stdout}\nstderr:\n{proc.stderr}")
    return proc


def text(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def icount_variant(path, out, commit, date, scale=None, build=None, key=None):
    """A copy of a real tools/icount file as another commit measured it: scale(name) gives each
    benchmark's factor, build updates the build facts, key the build key."""
    doc = copy.deepcopy(load(path))
    doc["context"]["git_sha"] = commit
    doc["context"]["date"] = date
    if scale:
        doc["instructions"] = {k: v * scale(k) for k, v in doc["instructions"].items()}
    if build:
        doc["icount"]["build"] = dict(doc["icount"]["build"], **build)
    if key:
        doc["icount"]["build_key"] = key
    return dump(doc, out)


def gb_variant(path, out, commit, date, scale=None, machine=None, host=None):
    """A copy of a real Google Benchmark file as another run measured it (times scaled by
    scale(name, repetition index) if given)."""
    doc = copy.deepcopy(load(path))
    ctx = doc["context"]
    ctx["git_sha"], ctx["date"] = commit, date
    if machine:  # another machine: its own id and hardware (the tracker's machine)
        ctx["machine_id"] = machine
        ctx["cpu_model"] = f"{ctx.get('cpu_model')} ({machine})"
    if host:
        ctx["host_name"] = host
    if scale:
        for e in doc["benchmarks"]:
            f = scale(e.get("run_name", e["name"]), e.get("repetition_index", 0))
            for k in ("real_time", "cpu_time"):
                e[k] *= f
    return dump(doc, out)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresCluster:
    """A throw-away PostgreSQL cluster: initdb in a temp folder, a free port on 127.0.0.1,
    started and stopped by PID (as the `postgres` user when running as root: PostgreSQL refuses
    to run as root)."""
    BIN = "/usr/lib/postgresql/15/bin"

    def __init__(self):
        self.tmp = tempfile.mkdtemp(prefix="sb-track-pg-")  # data, socket and log
        self.proc = None                                       # the postmaster
        self.port = None
        self.user = None                                       # run as (None: ourselves)
        if os.geteuid() == 0:
            self.user = "postgres"
            pw = pwd.getpwnam("postgres")
            os.chown(self.tmp, pw.pw_uid, pw.pw_gid)

    @property
    def url(self):
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def start(self):
        data = os.path.join(self.tmp, "data")
        init = subprocess.run([os.path.join(self.BIN, "initdb"), "-D", data, "-A", "trust",
                               "-U", "postgres", "-E", "UTF8", "--no-sync"], user=self.user,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              timeout=120)
        if init.returncode != 0:
            raise RuntimeError(f"initdb failed:\n{init.stdout}")
        self.port = free_port()
        with open(os.path.join(self.tmp, "postgres.log"), "w") as log:
            self.proc = subprocess.Popen(
                [os.path.join(self.BIN, "postgres"), "-D", data, "-p", str(self.port),
                 "-c", "listen_addresses=127.0.0.1", "-c", f"unix_socket_directories={self.tmp}",
                 "-c", "fsync=off"], user=self.user, stdout=log, stderr=subprocess.STDOUT)
        import psycopg2
        deadline = time.monotonic() + 60
        while True:
            try:
                psycopg2.connect(self.url, connect_timeout=2).close()
                return self
            except psycopg2.OperationalError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("postgres did not start: " + self.log())
                time.sleep(0.2)

    def log(self):
        with open(os.path.join(self.tmp, "postgres.log"), encoding="utf-8") as f:
            return f.read()[-3000:]

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()  # SIGTERM: smart shutdown of the postmaster we started
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        shutil.rmtree(self.tmp, ignore_errors=True)


AA = os.path.join(TRACK_DATA, "aa_runs.json")


def aa_file(index, out, scale=None, date=None, commit="aaaa00000000"):
    """Google Benchmark JSON of A/A run `index` (tests/data/track/aa_runs.json): every
    repetition as written; scale(name) multiplies the times of a benchmark."""
    doc = load(AA)
    run = doc["runs"][index]
    ctx = dict(doc["context"], date=date or run["date"].replace("Z", "+00:00"), git_sha=commit)
    entries = []
    for name, real, cpu in zip(doc["benchmarks"], run["real_time"], run["cpu_time"]):
        f = scale(name) if scale else 1.0
        for i, (r, c) in enumerate(zip(real, cpu)):
            entries.append({"name": name, "run_name": name, "run_type": "iteration",
                            "repetitions": len(real), "repetition_index": i, "threads": 1,
                            "iterations": 1000, "real_time": r * f, "cpu_time": c * f,
                            "time_unit": "ns"})
    return dump({"context": ctx, "benchmarks": entries}, out)
