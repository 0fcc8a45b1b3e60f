#!/usr/bin/python3
"""sbtools.report.rounds and the first screen's use of the rounds (label unit): the section says
per family what was decided with how many rounds; a ranking word follows the rounds' decision
where the rounds compared the pair (not the Mann-Whitney rule over the repetitions), and the
Mann-Whitney rule where they did not."""
from tools_common import Tmp, dump, headline_doc, main
from sbtools.report import answer, right_answers, rounds
from sbtools.report.data import Data, headline_decode
from sbtools.report.run import Run

# Five repetitions each, apart by far: Mann-Whitney alone calls every pair.
TIMES = {("a", "jsonrpc"): [100, 101, 102, 103, 104], ("b", "jsonrpc"): [200, 201, 202, 203, 204],
         ("c", "jsonrpc"): [300, 301, 302, 303, 304]}


class RoundsSectionTest(Tmp):
    def data(self, decisions):
        return Data([dump(headline_doc(TIMES, decisions), self.path("rounds.json"))])

    def test_a_ranking_word_follows_the_rounds_decision(self):
        data = self.data([("jsonrpc", "a", "b", "undecided", 0.9, 40),
                          ("jsonrpc", "a", "c", "different", 2.0, 23)])
        rk = headline_decode(data)["jsonrpc"][1]
        self.assertEqual(rk.tied, ["a", "b"])          # undecided by the rounds: not apart
        self.assertEqual(rk.apart["c"], (True, 1e-4))  # the rounds' p, not Mann-Whitney's
        self.assertFalse(rk.clear)

    def test_the_pick_among_right_answers_follows_the_decisions_too(self):
        data = self.data([("jsonrpc", "a", "b", "different", 1.0, 23),
                          ("jsonrpc", "b", "c", "undecided", 0.5, 40)])
        fl, rk = headline_decode(data)["jsonrpc"]
        verdicts = right_answers.compute(Run(data, {}, [], self.tmp, True))["verdicts"]
        verdicts.checks[0].fail("a", "jsonrpc", "jsonrpc/complex.call (decode)",
                                "canonical JSON differs from the manifest")
        row = answer.family_row("jsonrpc", fl, rk, verdicts)
        self.assertEqual(row["pick"], "b")
        self.assertFalse(row["clear"])                 # b against c: undecided by the rounds
        self.assertEqual(row["faster"][0]["adapter"], "a")

    def test_a_decision_the_other_way_or_same_is_not_a_ranking_word(self):
        data = self.data([("jsonrpc", "b", "a", "different", 0.5, 30),   # b faster: no
                          ("jsonrpc", "a", "c", "same", 0.01, 60)])
        rk = headline_decode(data)["jsonrpc"][1]
        self.assertEqual(rk.tied, ["a", "b", "c"])

    def test_a_pair_the_rounds_did_not_compare_keeps_the_mann_whitney_rule(self):
        data = self.data([("jsonrpc", "b", "c", "undecided", 0.5, 30)])
        rk = headline_decode(data)["jsonrpc"][1]
        self.assertTrue(rk.clear)                      # a vs b and a vs c: Mann-Whitney
        self.assertEqual(rk.apart["b"], headline_decode(Data([dump(
            headline_doc(TIMES), self.path("plain.json"))]))["jsonrpc"][1].apart["b"])

    def test_the_section_says_what_was_decided_with_how_many_rounds(self):
        data = self.data([("jsonrpc", "a", "b", "different", 1.0, 23),
                          ("jsonrpc", "a", "c", "same", 0.01, 61),
                          ("jsonrpc", "b", "c", "undecided", 0.5, 97)])
        d = rounds.compute(Run(data, {}, [], self.tmp, True))
        text = rounds.markdown(d, None)
        self.assertIn("1 different, 1 same, 1 undecided of 3", text)
        self.assertIn("| JSON-RPC 2.0 | `a`, `b` | 3 | 1 | 1 | 1 | 23–61 |", text)
        self.assertIn("`a` and `c` the same within the margin (61 rounds)", text)
        self.assertIn("`b` against `c`: undecided after 97 rounds", text)
        self.assertIn("every comparison was decided", text)
        self.assertEqual(rounds.verdict({"base": "decode/a/x/complex.call", "head":
                                         "decode/b/x/complex.call", "state": "different",
                                         "shift": -0.5, "rounds": 30}),
                         "`b` 2.00× faster than `a` (30 rounds)")

    def test_no_rounds_no_section(self):
        data = Data([dump(headline_doc(TIMES), self.path("plain.json"))])
        self.assertIsNone(rounds.compute(Run(data, {}, [], self.tmp, True)))


if __name__ == "__main__":
    main()
