#!/usr/bin/python3
"""Load from elsewhere (docs/load.md "Distributed load (Locust)", "Load from another
machine"); label unit.

LocustTest: tools/soapbench_locustfile.py, headless, a master and two local workers for 4 s
against `soapbench serve` on 127.0.0.1: requests and no failure; and an answer that does not
match the corpus is counted as a failure. NamespaceTest: server and load on two "hosts", two
network namespaces joined by a veth pair (skipped where namespaces cannot be made): wrk for 2 s
from one to `soapbench serve` in the other, every answer HTTP 200. Every process is started and
stopped by its PID, every wait is bounded. SB_BUILD_DIR: the build tree (default build/).

Usage: tests/tools/test_distributed_load.py [TestClass ...]
"""
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
BUILD = os.environ.get("SB_BUILD_DIR", os.path.join(REPO, "build"))
SOAPBENCH = os.path.join(BUILD, "soapbench")
LOCUSTFILE = os.path.join(REPO, "tools", "soapbench_locustfile.py")
LOCUST = os.environ.get("SB_LOCUST") or shutil.which("locust")
WRK = os.environ.get("SB_WRK") or shutil.which("wrk")
START_S = 30  # how long a server or Locust may take to start on a busy machine
sys.dont_write_bytecode = True

# tools/server_load's module: its corpus calls and wrk script, and the answer check it shares.
from sbtools.load import server_load  # noqa: E402
cc = server_load.cc


def free_port():
    """A port on 127.0.0.1 that was free a moment ago (a small race, tolerable in a test)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


stop = server_load.stop_child  # SIGTERM by PID, SIGKILL after 5 s


def start_serve(prefix, address):
    """(process, port) of `soapbench serve --address ADDRESS --port 0`, run under prefix."""
    proc = subprocess.Popen([*prefix, SOAPBENCH, "serve", "--address", address, "--port", "0",
                             "--threads", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    line = proc.stdout.readline()  # the server's first line, or "" when it ends
    m = re.search(r"serving http://[^ ]+:(\d+)", line)
    if not m:
        stop(proc)
        raise RuntimeError(f"soapbench serve did not start: {line!r} {proc.stderr.read()!r}")
    return proc, int(m.group(1))


@unittest.skipUnless(LOCUST, "locust is not installed (Debian python3-locust; tools/setup.sh)")
class LocustTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="sb-locust-test-")
        self.procs = []  # every process started, stopped at the end even on failure
        self.server, port = start_serve([], "127.0.0.1")
        self.procs.append(self.server)
        self.host = f"http://127.0.0.1:{port}"

    def tearDown(self):
        for proc in reversed(self.procs):
            stop(proc)
            for f in (proc.stdout, proc.stderr, getattr(proc, "log_", None)):
                if f is not None:
                    f.close()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def locust(self, *args, **env):
        """Starts one Locust process on the locustfile (its output in the temporary folder)."""
        log = open(os.path.join(self.tmp, f"locust{len(self.procs)}.log"), "w+")
        proc = subprocess.Popen([LOCUST, "-f", LOCUSTFILE, *args], stdout=log,
                                stderr=subprocess.STDOUT, text=True, cwd=self.tmp,
                                env={**os.environ, "SB_SOAPBENCH": SOAPBENCH, **env})
        proc.log_ = log
        self.procs.append(proc)
        return proc

    def finish(self, proc, timeout):
        """(exit code, the summary SB_SUMMARY wrote) of a headless run, its log on failure."""
        try:
            code = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            code = None
        proc.log_.seek(0)
        log = proc.log_.read()
        path = os.path.join(self.tmp, "summary.json")
        self.assertTrue(os.path.exists(path), f"no summary (exit {code}):\n{log[-3000:]}")
        with open(path, encoding="utf-8") as f:
            return code, json.load(f), log

    def test_a_master_and_two_workers_get_only_right_answers(self):
        port = free_port()
        summary = os.path.join(self.tmp, "summary.json")
        master = self.locust("--headless", "--master", "--expect-workers", "2",
                             "--expect-workers-max-wait", str(START_S), "-u", "4", "-r", "4",
                             "-t", "4s", "--host", self.host, "--master-bind-host", "127.0.0.1",
                             "--master-bind-port", str(port), "--only-summary",
                             SB_SUMMARY=summary, SB_CALL="getRate")
        for _ in range(2):
            self.locust("--worker", "--master-host", "127.0.0.1", "--master-port", str(port),
                        SB_CALL="getRate")
        code, doc, log = self.finish(master, START_S + 60)
        self.assertGreater(doc["requests"], 0, log[-3000:])
        self.assertEqual((doc["failures"], doc["errors"]), (0, []), log[-3000:])
        self.assertEqual(code, 0, log[-3000:])
        self.assertIn("2 workers connected", log)  # the load came from both workers

    def test_an_answer_unlike_the_corpus_is_a_failure(self):
        # A corpus whose getRate response is 1.5 where the server answers 1.25.
        corpus = os.path.join(self.tmp, "corpus")
        fam = "soap11-doc-literal"
        os.makedirs(os.path.join(corpus, fam))
        for direction in ("call", "response"):
            shutil.copy(cc.corpus_path(fam, "getRate", direction), os.path.join(corpus, fam))
        with open(os.path.join(corpus, "manifest.json"), "w", encoding="utf-8") as f:
            json.dump({"entries": [{"path": f"{fam}/getRate.response.xml", "canonical":
                                    '{"kind":"response","method":"getRate","result":1.5}'}]}, f)
        summary = os.path.join(self.tmp, "summary.json")
        proc = self.locust("--headless", "-u", "1", "-r", "1", "-t", "2s", "--host", self.host,
                           "--only-summary", SB_SUMMARY=summary, SB_CORPUS=corpus,
                           SB_FAMILY=fam, SB_CALL="getRate")
        code, doc, log = self.finish(proc, START_S + 30)
        self.assertGreater(doc["requests"], 0, log[-3000:])
        self.assertEqual(doc["failures"], doc["requests"])
        (err,) = doc["errors"]
        self.assertEqual(err["name"], f"{fam}/getRate")
        self.assertIn('wrong answer: {"kind":"response","method":"getRate","result":1.25} '
                      '(expected {"kind":"response","method":"getRate","result":1.5})',
                      err["error"])
        self.assertEqual(code, 1)  # Locust's exit code when a request failed


# The two "hosts": a private /30 that only these namespaces see.
SERVER_IP, CLIENT_IP, PREFIX = "10.251.14.1", "10.251.14.2", 30


def ip(*args, check=True):
    """Runs `ip ARGS`; the finished process."""
    proc = subprocess.run(["ip", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=30)
    if check and proc.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {proc.stderr.strip()}")
    return proc


@unittest.skipUnless(shutil.which("ip") and WRK, "needs ip (iproute2) and wrk")
class NamespaceTest(unittest.TestCase):
    def setUp(self):
        pid = os.getpid()
        self.srv, self.cli = f"sb-srv-{pid}", f"sb-cli-{pid}"  # the namespaces ("hosts")
        self.made = []  # namespaces made, deleted at the end
        self.tmp = tempfile.mkdtemp(prefix="sb-netns-test-")
        made = ip("netns", "add", self.srv, check=False)
        if made.returncode != 0:
            shutil.rmtree(self.tmp)
            self.skipTest(f"network namespaces cannot be made here: {made.stderr.strip()}")
        self.made.append(self.srv)
        try:
            self.join_hosts(pid)
        except Exception:
            self.tearDown()
            raise

    def join_hosts(self, pid):
        """The second namespace and the veth pair between them, addresses set, links up."""
        ip("netns", "add", self.cli)
        self.made.append(self.cli)
        ends = {self.srv: (f"sbvs{pid}", SERVER_IP), self.cli: (f"sbvc{pid}", CLIENT_IP)}
        ip("link", "add", ends[self.srv][0], "type", "veth", "peer", "name", ends[self.cli][0])
        for ns, (dev, addr) in ends.items():
            ip("link", "set", dev, "netns", ns)
            ip("-n", ns, "addr", "add", f"{addr}/{PREFIX}", "dev", dev)
            ip("-n", ns, "link", "set", dev, "up")
            ip("-n", ns, "link", "set", "lo", "up")
        self.srv_dev = ends[self.srv][0]  # the server's end of the pair

    def tearDown(self):
        for ns in self.made:  # deleting a namespace deletes its end of the veth pair
            ip("netns", "del", ns, check=False)
        self.made = []
        shutil.rmtree(self.tmp, ignore_errors=True)

    def in_cli(self, *argv, timeout):
        return subprocess.run(["ip", "netns", "exec", self.cli, *argv], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=timeout)

    def received_bytes(self):
        link = json.loads(ip("-n", self.srv, "-s", "-j", "link", "show", self.srv_dev).stdout)
        return link[0]["stats64"]["rx"]["bytes"]

    def test_load_from_the_other_host(self):
        server, port = start_serve(["ip", "netns", "exec", self.srv], SERVER_IP)
        try:
            call = server_load.corpus_call("getRate")
            url = f"http://{SERVER_IP}:{port}{call.path}"
            # One answer checked (HTTP 200 and the corpus value), as the client host sees it.
            curl = self.in_cli("curl", "-s", "-o", "-", "-w", "\n%{http_code}", "--data-binary",
                               "@" + cc.corpus_path(call.family, call.name, "call"),
                               *[a for k, v in call.headers.items() for a in ("-H", f"{k}: {v}")],
                               url, timeout=30)
            body, _, status = curl.stdout.rpartition(b"\n")
            problem = cc.AnswerCheck(SOAPBENCH).problem(call, int(status or 0), body)
            self.assertIsNone(problem, curl.stderr)
            before = self.received_bytes()
            script = os.path.join(self.tmp, "getRate.lua")
            server_load.wrk_script(call, script)
            wrk = self.in_cli(WRK, "-t1", "-c2", "-d2s", "--timeout", "5s", "-s", script, url,
                              timeout=60)
            out = wrk.stdout.decode()
            line = next((ln for ln in out.splitlines() if ln.startswith("SERVER_LOAD ")), None)
            self.assertEqual((wrk.returncode, bool(line)), (0, True), out + wrk.stderr.decode())
            r = json.loads(line.split(" ", 1)[1])
            self.assertGreater(r["requests"], 0, out)
            self.assertEqual(r["errors"], dict.fromkeys(r["errors"], 0), out)  # non-2xx: status
            self.assertGreater(self.received_bytes(), before)  # it came over the veth pair
        finally:
            stop(server)
            server.stdout.close()
            server.stderr.close()


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1] + sys.argv[1:], verbosity=2)
