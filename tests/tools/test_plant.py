#!/usr/bin/python3
"""sbtools.plant (label unit): planting a change into parse_bench's sources: the injection lands
after its anchor in the real pugixml_dom.cpp, a moved anchor and a failed command are named, and
the release tree's compile command of a source is found ($SB_BUILD_DIR, default build/). The
relinked binary and its counts are the gate's test: tests/tools/gate_check.py (bench.gate_check)."""
import os
import unittest

from tools_common import REPO, main
from sbtools import plant

BUILD = os.environ.get("SB_BUILD_DIR") or os.path.join(REPO, "build")


class PlantTest(unittest.TestCase):
    def test_the_injection_lands_after_the_anchor_of_the_real_source(self):
        with open(plant.PUGIXML_DOM, encoding="utf-8") as f:
            text = f.read()
        planted = plant.inject(text)
        self.assertEqual(planted.count(plant.INJECTION), 1)
        self.assertIn(plant.ANCHOR + "\n" + plant.INJECTION, planted)
        self.assertEqual(planted.replace("\n" + plant.INJECTION, "", 1), text)

    def test_a_moved_anchor_is_named(self):
        with self.assertRaisesRegex(plant.PlantError, "the injection point moved"):
            plant.inject("int main() {}")

    def test_a_failed_command_says_what_it_printed(self):
        with self.assertRaisesRegex(plant.PlantError, r"exited 1:\nno such thing"):
            plant.run(["sh", "-c", "echo no such thing; exit 1"])
        self.assertEqual(plant.run(["sh", "-c", "exit 3"], check=False).returncode, 3)

    def test_the_release_trees_compile_command_of_a_source(self):
        argv, obj = plant.compile_command(BUILD, plant.PUGIXML_DOM)
        self.assertIn("-c", argv)
        self.assertTrue(obj.endswith("pugixml_dom.cpp.o"), obj)
        with self.assertRaisesRegex(plant.PlantError, "is not in .*compile_commands.json"):
            plant.compile_command(BUILD, os.path.join(REPO, "no_such_file.cpp"))

    def test_the_filter_names_what_the_gates_test_counts(self):
        self.assertRegex("parse/pugixml-dom/soap11-rpc-encoded/respond.64KB.response",
                         plant.FILTER)
        self.assertRegex("decode/expat-sax/jsonrpc/add.call/iterations:10", plant.FILTER)
        self.assertNotRegex("parse/pugixml-dom/xmlrpc/respond.64KB.response", plant.FILTER)


if __name__ == "__main__":
    main()
