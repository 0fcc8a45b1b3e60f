#!/usr/bin/python3
"""The recording proxy's CPU work per keep-alive call, exactly: instructions and system calls.

Usage: /usr/bin/python3 tests/record/proxy_icount.py SOAPBENCH [--duration S]

`soapbench record` (keeping nothing: --max-messages 2) in front of `soapbench serve --threads 1`,
one keep-alive connection of `soapbench load --call getRate`. Prints the proxy's user-space
instructions per call (callgrind, counted only while the measured load runs) beside the
server's for the same call direct, and the proxy's system calls per call (strace -c). Timings on
a shared machine are noisy; these counts are not. Label `load` (outside the default set).
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
from test_record import EXES, start, stop  # noqa: E402


def load(url, duration, out):
    subprocess.run([EXES['soapbench'], 'load', '--url', url, '--protocol', 'soap11', '--style',
                    'rpc-encoded', '--call', 'getRate', '--connections', '1', '--duration',
                    str(duration), '--warmup', '0', '--json', out],
                   check=True, capture_output=True, timeout=300)
    with open(out) as f:
        return json.load(f)['points'][0]['calls']


def instructions(command, pattern, tmp, duration, name):
    """User-space instructions per call of `command` (a server) under the load."""
    out = os.path.join(tmp, name + '.callgrind')
    proc, url = start(['valgrind', '--tool=callgrind', '--instr-atstart=no',
                       '--callgrind-out-file=' + out] + command, pattern)
    try:
        load(url, 1, os.path.join(tmp, 'warm.json'))
        subprocess.run(['callgrind_control', '-i', 'on', str(proc.pid)], check=True,
                       capture_output=True)
        calls = load(url, duration, os.path.join(tmp, 'run.json'))
        subprocess.run(['callgrind_control', '-i', 'off', str(proc.pid)], check=True,
                       capture_output=True)
    finally:
        stop(proc)
    text = subprocess.run(['callgrind_annotate', out], capture_output=True, text=True).stdout
    total = int(re.search(r'([\d,]+) \(100\.0%\)\s+PROGRAM TOTALS', text).group(1).replace(',', ''))
    return total / calls


def system_calls(pid, url, tmp, duration):
    """System calls per call of process `pid` under the load, by name."""
    out = os.path.join(tmp, 'strace')
    tracer = subprocess.Popen(['strace', '-f', '-c', '-o', out, '-p', str(pid)],
                              stderr=subprocess.DEVNULL)
    time.sleep(1)  # attached
    calls = load(url, duration, os.path.join(tmp, 'strace.json'))
    tracer.terminate()
    tracer.wait(timeout=30)
    counts = {}
    with open(out) as f:
        for line in f:
            fields = line.split()
            if len(fields) >= 5 and fields[3].isdigit() and fields[-1] != 'total':
                counts[fields[-1]] = int(fields[3]) / calls
    return {k: v for k, v in counts.items() if v >= 0.01}


def main():
    EXES['soapbench'] = sys.argv[1]
    duration = float(sys.argv[sys.argv.index('--duration') + 1]) if '--duration' in sys.argv else 3
    serve = [EXES['soapbench'], 'serve', '--threads', '1']
    serving = r'serving (http://[0-9.]+:[0-9]+)'
    with tempfile.TemporaryDirectory() as tmp:
        server = instructions(serve, serving, tmp, duration, 'server')
        upstream, url = start(serve, serving)
        try:
            record = ['record', '--listen', '127.0.0.1:0', '--upstream', url, '--max-messages', '2']
            proxy = instructions([EXES['soapbench']] + record + ['--out', os.path.join(tmp, 'a')],
                                 r'recording (http://[0-9.]+:[0-9]+)', tmp, duration, 'proxy')
            rec, rurl = start([EXES['soapbench']] + record + ['--out', os.path.join(tmp, 'b')],
                              r'recording (http://[0-9.]+:[0-9]+)')
            try:
                load(rurl, 0.3, os.path.join(tmp, 'warm.json'))
                syscalls = system_calls(rec.pid, rurl, tmp, duration)
            finally:
                stop(rec)
        finally:
            stop(upstream)
    print('instructions per keep-alive getRate: proxy %.0f, server %.0f (proxy/server %.2f)'
          % (proxy, server, proxy / server))
    print('proxy system calls per call: %.2f (%s)' % (sum(syscalls.values()), ', '.join(
        '%s %.2f' % kv for kv in sorted(syscalls.items(), key=lambda kv: -kv[1]))))
    return 0


if __name__ == '__main__':
    sys.exit(main())
