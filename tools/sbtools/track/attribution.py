"""What changed between two runs, and which change a benchmark's move belongs to.

A run's fields (fields()) are its build (compiler, build type, each library's version, glibc,
valgrind, the instruction-set level and simdjson's kernels under valgrind, the shared objects
loaded), the Debian version of each package recorded with it, and, for timings, the machine
(CPU, microcode, kernel, cores, SMT, governor). A move is attributed to the changed fields of
the moved benchmark's own library (its adapter's `library=` in the run context, matched to
package and shared-object names), else to changed fields every benchmark depends on (compiler,
glibc, ...), else to the commits between the two runs.
"""
import re
import subprocess
from dataclasses import dataclass

from sbtools import facts, names
from sbtools.paths import REPO

# Fields every benchmark depends on, whatever its library.
GLOBAL_FIELDS = ("compiler", "build", "glibc", "isa_level", "valgrind", "simdjson_kernels",
                 "determinism_shim",
                 "package libc6", "package libstdc++6", "package libgcc-s1", "package g++-12",
                 "package gcc-12", "package valgrind", "package libbenchmark1debian",
                 "cpu_model", "microcode", "kernel", "cores", "smt", "governor")
_MACHINE_FIELDS = ("cpu_model", "microcode", "kernel", "cores", "smt", "governor")
_SO = re.compile(r"^(.*?\.so)(?:\.(.*))?$")


def fields(build, environment, timing, key=None):
    """{field: value} of a run: its build key, build facts, package versions, the machine (for
    timings)."""
    out = {"build key": key} if key else {}
    for k, v in (build or {}).items():
        if k == "libraries":
            out.update({f"library {name}": ver for name, ver in v.items()})
        elif k == "shared_libraries":
            for so in v:
                m = _SO.match(so)
                if m:
                    out[f"shared object {m.group(1)}"] = m.group(2) or "-"
        elif isinstance(v, (list, bool)):
            out[k] = ",".join(map(str, v)) if isinstance(v, list) else str(v).lower()
        elif v is not None:
            out[k] = str(v)
    out.update({f"package {p}": ver for p, ver in environment.get("packages", {}).items()})
    if timing:
        machine = environment.get("machine", {})
        out.update({k: str(machine[k]) for k in _MACHINE_FIELDS if k in machine})
    return out


def _group(field):
    for prefix in ("library ", "shared object ", "package "):
        if field.startswith(prefix):
            return prefix
    return field


def diff(before, after):
    """[(field, old, new)] of the fields that differ; a field on one side only was added (old
    None) or removed (new None) when the other side recorded its kind at all (a library among
    libraries); otherwise that side did not record it (an older file, a run not probed) and it
    is no change."""
    kinds = [{_group(k) for k in side} for side in (before, after)]
    out = []
    for k in sorted(set(before) | set(after)):
        old, new = before.get(k), after.get(k)
        if old == new or (old is None and _group(k) not in kinds[0]) or \
                (new is None and _group(k) not in kinds[1]):
            continue
        out.append((k, old, new))
    return out


def elide(old, new):
    """'2.9.14+dfsg-1.3~deb12u5 -> ...u6': the new value without the long prefix it shares."""
    common = 0
    while common < min(len(old), len(new)) and old[common] == new[common]:
        common += 1
    if common >= 12:  # long Debian versions; a short one reads better whole
        return f"{old} → …{new[common - 1:]}"
    return f"{old} → {new}"


def _unnamed(name, value):
    """A value without the field's name it starts with ('glibc 2.36' of glibc is '2.36',
    'valgrind-3.19.0' of valgrind '3.19.0'), so a label does not say the name twice."""
    if value and value.lower().startswith(name.lower()) and value[len(name):len(name) + 1] in \
            (" ", "-") and len(value) > len(name) + 1:
        return value[len(name) + 1:]
    return value


def describe(changes):
    """'libxml2 2.9.14 -> 2.9.15, +Qt 6 6.4.2, ...' for a diff()."""
    def one(field, old, new):
        name = field.replace("package ", "").replace("library ", "")
        old, new = _unnamed(name, old), _unnamed(name, new)
        if old is None:
            return f"+{name} {new}"
        if new is None:
            return f"−{name} {old}"
        return f"{name} {elide(old, new)}"
    return ", ".join(one(*c) for c in changes)


def _token(text):
    return re.sub(r"[^a-z0-9]", "", text.lower())


def library_of(benchmark, context):
    """The library behind a benchmark: its adapter (or encoder) field by the name schema
    (sbtools.names), looked up in the run context's `adapter:<name>` rows (library=...): the
    longest adapter name the field starts with (parse/libxml2-dom-direct/... is libxml2's);
    None for floors, round trips and the like."""
    got = names.parse(benchmark)[1]
    slug = got.get("adapter") or got.get("encoder")
    if not slug:
        return None
    best = None
    for name, row in facts.adapter_rows(context).items():
        if row.get("library") and (slug == name or slug.startswith(name + "-")) and \
                (best is None or len(name) > len(best[0])):
            best = (name, row["library"])
    return best[1] if best else None


def related(library, field, sources):
    """Whether a changed field belongs to a library: its version, its package (or one built
    from the same source package), its shared object."""
    tok = _token(library)
    if not tok:
        return False
    name = field.split(" ", 1)[1] if " " in field else field
    names = [name, sources.get(name, "")]
    return any(tok in _token(n) for n in names if n)


@dataclass
class Cause:
    library: str        # the moved benchmarks' library ("" when they have none)
    benchmarks: list    # [(benchmark, relative move)]
    fields: list        # [(field, old, new)] the moves are attributed to ([] = the commits)
    note: str           # how the attribution was made, for the reader


def attribute(moves, changes, context, sources):
    """Groups moved benchmarks ({benchmark: relative move}) by library and attributes each
    group to the changed fields (diff()) it depends on: [Cause]."""
    groups = {}
    for bench, move in moves.items():
        groups.setdefault(library_of(bench, context) or "", []).append((bench, move))
    glob_changes = [c for c in changes if c[0] in GLOBAL_FIELDS]
    out = []
    for library, benches in sorted(groups.items()):
        own = [c for c in changes if library and related(library, c[0], sources)]
        if own:
            out.append(Cause(library, benches, own, f"{library}'s own version or package changed"))
        elif glob_changes:
            out.append(Cause(library, benches, glob_changes,
                             "a field every benchmark depends on changed"))
        elif changes:
            out.append(Cause(library, benches, [],
                             "not explained by the fields that changed (" + describe(changes) +
                             "): the commits"))
        else:
            out.append(Cause(library, benches, [], "the build is the same: the commits"))
    return out


def commits_between(old, new, limit=20):
    """[(sha, subject)] of the commits in old..new when this checkout has both, else []."""
    if not old or not new or old == new:
        return []
    try:
        proc = subprocess.run(["git", "-C", REPO, "log", "--format=%h %s", f"-n{limit}",
                               f"{old}..{new}"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return []
    if proc.returncode != 0:
        return []
    return [tuple(line.split(" ", 1)) for line in proc.stdout.splitlines() if " " in line]
