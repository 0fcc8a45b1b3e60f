#!/usr/bin/python3
"""The zoo's verdict table (sbtools/zoo/table.py, label unit): a patch is caught when one gate
failed it, escaped when every gate ran and passed, an error otherwise; the exit code puts an
escape or an A/A false alarm first; the Markdown and JSON say which gate, what moved, where."""
import json
import os
import tempfile
import unittest

from sbtools.zoo import table
from sbtools.zoo.gates import Outcome

MOVED = {"syscalls:sendmsg": {"rows": 52, "largest": 1.0,
                              "example": "callcount/server/keepalive/xmlrpc/pugixml-dom/getRate"}}


def result(name, *statuses, error="", run=True):
    r = table.PatchResult(name, f"the {name} change", "c0ffee" + name, 20.0, run=run, error=error)
    for gate, status in zip(("callcount", "icount"), statuses):
        r.outcomes.append(Outcome(gate, status, 10.0, {"caught": "FAIL", "passed": "PASS"}.get(
            status, ""), MOVED if status == "caught" else {}, "boom" if status == "error" else ""))
    return r


class VerdictTest(unittest.TestCase):
    def test_verdicts(self):
        self.assertEqual(result("a", "caught", "passed").verdict(), "caught")
        self.assertEqual(result("b", "passed", "caught").verdict(), "caught")
        self.assertEqual(result("c", "passed", "passed").verdict(), "escaped")
        self.assertEqual(result("d", "passed", "error").verdict(), "error")
        self.assertEqual(result("e", error="does not build").verdict(), "error")
        self.assertEqual(result("f", run=False).verdict(), "not run")
        self.assertEqual(result("g", "caught", "passed").caught_by(), ["callcount"])
        self.assertEqual(result("g", "caught", "passed").seconds(), 40.0)

    def test_exit_codes(self):
        caught = result("a", "caught")
        self.assertEqual(table.exit_code([caught], [Outcome("callcount", "passed")]), 0)
        self.assertEqual(table.exit_code([caught, result("c", "passed")], []), 1)
        self.assertEqual(table.exit_code([caught], [Outcome("icount", "caught")]), 1, "false alarm")
        self.assertEqual(table.exit_code([caught, result("e", error="x")], []), 2)
        self.assertEqual(table.exit_code([caught], [Outcome("icount", "error")]), 2)
        self.assertEqual(table.exit_code([caught, result("f", run=False)], []), 3)
        self.assertEqual(table.exit_code([result("c", "passed"), result("e", error="x")], []), 1)

    def test_markdown_and_json(self):
        results = [result("two-writes", "caught", "passed"), result("slow", "passed", "passed")]
        aa = [Outcome("callcount", "passed", 12.0, "PASS"), Outcome("icount", "caught", 300.0,
                                                                     "FAIL", MOVED)]
        md = "\n".join(table.markdown(results, aa, "abcdef0123456789", ["callcount", "icount"],
                                      "tools/track zoo"))
        self.assertIn("| `two-writes` | the two-writes change | c0ffeetwo-wr | callcount: "
                      "syscalls:sendmsg +100.0% (52 rows, e.g. server) | icount | 20 | 20 |", md)
        self.assertIn("**escaped**", md)
        self.assertIn("Caught: 1 of 2. A/A runs of the unpatched tree: 2 gate runs, 1 false alarm:", md)
        with tempfile.TemporaryDirectory() as tmp:
            md_path, js_path = os.path.join(tmp, "z.md"), os.path.join(tmp, "z.json")
            table.write(md_path, js_path, results, aa, "abc", ["callcount", "icount"], "cmd")
            with open(js_path, encoding="utf-8") as f:
                doc = json.load(f)
        self.assertEqual(doc["exit_code"], 1)
        self.assertEqual(doc["caught"], 1)
        self.assertEqual(doc["false_alarms"], 1)
        self.assertEqual([p["verdict"] for p in doc["patches"]], ["caught", "escaped"])
        self.assertEqual(doc["patches"][0]["caught_by"], ["callcount"])
        self.assertEqual(doc["patches"][0]["outcomes"][0]["moved"], MOVED)


if __name__ == "__main__":
    unittest.main()
