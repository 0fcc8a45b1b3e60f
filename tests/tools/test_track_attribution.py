#!/usr/bin/python3
"""Tests of sbtools.track.attribution (ctest label unit): a move across build keys attributed to
the field that changed (a library version, a Debian package version that keeps the upstream
version), or to the commits; never a silent pass on a new build key."""
import os
import shutil
import tempfile
import unittest

import track_testlib as lib
from sbtools.track import attribution, gate, importers, store

QT_ADAPTERS = ("qt6-dom", "qt6-stream", "qt6-json-dom")


def is_qt(name):
    return name.split("/")[1] in QT_ADAPTERS


def is_libxml2(name):
    return name.split("/")[1].startswith("libxml2-")


class FieldsTest(unittest.TestCase):
    def test_diff_and_elision(self):
        a = attribution.fields({"compiler": "g++ 12.2.0", "libraries": {"libxml2": "2.9.14"}},
                               {"packages": {"libxml2": "2.9.14+dfsg-1.3~deb12u5"}}, False, "k1")
        b = attribution.fields({"compiler": "g++ 12.2.0", "libraries": {"libxml2": "2.9.14",
                                                                        "Qt 6": "6.4.2"}},
                               {"packages": {"libxml2": "2.9.14+dfsg-1.3~deb12u6"}}, False, "k1")
        changes = attribution.diff(a, b)
        self.assertEqual(changes, [("library Qt 6", None, "6.4.2"),
                                   ("package libxml2", "2.9.14+dfsg-1.3~deb12u5",
                                    "2.9.14+dfsg-1.3~deb12u6")])
        self.assertEqual(attribution.describe(changes),
                         "+Qt 6 6.4.2, libxml2 2.9.14+dfsg-1.3~deb12u5 → …u6")

    def test_unrecorded_is_not_a_change(self):
        # One side was not probed for packages, the other was: no package "changed".
        a = attribution.fields({"compiler": "g++"}, {}, True)
        b = attribution.fields({"compiler": "g++"}, {"packages": {"libc6": "2.36"},
                                                    "machine": {"kernel": "6.1"}}, True)
        self.assertEqual(attribution.diff(a, b), [])

    def test_library_of_a_benchmark(self):
        ctx = importers.read(os.path.join(lib.RESULTS, "bab0702471ef",
                                          "20261202-174809_6790742da1f5.parse_bench.json")).context
        self.assertEqual(attribution.library_of("decode/qt6-dom/xmlrpc/add.call", ctx), "Qt 6")
        self.assertEqual(attribution.library_of("parse/pugixml-dom-inplace/x/y", ctx), "pugixml")
        self.assertEqual(attribution.library_of("decode/xerces-sax2/x/y", ctx), "Xerces-C++")
        self.assertIsNone(attribution.library_of("floor/memcpy/xmlrpc/add.call", ctx))
        self.assertTrue(attribution.related("Qt 6", "package libqt6core6", {}))
        self.assertTrue(attribution.related("Qt 6", "shared object libQt6Xml.so", {}))
        self.assertTrue(attribution.related("Xerces-C++", "package libxerces-c3.2", {}))
        self.assertFalse(attribution.related("Qt 6", "package libxml2", {}))


class AcrossBuildsTest(unittest.TestCase):
    """The issue's cases on the committed counts of build 18c92917448a."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="sb-track-attr-")
        self.db = store.open_store(os.path.join(self.tmp, "t.sqlite"))
        base = importers.read(lib.ICOUNT)
        self.base = base
        self.db.add_run(base, {"build": base.build, "git": {},
                               "packages": {"libxml2": "2.9.14+dfsg-1.3~deb12u5",
                                            "libqt6core6": "6.4.2+dfsg-10"},
                               "package_sources": {"libxml2": "libxml2",
                                                   "libqt6core6": "qt6-base"}})

    def tearDown(self):
        self.db.close()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def head(self, name, scale, build=None, key=None):
        path = lib.icount_variant(lib.ICOUNT, os.path.join(self.tmp, name), "feedbeef0001",
                                  "2026-12-03T10:00:00+00:00", scale, build, key)
        return importers.read(path)

    def qt_643(self):
        build = {"libraries": dict(self.base.build["libraries"], **{"Qt 6": "6.4.3"}),
                 "shared_libraries": [s.replace("6.4.2", "6.4.3")
                                      for s in self.base.build["shared_libraries"]]}
        return build

    def test_a_new_library_version_is_named(self):
        run = self.head("qt.json", lambda n: 1.05 if is_qt(n) else 1.0, self.qt_643(),
                        "abcdefabcdef")
        result = gate.run_gate(self.db, [run], {"packages": {"libqt6core6": "6.4.3+dfsg-1"},
                                                "package_sources": {"libqt6core6": "qt6-base"}})
        self.assertTrue(any("new build abcdefabcdef" in t for _l, t in result.notes), result.notes)
        moved = [r for r in result.rows if r.status == "regression"]
        self.assertEqual({r.benchmark for r in moved},
                         {b for b, _m in run.samples if is_qt(b)})
        for r in moved:
            self.assertIn("Qt 6 6.4.2 → 6.4.3", r.cause)
            self.assertIn("libqt6core6 6.4.2+dfsg-10 → 6.4.3+dfsg-1", r.cause)
            self.assertFalse(r.gating)
        self.assertEqual(result.verdict, "WARN")  # seen and explained, not the commit's fault

    def test_every_count_up_with_qt_changed_is_not_a_silent_pass(self):
        # The simulation: Qt 6.4.2 -> 6.4.3 and every count +5%. Qt's rows belong to Qt;
        # the others' library did not change, so they are the commits' (and fail).
        run = self.head("all.json", lambda n: 1.05, self.qt_643(), "abcdefabcdef")
        result = gate.run_gate(self.db, [run], {})
        rows = {r.benchmark: r for r in result.rows}
        self.assertEqual(len(rows), len(run.samples))
        qt = [r for b, r in rows.items() if is_qt(b)]
        other = [r for b, r in rows.items() if not is_qt(b)]
        self.assertTrue(all("Qt 6 6.4.2 → 6.4.3" in r.cause and not r.gating for r in qt))
        self.assertTrue(all(r.cause.startswith("commits") and r.gating for r in other))
        self.assertEqual(result.verdict, "FAIL")

    def test_a_debian_patch_keeping_the_upstream_version_is_named(self):
        # Same build key (libxml2 still 2.9.14), Debian revision ~deb12u5 -> ~deb12u6.
        run = self.head("patch.json", lambda n: 1.03 if is_libxml2(n) else 1.0)
        self.assertEqual(run.build_key, self.base.build_key)
        env = {"packages": {"libxml2": "2.9.14+dfsg-1.3~deb12u6", "libqt6core6": "6.4.2+dfsg-10"},
               "package_sources": {"libxml2": "libxml2", "libqt6core6": "qt6-base"}}
        result = gate.run_gate(self.db, [run], env)
        moved = [r for r in result.rows if r.status == "regression"]
        self.assertTrue(moved)
        self.assertTrue(all(is_libxml2(r.benchmark) for r in moved))
        for r in moved:
            self.assertEqual(r.cause, "libxml2 2.9.14+dfsg-1.3~deb12u5 → …u6")
            self.assertFalse(r.gating)
        self.assertEqual(result.verdict, "WARN")

    def test_same_build_same_packages_is_the_commits(self):
        run = self.head("slow.json", lambda n: 1.02 if "/pugixml-dom/" in n else 1.0)
        env = {"packages": {"libxml2": "2.9.14+dfsg-1.3~deb12u5", "libqt6core6": "6.4.2+dfsg-10"}}
        result = gate.run_gate(self.db, [run], env)
        moved = [r for r in result.rows if r.status == "regression"]
        self.assertTrue(moved and all(r.gating for r in moved))
        self.assertTrue(all(r.cause == f"commits {self.base.commit}..feedbeef0001" for r in moved))
        self.assertEqual(result.verdict, "FAIL")


if __name__ == "__main__":
    unittest.main(verbosity=2)
