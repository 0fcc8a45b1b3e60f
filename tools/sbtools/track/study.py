"""The tracker measured on itself (tools/track_study): A/A runs, false alarms, power, cost.

  aa-record   run one parse_bench binary N times on this machine (a copy, so a rebuild cannot
              change it mid-study) and keep every Google Benchmark JSON: real A/A noise
"""
import os
import shutil
import subprocess
import sys
import time

# A slice of the default set that runs in about 10 s of CPU: decode of three seed calls in an
# XML and the JSON family by every adapter (once each, the set's long tail) and the 64 KB parse
# (the set's headline: --core-repetitions, 5 repetitions).
AA_FILTER = (r"^(decode/[^/]+/(soap11-rpc-encoded|jsonrpc)/(getRate\.call|add\.call|complex\.call)"
             r"|parse/[^/]+/soap11-rpc-encoded/respond\.64KB\.response)")


def aa_record(bench, corpus, out_dir, runs, bench_filter=AA_FILTER, log=sys.stderr):
    """Runs a copy of `bench` `runs` times as `ctest -L bench` runs parse_bench (random
    interleaving, the default set's minimum times); writes out_dir/aa-NNN.json."""
    os.makedirs(out_dir, exist_ok=True)
    exe = os.path.join(out_dir, "parse_bench")
    if not os.path.exists(exe):
        shutil.copy2(bench, exe)
    started = time.time()
    for i in range(runs):
        out = os.path.join(out_dir, f"aa-{i:03d}.json")
        if os.path.exists(out):
            continue
        cmd = [exe, "--set=default", "--benchmark_min_time=0.02", "--tail-min-time=0.01",
               "--benchmark_enable_random_interleaving=true", f"--corpus={corpus}",
               f"--benchmark_filter={bench_filter}", f"--benchmark_out={out}.part",
               "--benchmark_out_format=json"]
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              timeout=1800, check=False)
        if proc.returncode != 0:
            raise RuntimeError(f"{exe} exited {proc.returncode}: {proc.stderr[-2000:]}")
        os.replace(out + ".part", out)
        print(f"aa-record: run {i + 1}/{runs} in {time.time() - started:.0f} s -> {out}",
              file=log, flush=True)
