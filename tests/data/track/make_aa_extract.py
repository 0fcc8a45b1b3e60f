#!/usr/bin/python3
"""Writes aa_runs.json, the A/A extract the tools/track tests use: every repetition of real_time
and cpu_time of every benchmark of each A/A run that `tools/track_study aa-record` wrote (one
parse_bench binary run N times on this machine), with each run's date and a trimmed context.

Usage: PYTHONPATH=tools tests/data/track/make_aa_extract.py AA_FOLDER [OUT]   (default OUT:
aa_runs.json here; PYTHONPATH names the package's folder, as the tests' registration does)
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
from sbtools.track import study  # noqa: E402

KEEP = ("machine_id", "git_sha", "executable", "bench_set", "build", "compiler", "cpu_model",
        "cpu_cores", "num_cpus", "host_name")


def main():
    folder = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "aa_runs.json")
    runs = study.aa_runs(folder)
    names = sorted(b for b, m in runs[0].samples if m == "real_time")
    doc = {"what": "A/A runs of one parse_bench binary on one machine (tools/track_study "
                   "aa-record); times in ns, every repetition",
           "context": {k: v for k, v in runs[0].context.items()
                       if k in KEEP or k.startswith(("lib_", "adapter:"))},
           "benchmarks": names,
           "runs": [{"date": r.date,
                     "real_time": [[float(f"{v:.6g}") for v in r.samples[(b, "real_time")]]
                                   for b in names],
                     "cpu_time": [[float(f"{v:.6g}") for v in r.samples[(b, "cpu_time")]]
                                  for b in names]} for r in runs]}
    with open(out, "w", encoding="utf-8") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    print(f"{out}: {len(runs)} runs x {len(names)} benchmarks")


if __name__ == "__main__":
    main()
