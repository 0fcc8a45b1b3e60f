#!/usr/bin/python3
"""AXIS-2909 in Debian's Axis 1.4 and the peer's fix (peers/java/axis/OverloadsFix.java), shown
by peers/java/axis_dispatch_race (Axis's engine from axis_server's deployment, 4 threads
dispatching by QName as every request does), and axis_server applying it unless --as-packaged
(its serving line says which), label unit.

Usage: /usr/bin/python3 tests/interop/test_axis_dispatch_race.py AXIS_DISPATCH_RACE AXIS_SERVER
       [unittest args]

As packaged, concurrent dispatches lose the race (a ConcurrentModificationException, which Axis
answers as a Server.userException fault): if that stops happening, Debian's Axis has the fix and
OverloadsFix can go. With the fix, 2 seconds of concurrent dispatches raise none.
"""
import re
import subprocess
import sys
import unittest

PROGRAM = None  # axis_dispatch_race, from the command line
SERVER = None  # axis_server, from the command line


def race(*args):
    """(dispatches, ConcurrentModificationExceptions) of one run."""
    proc = subprocess.run([PROGRAM, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=120)
    if proc.returncode != 0:
        raise AssertionError(f"{PROGRAM} {' '.join(args)} exited {proc.returncode}: {proc.stderr}")
    m = re.search(r"(\d+) dispatches on \d+ threads, (\d+) ConcurrentModificationException",
                  proc.stdout)
    if not m:
        raise AssertionError(f"unexpected output: {proc.stdout!r}")
    return int(m.group(1)), int(m.group(2))


def serving_line(*args):
    """axis_server's serving line, the server then stopped."""
    proc = subprocess.Popen([SERVER, "--port", "0", *args], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        return proc.stdout.readline()  # the JVM prints it once serving, or exits (EOF)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


class DispatchRaceTest(unittest.TestCase):
    def test_packaged_axis_loses_the_race(self):
        _dispatches, races = race("--as-packaged")
        self.assertGreater(races, 0, "no ConcurrentModificationException in 20 s: Debian's Axis "
                                     "may have AXIS-2909's fix now; OverloadsFix can go")

    def test_fixed_axis_never_does(self):
        dispatches, races = race()
        self.assertGreater(dispatches, 10000)
        self.assertEqual(races, 0)

    def test_axis_server_applies_the_fix_unless_as_packaged(self):
        self.assertRegex(serving_line(), r"serving http://.*, AXIS-2909 fixed\)$")
        self.assertRegex(serving_line("--as-packaged"), r"serving http://.*, as packaged\)$")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: test_axis_dispatch_race.py AXIS_DISPATCH_RACE AXIS_SERVER [unittest args]")
    PROGRAM, SERVER = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1] + sys.argv[3:], verbosity=2)
