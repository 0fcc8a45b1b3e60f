"""The instruction-count baseline's key: what decides a build's instruction counts.

Instruction counts depend on the code that runs, not on the machine's speed: the compiler, the
libraries (the adapters' and the shared objects parse_bench loads, glibc's string functions
among them), the instruction-set level chosen at run time (glibc's ifuncs and simdjson's
kernel, as valgrind's CPU presents them) and valgrind. Not on CPU model, caches, core count or
host name: a baseline keyed by these facts applies to every machine of the same build.
"""
import hashlib
import json
import re

_KERNEL = re.compile(r"'(\w+)' kernel")


def context_build(ctx):
    """The part of a build that parse_bench's own context tells (any run's context has it)."""
    libs = {k[len("lib_"):]: str(v) for k, v in ctx.items() if k.startswith("lib_")}
    kernels = sorted({m.group(1) for k, v in ctx.items() if k.startswith("adapter:")
                      for m in _KERNEL.finditer(str(v))})
    return {"compiler": ctx.get("compiler"), "build": ctx.get("build"), "libraries": libs,
            "simdjson_kernels": kernels}


def icount_build(ctx, runtime):
    """The facts that decide instruction counts: ctx is parse_bench's context (as run under
    valgrind), runtime what tools/icount found out about the process (isa_level, glibc,
    valgrind, shared_libraries)."""
    return {**context_build(ctx), **runtime}


def icount_build_key(build):
    """12 hex digits naming a build (icount_build's dict): results/icount/<key>/."""
    raw = json.dumps(build, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(raw).hexdigest()[:12]


def icount_key(doc):
    """The build key of a tools/icount file, or None for files written before builds had keys
    (those lived in results/<machine-id>/icount/ and stay readable there)."""
    got = doc.get("icount", {}).get("build_key") if isinstance(doc.get("icount"), dict) else None
    return str(got) if got else None


def build_differences(build, other):
    """'key: a -> b' for every fact in which two icount builds differ (icount_build)."""
    out = []
    for k in sorted(set(build) | set(other)):
        a, b = other.get(k), build.get(k)
        if a == b:
            continue
        if isinstance(a, dict) and isinstance(b, dict):
            out += [f"{k}.{n}: {a.get(n)} -> {b.get(n)}" for n in sorted(set(a) | set(b))
                    if a.get(n) != b.get(n)]
        elif isinstance(a, list) and isinstance(b, list):
            out.append(f"{k}: -{sorted(set(a) - set(b))} +{sorted(set(b) - set(a))}")
        else:
            out.append(f"{k}: {a} -> {b}")
    return out
