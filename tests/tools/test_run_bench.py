#!/usr/bin/python3
"""tools/run_bench.sh, the main command, on the built release tree (label unit, RUN_SERIAL: it
runs benchmarks; about a minute): the answer first (the page written after bench.headline, saying
the other sets still run), a run stopped by Ctrl-C (exit 130, the page says so and holds what
was measured, nothing recorded into the history), a finished run (the page without a status
line, the run recorded), and its options. Cut short by its own options: --no-setup --no-build,
--only two sets, --budget 1 (the rounds' pilot only), --results-dir and SOAPBENCH_TRACK_DB in a
temporary folder, so the checkout's results/ and history are not touched (build/results/ is
emptied, as the main command does)."""
import glob
import os
import signal
import subprocess
import time

from tools_common import REPO, Tmp, main

SCRIPT = os.path.join(REPO, "tools", "run_bench.sh")


class RunBenchTest(Tmp):
    def start(self, *only):
        env = dict(os.environ, SOAPBENCH_TRACK_DB=self.path("track.db"))
        argv = [SCRIPT, "--no-setup", "--no-build", "--budget", "1", "--results-dir",
                self.path("results"), "--only", *only]
        # A new process group with SIGINT at its default: what a terminal's Ctrl-C reaches.
        return subprocess.Popen(argv, cwd=REPO, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, start_new_session=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))

    def wait_for(self, proc, text, seconds=300):
        """The output up to the line holding text (fails after seconds or at the end)."""
        seen, end = [], time.monotonic() + seconds
        for line in proc.stdout:
            seen.append(line)
            if text in line:
                return "".join(seen)
            self.assertLess(time.monotonic(), end, f"no {text!r} in time:\n{''.join(seen)}")
        self.fail(f"ended without {text!r}:\n{''.join(seen)}")

    def page(self):
        found = glob.glob(self.path("results", "*", "index.html"))
        self.assertEqual(len(found), 1, found)
        with open(found[0], encoding="utf-8") as f:
            html = f.read()
        with open(os.path.join(os.path.dirname(found[0]), "report.md"), encoding="utf-8") as f:
            return html, f.read()

    def test_the_first_screen_comes_first_and_ctrl_c_leaves_a_page(self):
        proc = self.start(r"^bench\.(headline|wild)$")
        try:
            self.wait_for(proc, "== first screen: ")
            html, md = self.page()
            self.assertIn("Still running: the other benchmark sets", html)
            self.assertIn("Still running: the other benchmark sets", md)
            self.assertIn("Rounds until decided", md)
            self.wait_for(proc, "== benchmarks 2/2: the other sets")
            time.sleep(3)                       # bench.wild is running
            os.killpg(proc.pid, signal.SIGINT)
            rest = proc.stdout.read()
            self.assertEqual(proc.wait(timeout=300), 130, rest)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            proc.stdout.close()
        html, md = self.page()
        self.assertIn("Stopped by Ctrl-C after the benchmarks ran for", md)
        self.assertIn("Stopped by Ctrl-C", html)
        self.assertNotIn("Still running", md)
        self.assertTrue(glob.glob(self.path("results", "*", "*.parse_bench_rounds.json")))
        self.assertFalse(os.path.exists(self.path("track.db")))   # not history

    def test_a_finished_run_writes_the_page_and_records_it(self):
        proc = self.start(r"^bench\.headline$")
        try:
            out = proc.stdout.read()
            self.assertEqual(proc.wait(timeout=300), 0, out)
        finally:
            proc.stdout.close()
        self.assertIn("== first screen: ", out)
        self.assertNotIn("== benchmarks 2/2", out.split("== first screen: ")[0])
        _html, md = self.page()
        self.assertNotIn("Still running", md)
        self.assertIn("## Rounds until decided", md)
        self.assertTrue(os.path.exists(self.path("track.db")))

    def test_options(self):
        proc = subprocess.run([SCRIPT, "--help"], capture_output=True, text=True, timeout=30)
        self.assertEqual(proc.returncode, 0)
        self.assertIn("--budget SECONDS", proc.stdout)
        for bad in (["--budget", "soon"], ["--only"], ["--bogus"]):
            proc = subprocess.run([SCRIPT, *bad], capture_output=True, text=True, timeout=30)
            self.assertEqual(proc.returncode, 2, bad)
            self.assertIn("tools/run_bench.sh --help", proc.stderr)


if __name__ == "__main__":
    main()
