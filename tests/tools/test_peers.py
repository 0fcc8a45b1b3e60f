#!/usr/bin/python3
"""The peer list (tools/sbtools/peers.py; docs/peers.md "Declaring a peer"), label unit:

- BuiltListTest: the list a build generates (`soapbench list --peers --json`; SB_SOAPBENCH, else
  build/soapbench) holds what the sb_peer() declarations of peers/**/CMakeLists.txt say, read
  from the source, field for field; a built peer's programs exist;
- ReaderTest: the declarations reader on planted CMake text (quotes, parentheses, comments);
- LoadToolsTest: tools/load_bench and tools/server_load take their servers, arguments and targets
  from the list's fields (hand-made peers, so a field the tools ignore fails here);
- ReportTest: the report's JVM labels, scripting servers, messaging rows and drift sentence come
  from the declarations.
"""
import os
import subprocess
import unittest
from types import SimpleNamespace

from tools_common import REPO, main
from sbtools import peers
from sbtools.load import load_bench, server_load
from sbtools.report import interop, messaging, scripting

SOAPBENCH = os.environ.get("SB_SOAPBENCH") or os.path.join(REPO, "build", "soapbench")


class BuiltListTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.built = peers.built(SOAPBENCH)
        cls.declared = peers.declared()

    def test_the_build_lists_what_the_declarations_say(self):
        built = {p["name"]: peers.facts(p) for p in self.built}
        declared = {p["name"]: peers.facts(p) for p in self.declared}
        self.assertEqual(sorted(built), sorted(declared))
        for name, facts in declared.items():
            self.assertEqual(built[name], facts, name)
        self.assertEqual(len(self.built), len(built), "a name declared twice")

    def test_a_folders_peers_keep_their_order(self):
        order = [p["name"] for p in self.built]
        scripting_folder = [p["name"] for p in peers.declarations(self.read("scripting"))]
        self.assertEqual([n for n in order if n in scripting_folder], scripting_folder)

    def test_built_programs_exist(self):
        for p in self.built:
            if not p["built"]:
                self.assertEqual(p["server"], "", p["name"])
                continue
            self.assertTrue(os.access(p["server"], os.X_OK), p)
            if p["client"] is not None:
                self.assertTrue(os.access(p["client"], os.X_OK), p)

    def test_the_adapters_list_is_unchanged_by_peers(self):
        out = subprocess.run([SOAPBENCH, "list", "--json"], stdout=subprocess.PIPE, text=True,
                             check=True).stdout
        self.assertNotIn('"families"', out)

    @staticmethod
    def read(folder):
        with open(os.path.join(REPO, "peers", folder, "CMakeLists.txt"), encoding="utf-8") as f:
            return f.read()


PLANTED = """
# a comment: sb_peer(nothing here) is not at a line's start
sb_peer(demo HAVE SB_HAVE_DEMO LABEL "Demo (a test's) stack"   # trailing comment
        FAMILIES xmlrpc jsonrpc SERVER ${CMAKE_CURRENT_SOURCE_DIR}/demo_server.py
        OPERATIONS add getChain UNEXPRESSIBLE fail "its fault is \\"its own\\"" concat "none"
        DRIFT_ULPS 4 CPU_TARGET 0.25 JVM LOAD CLOSES "closes (always)")
  sb_peer(other LABEL Other FAMILIES grpc SERVER other_server CLIENT other_client BATCH_CLIENT
          ONE_FAMILY NO_COMMON_PROTOCOL demo PROTOCOL gRPC TRANSPORT HTTP/2 PARSER "its own")
"""


class ReaderTest(unittest.TestCase):
    def test_planted_declarations(self):
        demo, other = peers.declarations(PLANTED)
        self.assertEqual(peers.facts(demo), {
            "name": "demo", "label": "Demo (a test's) stack", "families": ["xmlrpc", "jsonrpc"],
            "batch_client": False, "one_family": False, "jvm": True, "drift_ulps": 4,
            "operations": ["add", "getChain"],
            "unexpressible": {"fail": 'its fault is "its own"', "concat": "none"},
            "no_common_protocol": [], "load": True, "parser": None, "cpu_target": 0.25,
            "closes": "closes (always)", "protocol": None, "transport": None,
            "has_client": False})
        self.assertEqual(demo["server"], "${CMAKE_CURRENT_SOURCE_DIR}/demo_server.py")
        self.assertEqual((other["client"], other["batch_client"], other["one_family"],
                          other["no_common_protocol"], other["protocol"], other["transport"],
                          other["parser"], other["drift_ulps"]),
                         ("other_client", True, True, ["demo"], "gRPC", "HTTP/2", "its own", 0))

    def test_what_cmake_would_refuse(self):
        with self.assertRaises(peers.DeclarationError):
            peers.declarations("sb_peer(x LABEL a b FAMILIES xmlrpc SERVER s)\n")
        with self.assertRaises(peers.DeclarationError):
            peers.declarations("sb_peer(x LABEL a FAMILIES xmlrpc SERVER s\n")


def peer(name, families, **fields):
    """A hand-made peer as `soapbench list --peers --json` writes one."""
    out = {"name": name, "label": name.upper(), "families": families, "built": True,
           "server": f"/bin/{name}_server", "client": None, "batch_client": False,
           "one_family": False, "jvm": False, "drift_ulps": 0, "operations": [],
           "unexpressible": {}, "no_common_protocol": [], "load": False, "parser": None,
           "cpu_target": None, "closes": None, "protocol": None, "transport": None}
    out.update(fields)
    return out


LIST = [peer("soapy", ["soap11-rpc-encoded", "soap11-doc-literal", "soap12-doc-literal"],
             one_family=True, load=True, parser="its own", cpu_target=0.5),
        peer("jvmish", ["soap11-doc-literal"], one_family=True, jvm=True, load=True),
        peer("plain", ["xmlrpc"], load=True, cpu_target=0.33),
        peer("unloaded", ["xmlrpc"]),
        peer("elsewhere", ["grpc"], load=True),
        peer("few", ["xmlrpc"], load=True, operations=["echoArray"])]


class LoadToolsTest(unittest.TestCase):
    def test_load_bench_sweeps_every_load_peer_in_its_families(self):
        args = SimpleNamespace(peers=LIST)
        self.assertEqual([p["name"] for p in load_bench.load_peers(args)],
                         ["soapy", "jvmish", "plain", "few"])
        # The calls a peer implements (its OPERATIONS), others never sent to it.
        args.calls = ["respond.2500B", "echoArray", "add"]
        self.assertEqual(load_bench.served_calls(args, "plain"), args.calls)
        self.assertEqual(load_bench.served_calls(args, "few"), ["echoArray"])
        self.assertEqual(load_bench.served_calls(args, "soapbench-default"), args.calls)
        argv = load_bench.peer_argv(LIST[1], 200)
        self.assertEqual(argv("soap11-doc-literal"), ["/bin/jvmish_server", "--family",
                                                      "soap11-doc-literal", "--warmup", "200"])
        self.assertEqual(load_bench.peer_argv(LIST[2], 200)("xmlrpc"), ["/bin/plain_server"])

    def test_server_load_leaves_the_jvm_out_and_takes_the_targets(self):
        args = SimpleNamespace(peers=LIST)
        # "few" implements neither getRate nor add: not loaded here.
        self.assertEqual([p["name"] for p in server_load.load_peers(args)], ["soapy", "plain"])
        soapy = server_load.peer_server(LIST[0])
        self.assertEqual((soapy.id, soapy.parser, soapy.calls, soapy.argv),
                         ("soapy", "its own", ["getRate"],
                          ["/bin/soapy_server", "--family", "soap11-doc-literal"]))
        self.assertEqual(server_load.peer_server(LIST[2]).calls, ["add"])
        # A server that closes every connection is not flagged for unserved connections.
        closing = server_load.Server("shut", "shut", None, ["add"], ["/bin/shut"], closes="closes")
        run = {"requests": 10, "rps": 10.0, "p50_us": 1, "p99_us": 2, "cpu_s": 0.001,
               "cpu_us_per_call": 100.0, "connections_served": 0, "connections_open": 0,
               "accept_queue_max": 1, "errors": {"connect": 0}}
        for server, problems in ((closing, 0), (closing._replace(closes=None), 1)):
            rec = server_load.cell_record({"shut": server}, {}, ("shut", "add", 2),
                                          {"check": None, "runs": [run]})
            self.assertEqual(len(rec["problems"]), problems, rec["problems"])
        self.assertEqual([tuple(t) for t in server_load.targets(args)],
                         [("getRate", "soapy", 0.5), ("add", "plain", 0.33)])


class ReportTest(unittest.TestCase):
    """The sections' peer facts are the declarations' (peers/**/CMakeLists.txt)."""

    def test_facts_from_the_declarations(self):
        declared = peers.declared()
        jvm = {p["name"] for p in declared if p["jvm"]}
        self.assertTrue(jvm)
        for name in jvm:
            self.assertTrue(peers.is_jvm_stack(name))
            self.assertTrue(peers.is_jvm_stack(f"soapbench~{name}"))
        self.assertFalse(peers.is_jvm_stack("soapbench~soapbench"))
        self.assertEqual(scripting.scripting_servers(),
                         {p["name"] for p in declared if p["client"] is None})
        rows = messaging.messaging_stacks()
        self.assertEqual(list(rows)[:2], ["binary", "binary-newconn"])
        for p in declared:
            if p["protocol"]:
                self.assertIn(p["label"], rows[p["name"]])
        drifting = [p["name"] for p in declared if p["drift_ulps"]]
        for name in drifting:
            self.assertIn(f"{name}'s", interop.drift())

    def test_jvm_rule_on_a_hand_made_list(self):
        self.assertTrue(peers.is_jvm_stack("soapbench~jvmish", LIST))
        self.assertFalse(peers.is_jvm_stack("soapy~soapbench", LIST))


if __name__ == "__main__":
    main()
