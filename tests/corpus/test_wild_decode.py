#!/usr/bin/python3
"""Every adapter against every message of corpus/wild/ (issue 41: "every manifest outcome checked
for every adapter; a moved outcome fails with the file's name").

Usage: test_wild_decode.py SOAPBENCH [unittest args]

Runs tools/wild's judge (tools/sbtools/wild.py) over the real wild corpus, without WSDLs and with
them, and compares what is not right with GAPS: the few (message, verdict) pairs the decoders
are known not to reach yet, each with why. Any other verdict that is not right fails, naming the
file and the adapter; a gap that closes fails too, so this list is taken down when it does."""
import os
import sys
import unittest

sys.dont_write_bytecode = True
from sbtools import wild  # noqa: E402

SOAPBENCH = None

# Known with their WSDL only (docs/corpus.md "The wild corpus"); every XML adapter alike, since
# the WSDL typing is shared code. Key: the message's path in the manifest; value: the verdict and
# a piece of the reason that must stay in what the user sees.
GAPS = {
    "node-soap/request-response-samples/IndienenBericht__should_work_with_deeply_nested_XML_"
    "messages/response.xml": ("refused", "<xsd:any>"),  # wildcard content is not typed
    "node-soap/request-response-samples/readMetadata__should_respect_xsi_type_attribute/"
    "response.xml": ("refused", "unknown member"),  # a derived xsi:type is not followed
}


def not_right(verdicts):
    return {(e["path"], adapter): (verdict, detail)
            for e, adapter, verdict, detail in verdicts if verdict != "right"}


class WildDecodeTest(unittest.TestCase):
    def test_without_wsdls_every_adapter_is_right_on_every_message(self):
        verdicts = wild.run(SOAPBENCH, wild.WILD_DIR)
        self.assertGreaterEqual(len({e["path"] for e, *_ in verdicts}), 200)
        moved = sorted(f"{path} by {adapter}: {verdict} ({detail})"
                       for (path, adapter), (verdict, detail) in not_right(verdicts).items())
        self.assertEqual(moved, [], "outcomes that moved:\n" + "\n".join(moved))

    def test_with_their_wsdls_only_the_known_gaps_are_not_right(self):
        verdicts = wild.run(SOAPBENCH, wild.WILD_DIR, with_wsdl=True)
        xml_adapters = wild.adapters(SOAPBENCH)["xml"]
        found = not_right(verdicts)
        problems = []
        for (path, adapter), (verdict, detail) in sorted(found.items()):
            gap = GAPS.get(path)
            if gap is None or gap[0] != verdict or gap[1] not in detail:
                problems.append(f"{path} by {adapter}: {verdict} ({detail})")
        for path in GAPS:
            closed = [a for a in xml_adapters if (path, a) not in found]
            if closed:
                problems.append(f"{path}: no longer {GAPS[path][0]} by {', '.join(closed)}; "
                                "take it out of GAPS and docs/corpus.md's list")
        self.assertEqual(problems, [], "\n".join(problems))


if __name__ == "__main__":
    SOAPBENCH = os.path.abspath(sys.argv.pop(1))
    unittest.main()
