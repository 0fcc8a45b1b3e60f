#!/usr/bin/python3
"""sbtools.report.answer (label unit): the web page's first screen picks per family the fastest
adapter with right answers, lists the faster ones that answered wrong and why, and the parser
shares per link, from the sections' data of the hand-made sample run."""
from tools_common import RANKING, ROUNDTRIP, Tmp, main
from sbtools.report import answer, links, right_answers
from sbtools.report.data import Data
from sbtools.report.run import Run


def sample_run(tmp):
    """A run of the hand-made decode results and round trips (tests/data/results/)."""
    return Run(Data([RANKING, ROUNDTRIP]), {}, [], tmp, True)


class AnswerTest(Tmp):
    def test_pick_shares_and_what_a_wrong_answer_costs_a_row(self):
        run = sample_run(self.tmp)
        computed = {"links": links.compute(run), "right_answers": right_answers.compute(run)}
        d = answer.compute(run, computed)
        self.assertEqual(len(d["rows"]), 3)  # the sample: xmlrpc, soap11-rpc-encoded, jsonrpc
        row = d["rows"][0]
        # Only the benchmark corpus judged these files, and every adapter passed it.
        self.assertEqual([t for t, _r in d["checks"]], ["benchmark corpus"])
        self.assertEqual(row["faster"], [])
        self.assertIn("Not in these results: hostile inputs", answer.html_block(d))
        # The fastest answers one corpus message wrong: the next one is picked, it is listed.
        leader = row["pick"]
        check = computed["right_answers"]["verdicts"].checks[0]
        check.fail(leader, row["family"], "xmlrpc/complex.call (decode)",
                   "canonical JSON differs from the manifest")
        d = answer.compute(run, computed)
        row = d["rows"][0]
        self.assertNotEqual(row["pick"], leader)
        self.assertEqual(row["faster"][0]["adapter"], leader)
        self.assertLess(row["faster"][0]["ratio"], 1.0)
        self.assertEqual(row["faster"][0]["why"], "1 wrong in the benchmark corpus")
        html_text = answer.html_block(d)
        self.assertIn(f"<code>{leader}</code> <span class=\"why\">(", html_text)
        # Families by name, their codes beside; every link column says what it holds.
        self.assertIn("XML-RPC <small>xmlrpc</small>", html_text)
        self.assertIn('title="projected onto the LAN link model: 1 Gbit/s, 0.5 ms RTT">LAN'
                      "<small>1 Gbit/s, 0.5 ms</small>", html_text)


if __name__ == "__main__":
    main()
