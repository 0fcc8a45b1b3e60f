#!/usr/bin/python3
"""The recording proxy's added latency per keep-alive call (issue 29: p50 <= 50 us on loopback).

Usage: /usr/bin/python3 tests/record/proxy_latency.py SOAPBENCH [--reps N] [--duration S]

`soapbench serve` (one thread) and `soapbench record` in front of it (recording into a temporary
folder); `soapbench load --call getRate` at one connection (closed loop, keep-alive), direct and
through the proxy, alternated N times in the same run so the machine's load hits both alike.
Prints each pair's p50 and p90 and the median of the per-pair differences, and the proxy's CPU per
call beside the server's (from /proc, `--server-pid`). As a yardstick, nginx (one worker,
keep-alive to the upstream, unbuffered) in front of the same server is timed in each round too,
when installed: what a production proxy adds on this machine at this moment. Exit 1 when the
median p50 difference passes 50 us or any call went wrong. Label `load` (not the default
benchmark set).
"""

import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
from test_record import EXES, Recorder, start, stop  # noqa: E402

TARGET_US = 50.0


def point(url, pid, duration, out):
    subprocess.run([EXES['soapbench'], 'load', '--url', url, '--protocol', 'soap11', '--style',
                    'rpc-encoded', '--call', 'getRate', '--connections', '1', '--duration',
                    str(duration), '--warmup', '0.2', '--server-pid', str(pid), '--json', out],
                   check=True, capture_output=True, timeout=120)
    with open(out) as f:
        return json.load(f)['points'][0]


NGINX_CONF = """daemon off; worker_processes 1; pid {tmp}/nginx.pid; error_log {tmp}/error.log;
events {{ worker_connections 64; }}
http {{ access_log off; client_body_temp_path {tmp}; proxy_temp_path {tmp};
  upstream up {{ server {upstream}; keepalive 8; }}
  server {{ listen 127.0.0.1:{port}; location / {{ proxy_pass http://up; proxy_http_version 1.1;
    proxy_set_header Connection ""; proxy_buffering off; }} }} }}
"""


def start_nginx(upstream_url, tmp):
    """nginx proxying to upstream_url: (process, its worker's pid, url), or None without nginx."""
    if shutil.which('nginx') is None:
        return None
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        port = s.getsockname()[1]
    conf = os.path.join(tmp, 'nginx.conf')
    with open(conf, 'w') as f:
        f.write(NGINX_CONF.format(tmp=tmp, upstream=upstream_url.split('//')[1], port=port))
    proc = subprocess.Popen(['nginx', '-c', conf, '-p', tmp], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):  # its worker, once it runs
        children = subprocess.run(['pgrep', '-P', str(proc.pid)], capture_output=True,
                                  text=True).stdout.split()
        if children:
            return proc, int(children[0]), 'http://127.0.0.1:%d' % port
        time.sleep(0.05)
    proc.terminate()
    proc.wait()
    return None


def main():
    args = sys.argv[1:]
    EXES['soapbench'] = args[0]
    reps = int(args[args.index('--reps') + 1]) if '--reps' in args else 5
    duration = float(args[args.index('--duration') + 1]) if '--duration' in args else 2.0
    server, url = start([EXES['soapbench'], 'serve', '--threads', '1'],
                        r'serving (http://[0-9.]+:[0-9]+)')
    rows, yardstick = [], []
    nginx = None
    try:
        with tempfile.TemporaryDirectory() as tmp:
            nginx = start_nginx(url, tmp)
            with Recorder(url, os.path.join(tmp, 'rec'), '--max-messages', '1000') as rec:
                for i in range(reps):
                    out = os.path.join(tmp, 'p.json')
                    direct = point(url, server.pid, duration, out)
                    proxied = point(rec.url, server.pid, duration, out)
                    proxy_cpu = point(rec.url, rec.proc.pid, duration, out)
                    rows.append((direct, proxied, proxy_cpu))
                    print('rep %d: direct p50 %.1f us p90 %.1f | proxied p50 %.1f us p90 %.1f | '
                          'server CPU %.1f us/call, proxy CPU %.1f us/call'
                          % (i + 1, direct['p50_us'], direct['p90_us'], proxied['p50_us'],
                             proxied['p90_us'], direct['server_cpu_us_per_call'],
                             proxy_cpu['server_cpu_us_per_call']), flush=True)
                    if nginx:
                        n = point(nginx[2], nginx[1], duration, out)
                        yardstick.append((n['p50_us'] - direct['p50_us'],
                                          n['server_cpu_us_per_call']))
                        print('       nginx p50 %.1f us (%+.1f), CPU %.1f us/call'
                              % (n['p50_us'], yardstick[-1][0], yardstick[-1][1]), flush=True)
    finally:
        if nginx:
            nginx[0].terminate()
            nginx[0].wait(timeout=30)
        stop(server)
    errors = sum(sum(p['errors'].values()) for row in rows for p in row)
    added = statistics.median(p['p50_us'] - d['p50_us'] for d, p, _ in rows)
    added90 = statistics.median(p['p90_us'] - d['p90_us'] for d, p, _ in rows)
    server_cpu = statistics.median(d['server_cpu_us_per_call'] for d, _, _ in rows)
    proxy_cpu = statistics.median(c['server_cpu_us_per_call'] for _, _, c in rows)
    print('proxy added latency (median of %d pairs): p50 %+.1f us, p90 %+.1f us (target p50 <= '
          '%.0f us); CPU per call: proxy %.1f us, server %.1f us; %d errors'
          % (reps, added, added90, TARGET_US, proxy_cpu, server_cpu, errors))
    if yardstick:
        print('nginx in front of the same server, same rounds: p50 %+.1f us, CPU %.1f us per call'
              % (statistics.median(a for a, _ in yardstick),
                 statistics.median(c for _, c in yardstick)))
    return 0 if added <= TARGET_US and errors == 0 else 1


if __name__ == '__main__':
    sys.exit(main())
