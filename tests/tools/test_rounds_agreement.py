#!/usr/bin/python3
"""sbtools.rounds_agreement (label unit): every comparison the fixed design decides (the report's
Mann-Whitney rule over 5 repetitions) set beside the rounds' decision on it: the same way,
undecided, not compared, or contradicted; a contradiction fails the command."""
from tools_common import Tmp, dump, headline_doc, main, tool
from sbtools import rounds_agreement

# The fixed design: a ahead of b and of c (apart by far), d tied with a.
FIXED = {("a", "xmlrpc"): [100, 101, 102, 103, 104], ("b", "xmlrpc"): [200, 201, 202, 203, 204],
         ("c", "xmlrpc"): [300, 301, 302, 303, 304], ("d", "xmlrpc"): [99, 102, 103, 104, 105]}


class AgreementTest(Tmp):
    def rounds(self, decisions):
        return headline_doc({k: [1.0] for k in FIXED}, decisions)

    def test_the_fixed_designs_decisions(self):
        got = rounds_agreement.fixed_decisions(headline_doc(FIXED))
        self.assertEqual(got, {("xmlrpc", "a", "b"), ("xmlrpc", "a", "c")})

    def test_same_way_undecided_and_contradicted(self):
        fixed = headline_doc(FIXED)
        agree = self.rounds([("xmlrpc", "a", "b", "different", 1.0, 23),
                             ("xmlrpc", "a", "c", "undecided", 2.0, 40)])
        total, bad, df, dr = rounds_agreement.agreement([fixed], [agree])
        self.assertEqual((total["same way"], total["undecided"], bad), (1, 1, []))
        self.assertEqual((df, dr), ([2], [1]))
        # The other way round, or "same" where the fixed design saw a difference: contradicted.
        wrong = self.rounds([("xmlrpc", "b", "a", "different", 0.5, 23),
                             ("xmlrpc", "a", "c", "same", 0.01, 60)])
        total, bad, _df, _dr = rounds_agreement.agreement([fixed, fixed], [agree, wrong])
        self.assertEqual(total["contradicted"], 4)
        self.assertEqual(bad[0], ("fixed 1 / rounds 2", "xmlrpc", "a", "b"))
        # A pair the rounds did not compare is not theirs to answer.
        none = self.rounds([("xmlrpc", "a", "d", "different", 0.1, 23)])
        total, _bad, _df, _dr = rounds_agreement.agreement([fixed], [none])
        self.assertEqual(total["not compared"], 2)

    def test_the_command_prints_the_table_and_fails_on_a_contradiction(self):
        f = dump(headline_doc(FIXED), self.path("fixed.json"))
        ok = dump(self.rounds([("xmlrpc", "a", "b", "different", 1.0, 23)]), self.path("r1.json"))
        bad = dump(self.rounds([("xmlrpc", "b", "a", "different", 0.5, 23)]), self.path("r2.json"))
        proc = tool("rounds_agreement", "--fixed", f, "--rounds", ok, check=0)
        self.assertIn("| 2 (1 runs × 1) | 1 (50.0%) | 0 (0.0%) | 1 (50.0%) | 0 (0.0%) |",
                      proc.stdout)
        proc = tool("rounds_agreement", "--fixed", f, "--rounds", ok, bad, check=1)
        self.assertIn("contradicted (fixed 1 / rounds 2): xmlrpc: `a` ahead of `b`", proc.stdout)
        proc = tool("rounds_agreement", "--fixed", f, "--rounds", f, check=1)
        self.assertIn("without the rounds' decisions", proc.stderr)
        tool("rounds_agreement", check=2)


if __name__ == "__main__":
    main()
