#!/usr/bin/python3
"""sbtools.buildkey (label unit): what decides a build's instruction counts, its 12-digit key
(the committed counts' folder name is that key of their build) and the differences named."""
import glob
import os
import unittest

from tools_common import REPO, load, main
from sbtools import buildkey

ICOUNT = glob.glob(os.path.join(REPO, "results", "icount", "*", "2*.json"))[0]
CTX = {"compiler": "g++ 12.2.0", "build": "release", "lib_pugixml": "1.13", "cpu_model": "EPYC",
       "host_name": "a", "adapter:simdjson/dom": "format=json;notes=the 'haswell' kernel",
       "adapter:simdjson/ondemand": "notes=the 'haswell' kernel, and the 'icelake' kernel"}


class BuildKeyTest(unittest.TestCase):
    def test_the_context_gives_compiler_libraries_and_kernels_not_the_machine(self):
        self.assertEqual(buildkey.context_build(CTX),
                         {"compiler": "g++ 12.2.0", "build": "release",
                          "libraries": {"pugixml": "1.13"},
                          "simdjson_kernels": ["haswell", "icelake"]})

    def test_the_runtime_facts_join_them(self):
        build = buildkey.icount_build(CTX, {"isa_level": "x86-64-v3", "glibc": "glibc 2.36"})
        self.assertEqual(build["isa_level"], "x86-64-v3")
        self.assertEqual(build["libraries"], {"pugixml": "1.13"})

    def test_the_committed_counts_live_under_their_builds_key(self):
        doc = load(ICOUNT)
        key = buildkey.icount_build_key(doc["icount"]["build"])
        self.assertEqual(len(key), 12)
        self.assertEqual(key, buildkey.icount_key(doc))
        self.assertEqual(key, os.path.basename(os.path.dirname(ICOUNT)))

    def test_the_key_does_not_depend_on_order_and_moves_with_any_fact(self):
        a = {"compiler": "g++", "libraries": {"x": "1", "y": "2"}}
        b = {"libraries": {"y": "2", "x": "1"}, "compiler": "g++"}
        self.assertEqual(buildkey.icount_build_key(a), buildkey.icount_build_key(b))
        self.assertNotEqual(buildkey.icount_build_key(a),
                            buildkey.icount_build_key(dict(a, compiler="clang")))

    def test_files_from_before_keys_have_none(self):
        self.assertIsNone(buildkey.icount_key({"icount": {}}))
        self.assertIsNone(buildkey.icount_key({"icount": "old"}))
        self.assertIsNone(buildkey.icount_key({}))

    def test_differences_name_each_fact_from_the_other_to_this(self):
        old = {"compiler": "g++ 12", "libraries": {"pugixml": "1.12", "expat": "2.5"},
               "shared_libraries": ["libc.so.6", "libm.so.6"], "glibc": "2.36"}
        new = {"compiler": "g++ 13", "libraries": {"pugixml": "1.13", "expat": "2.5"},
               "shared_libraries": ["libc.so.6", "libz.so.1"], "glibc": "2.36"}
        self.assertEqual(buildkey.build_differences(new, old),
                         ["compiler: g++ 12 -> g++ 13", "libraries.pugixml: 1.12 -> 1.13",
                          "shared_libraries: -['libm.so.6'] +['libz.so.1']"])
        self.assertEqual(buildkey.build_differences(new, new), [])


if __name__ == "__main__":
    main()
