#!/usr/bin/python3
"""tools/bench_rounds (sbtools.bench_rounds, label unit): a real parse_bench in rounds, cut short
(--max-rounds 4: the pilot and one round, ~10 s): every headline row's rounds as Google
Benchmark repetitions with their aggregates, the decisions beside them, a results kind of its
own that the report reads beside parse_bench's; a clear error on bad input."""
import os
import re

from tools_common import REPO, Tmp, load, main, tool
from sbtools import gbench
from sbtools.bench_rounds import HEADLINE, families_of, repetitions
from sbtools.report.data import Data, headline_decode
from sbtools.rounds import ROUNDS_KEY, RoundsError, TOP

PARSE_BENCH = os.environ["SB_PARSE_BENCH"]


class BenchRoundsTest(Tmp):
    def test_rounds_of_the_real_benchmarks(self):
        out = self.path("parse_bench_rounds.json")
        proc = tool("bench_rounds", "--parse-bench", PARSE_BENCH, "--out", out,
                    "--max-rounds", "4", "--min-time", "0.005", check=0)
        self.assertIn("pilot of 3 rounds", proc.stderr)
        doc = load(out)
        self.assertEqual(gbench.bench_kind(doc, out), "parse_bench_rounds")
        results = gbench.results_of(doc)
        families = families_of(gbench.series_name(n) for n in results)
        self.assertEqual(len(families), 6)
        dec = doc[ROUNDS_KEY]
        self.assertEqual((dec["pilot_rounds"], dec["rounds"], dec["stopped"]),
                         (3, 4, "max-rounds"))
        # Each adapter against the pilot's first two, and the third against the fourth.
        n = sum(2 * len(m) - 3 + (len(m) >= TOP) for m in families.values())
        self.assertEqual(len(dec["comparisons"]), n)
        for name, r in results.items():
            self.assertIn(r.reps, (3, 4), name)        # the pilot, and the round if open
            self.assertEqual(set(r.agg), {"mean", "median", "stddev"})
        # The report reads the file alone: each family's headline ranked with the decisions.
        self.assertEqual(set(headline_decode(Data([out]))), set(families))

    def test_bad_input_is_refused_clearly(self):
        proc = tool("bench_rounds", "--parse-bench", PARSE_BENCH, "--out", self.path("x.json"),
                    "--min-rounds", "2", check=2)
        self.assertIn("--min-rounds must be at least 3", proc.stderr)
        proc = tool("bench_rounds", "--parse-bench", self.path("none"), "--out",
                    self.path("x.json"), check=1)
        self.assertIn("bench_rounds: ", proc.stderr)
        self.assertFalse(os.path.exists(self.path("x.json")))
        with self.assertRaises(RoundsError):
            families_of(["decode/a/xmlrpc/add.call"])

    def test_bench_parse_runs_the_default_set_without_these_rows(self):
        with open(os.path.join(REPO, "bench", "CMakeLists.txt"), encoding="utf-8") as f:
            text = f.read()
        found = re.search(r'"--benchmark_filter=-([^"]+)"', text.split("NAME bench.parse\n")[1])
        self.assertEqual(found.group(1).replace("\\\\", "\\"), HEADLINE)
        # As parse_bench names them in the default set (/repeats:5), and without a suffix.
        rx = re.compile(HEADLINE)
        self.assertTrue(rx.search("decode/a/xmlrpc/complex.call/repeats:5"))
        self.assertTrue(rx.search("decode/a/xmlrpc/complex.call"))
        self.assertFalse(rx.search("decode/a/xmlrpc/complex.call.gz"))

    def test_a_failed_row_is_one_error_entry(self):
        ok = {"name": "n", "run_name": "n", "real_time": 2.0, "cpu_time": 2.0}
        bad = dict(ok, error_occurred=True, error_message="wrong answer")
        self.assertEqual(repetitions([ok, bad]), [dict(bad, repetitions=1, repetition_index=0)])
        reps = repetitions([ok, dict(ok, real_time=4.0)])
        self.assertEqual([e.get("aggregate_name") for e in reps],
                         [None, None, "mean", "median", "stddev"])
        self.assertEqual(reps[3]["real_time"], 3.0)


if __name__ == "__main__":
    main()
