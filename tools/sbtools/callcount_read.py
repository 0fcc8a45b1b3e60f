"""What tools/callcount reads back from its runs: callgrind's dumps (instructions and mutex locks
per window) and strace's log (system calls per window, by name, found between the markers
bench/callcount_window.cpp writes). Standard library only."""
import glob
import os
import re
from collections import Counter

from sbtools.gbench import ResultError

_TRIGGER = "desc: Trigger: Client Request: "
_DISCARDED = "callcount-discard "  # the dump that opens a window (bench/callcount_window.h)
# The lock entry points a thread calls to take a lock (glibc's names, with or without version
# suffix or leading underscores): what `lock_calls` counts. std::mutex::lock is
# pthread_mutex_lock.
_LOCK = re.compile(r"^_*pthread_(?:mutex_(?:lock|trylock|timedlock|clocklock)|"
                   r"rwlock_(?:rd|wr|tryrd|trywr|timedrd|timedwr|clockrd|clockwr)lock|"
                   r"spin_(?:lock|trylock))(?:@|$)")
_NAMED = re.compile(r"^\((\d+)\)(?: (.*))?$")  # callgrind's compressed names: (id) name, (id)


def read_dump(path):
    """(window name, instructions, lock calls) of one callgrind dump, None for another dump
    (program termination). A dump holds the dumping thread's counts since its last dump
    (callgrind --separate-threads=yes, collecting throughout): a window opens with one."""
    name, total, locks = None, None, 0
    names, callee = {}, None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith(_TRIGGER):
                name = line[len(_TRIGGER):].strip()
            elif line.startswith(("fn=", "cfn=")):
                key, _eq, rest = line.rstrip("\n").partition("=")
                m = _NAMED.match(rest)
                if m:
                    if m.group(2):
                        names[m.group(1)] = m.group(2)
                    fn = names.get(m.group(1), "")
                else:
                    fn = rest
                callee = fn if key == "cfn" else None
            elif line.startswith("calls=") and callee is not None:
                if _LOCK.match(callee):
                    locks += int(line[len("calls="):].split()[0])
            elif line.startswith(("totals:", "summary:")):
                total = int(line.split()[1])  # totals: comes last; keep the final one
    if name is None or total is None:
        return None
    return name, total, locks


def read_dumps(folder):
    """{window name: (instructions, lock calls)} of every dump callgrind wrote into folder."""
    out = {}
    for path in sorted(glob.glob(os.path.join(folder, "cg.*"))):
        got = read_dump(path)
        if got is None:
            continue
        name, total, locks = got
        if name.startswith(_DISCARDED):
            continue
        if name in out:
            raise ResultError(f"{name}: dumped twice")
        out[name] = (total, locks)
    return out


_LINE = re.compile(r"^(\d+) +(.*)$")
_CALL = re.compile(r"^(\w+)\(")
_MARKER = re.compile(r'^write\(\d+, "callcount (begin|end) (\S+)\\n"')


def read_strace(path):
    """{window name: Counter(system call name: count)}: each thread's calls strictly between its
    window's begin and end markers (strace -f -o: one line per call, the thread id first; a call
    that blocked is counted at its '<unfinished ...>' line, not again where it resumes)."""
    open_windows, out = {}, {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = _LINE.match(line)
            if not m:
                continue
            tid, rest = m.groups()
            if rest.startswith(("<...", "+++", "---")):
                continue
            marker = _MARKER.match(rest)
            if marker:
                what, name = marker.groups()
                if what == "begin":
                    open_windows[tid] = name
                    out[name] = Counter()
                elif open_windows.pop(tid, None) != name:
                    raise ResultError(f"strace log: window {name} ends on thread {tid}, "
                                      "which did not open it")
                continue
            call = _CALL.match(rest)
            if call and tid in open_windows:
                out[open_windows[tid]][call.group(1)] += 1
    if open_windows:
        raise ResultError(f"strace log: windows never closed: {', '.join(open_windows.values())}")
    return out
