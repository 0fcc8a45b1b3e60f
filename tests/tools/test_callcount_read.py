#!/usr/bin/python3
"""Tests of sbtools.callcount_read (label unit): tools/callcount's readers of callgrind dumps
(instructions and mutex-lock calls per row) and strace logs (system calls by name per thread,
between the program's markers), on hand-written files."""
import unittest

from tools_common import Tmp
from sbtools import callcount_read
from sbtools.gbench import ResultError

DUMP = """\
# callgrind format
version: 1
desc: Trigger: Client Request: callcount/client/keepalive/xmlrpc/pugixml-dom/getRate
events: Ir
fn=(1) work
cfn=(2) pthread_mutex_lock@@GLIBC_2.2.5
calls=3 10
5
cfn=(3) malloc
calls=7 12
9
fn=(4) other
cfn=(2)
calls=2 10
5
summary: 1234
totals: 1234
"""

STRACE = """\
100 write(5, "callcount begin callcount/client/x\\n", 35) = 35
200 write(5, "callcount begin callcount/server/x\\n", 35) = 35
100 sendmsg(11, {...}, MSG_NOSIGNAL) = 328
200 <... epoll_wait resumed>[{events=EPOLLIN}], 128, -1) = 1
200 recvfrom(12, "POST", 16384, 0, NULL, NULL) = 328
200 epoll_wait(4,  <unfinished ...>
100 recvfrom(11, "HTTP", 512, 0, NULL, NULL) = 218
100 --- SIGPIPE {si_signo=SIGPIPE} ---
100 write(5, "callcount end callcount/client/x\\n", 33) = 33
300 getpid() = 300
200 write(5, "callcount end callcount/server/x\\n", 33) = 33
"""


class ReadersTest(Tmp):
    def test_dump_gives_instructions_and_lock_calls(self):
        path = self.path("cg.1.1-01")
        with open(path, "w", encoding="utf-8") as f:
            f.write(DUMP)
        name, total, locks = callcount_read.read_dump(path)
        self.assertEqual(name, "callcount/client/keepalive/xmlrpc/pugixml-dom/getRate")
        self.assertEqual((total, locks), (1234, 5))  # 3 + 2 calls, names compressed after once

    def test_strace_counts_each_thread_between_its_markers(self):
        path = self.path("strace.log")
        with open(path, "w", encoding="utf-8") as f:
            f.write(STRACE)
        got = callcount_read.read_strace(path)
        self.assertEqual(dict(got["callcount/client/x"]), {"sendmsg": 1, "recvfrom": 1})
        # The blocked epoll_wait counts once (where it began), not where it resumed.
        self.assertEqual(dict(got["callcount/server/x"]), {"recvfrom": 1, "epoll_wait": 1})

    def test_strace_window_left_open_is_an_error(self):
        path = self.path("strace.log")
        with open(path, "w", encoding="utf-8") as f:
            f.write(STRACE.rsplit("200 write", 1)[0])
        with self.assertRaisesRegex(ResultError, "never closed: callcount/server/x"):
            callcount_read.read_strace(path)


if __name__ == "__main__":
    unittest.main(verbosity=2)
