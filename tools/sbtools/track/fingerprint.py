"""What recording adds to a result file: the machine it ran on (CPU model, microcode, kernel,
cores, SMT, governor where readable; never bogomips, which is a boot-time calibration, not an
identity), the Debian package of every library and tool that decided its numbers, with its
version (so a security update that keeps the upstream version is still named), and the git
facts of the measured commit (parent, merge base, branch) and the CI job."""
import glob
import os
import platform
import re
import shutil
import subprocess

from sbtools.paths import REPO

from .store import DATE_FORMAT

_ENV = {"PATH": "/usr/bin:/bin", "LC_ALL": "C"}


def _read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read().strip()
    except OSError:
        return None


def _run(cmd, cwd=None, timeout=60, ok=(0,)):
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              cwd=cwd, env=_ENV, timeout=timeout, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return proc.stdout if proc.returncode in ok else None


def machine():
    """This machine's facts ({} entries that cannot be read are left out)."""
    info = {}
    cpuinfo = _read("/proc/cpuinfo") or ""
    for key, name in (("model name", "cpu_model"), ("microcode", "microcode"),
                      ("cpu family", "cpu_family"), ("model", "cpu_model_number"),
                      ("stepping", "stepping")):
        m = re.search(rf"^{key}\s*:\s*(.*)$", cpuinfo, re.M)
        if m:
            info[name] = m.group(1).strip()
    flags = re.search(r"^flags\s*:\s*(.*)$", cpuinfo, re.M)
    if flags:
        info["hypervisor"] = "hypervisor" in flags.group(1).split()
    info["kernel"] = platform.release()
    info["cores"] = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
        else os.cpu_count()
    smt = _read("/sys/devices/system/cpu/smt/active")
    if smt is not None:
        info["smt"] = smt == "1"
    governors = {g for g in (_read(p) for p in glob.glob(
        "/sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor")) if g}
    info["governor"] = ",".join(sorted(governors)) if governors else "not exposed"
    clock = re.search(r"^cpu MHz\s*:\s*([\d.]+)", cpuinfo, re.M)
    if clock:
        info["mhz"] = round(float(clock.group(1)))
    mem = re.search(r"^MemTotal:\s*(\d+) kB", _read("/proc/meminfo") or "", re.M)
    if mem:
        info["memory_gib"] = round(int(mem.group(1)) / 2**20)
    return info


def _apt_packages():
    """The libraries' Debian packages, from the `# apt:` lines of cmake/dependencies.cmake."""
    text = _read(os.path.join(REPO, "cmake", "dependencies.cmake")) or ""
    return sorted({p for line in re.findall(r"^# apt: (.*)$", text, re.M) for p in line.split()})


def _ldd_paths(exe):
    out = _run(["ldd", exe]) or ""
    return [m.group(1) for m in re.finditer(r"(/\S+) \(0x[0-9a-f]+\)", out)]


def _owners(paths):
    """{package: [paths]} for files dpkg knows (each path also tried without /usr: usrmerge)."""
    tries = set()
    for p in paths:
        real = os.path.realpath(p)
        for q in (p, real):
            tries.add(q)
            if q.startswith("/usr/"):
                tries.add(q[4:])
    owners = {}
    # Exit status 1: some path is no package's (the variants that do not exist); the rest printed.
    out = _run(["dpkg-query", "-S", *sorted(tries)], ok=(0, 1)) if tries else None
    for line in (out or "").splitlines():
        pkgs, _, path = line.partition(": ")
        for pkg in pkgs.split(", "):
            owners.setdefault(pkg.split(":")[0], []).append(path)
    return owners


def packages(executables=()):
    """({package: version}, {package: source package}) of the shared objects the executables
    load, the compiler and valgrind, and the libraries' packages (cmake/dependencies.cmake)."""
    if not shutil.which("dpkg-query"):
        return {}, {}
    paths = []
    for exe in executables:
        if exe and os.access(exe, os.X_OK):
            paths += _ldd_paths(exe)
    for tool in ("c++", "g++", "valgrind"):
        found = shutil.which(tool)
        if found:
            paths.append(os.path.realpath(found))
    names = set(_owners(paths)) | set(_apt_packages())
    out = _run(["dpkg-query", "-W", "-f", "${Package}\t${Version}\t${source:Package}\t"
                "${db:Status-Status}\n", *sorted(names)]) or ""
    versions, sources = {}, {}
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) == 4 and parts[3] == "installed":
            versions[parts[0]] = parts[1]
            sources[parts[0]] = parts[2] or parts[0]
    return versions, sources


def _git(*args):
    out = _run(["git", "-C", REPO, *args])
    return out.strip() if out else None


def git_facts(commit, branch=None, merge_base=None, base_ref=None):
    """{parent, branch, merge_base} of a commit (abbreviated like git_sha, 12 hex digits), as far
    as this checkout and the CI's environment know them."""
    facts = {"parent": None, "branch": branch, "merge_base": merge_base}
    full = _git("rev-parse", "--verify", "-q", f"{commit}^{{commit}}") if commit else None
    if full:
        facts["parent"] = _git("rev-parse", "--short=12", "-q", "--verify", f"{full}^")
    env = os.environ
    if not facts["branch"]:
        facts["branch"] = env.get("GITHUB_HEAD_REF") or env.get("GITHUB_REF_NAME") or \
            env.get("CI_MERGE_REQUEST_SOURCE_BRANCH_NAME") or env.get("CI_COMMIT_REF_NAME")
        head = _git("rev-parse", "HEAD")
        if not facts["branch"] and full and head == full:
            name = _git("rev-parse", "--abbrev-ref", "HEAD")
            facts["branch"] = name if name and name != "HEAD" else None
    if not facts["merge_base"] and env.get("CI_MERGE_REQUEST_DIFF_BASE_SHA"):
        # GitLab names a merge request's base itself (no fetch of the target branch needed).
        facts["merge_base"] = env["CI_MERGE_REQUEST_DIFF_BASE_SHA"][:12]
    if not facts["merge_base"] and full:
        ref = base_ref or (f"origin/{env['GITHUB_BASE_REF']}" if env.get("GITHUB_BASE_REF")
                           else None)
        if ref:
            found = _git("merge-base", full, ref)
            facts["merge_base"] = found[:12] if found else None
            if not found:
                shallow = _git("rev-parse", "--is-shallow-repository") == "true"
                facts["no_merge_base"] = f"no merge base of {commit} and {ref} in this " + (
                    "checkout: it is shallow (check out with fetch-depth: 0)" if shallow else
                    f"checkout (is {ref} fetched?)")
    return facts


def job():
    """The CI job that measured this, when a CI says so."""
    env = os.environ
    if env.get("GITHUB_RUN_ID"):
        return f"github:{env['GITHUB_RUN_ID']}.{env.get('GITHUB_RUN_ATTEMPT', '1')}:" \
               f"{env.get('GITHUB_JOB', '')}"
    if env.get("CI_JOB_ID"):
        return f"gitlab:{env['CI_JOB_ID']}"
    return None


def head_commit():
    return _git("rev-parse", "--short=12", "HEAD")


def hostname():
    return platform.node()


def measured_here(context, date, fingerprint, max_age_hours=24):
    """Whether a result file was measured on this machine, recently: its host name, CPU model,
    CPU count and clock (when it states them) are this machine's and it ran in the last day.
    Only then may recording attach this machine's fingerprint and packages to it."""
    import datetime as dt
    checks = [(context.get("host_name"), hostname()),
              (context.get("cpu_model"), fingerprint.get("cpu_model")),
              (context.get("num_cpus"), os.cpu_count())]
    if any(a is not None and b is not None and str(a) != str(b) for a, b in checks):
        return False
    mhz, here = context.get("mhz_per_cpu"), fingerprint.get("mhz")
    if mhz and here and abs(float(mhz) / here - 1) > 0.05:  # same name, another host
        return False
    try:
        when = dt.datetime.strptime(date, DATE_FORMAT).replace(tzinfo=dt.timezone.utc)
    except ValueError:
        return False
    age = dt.datetime.now(dt.timezone.utc) - when
    return dt.timedelta(hours=-1) <= age <= dt.timedelta(hours=max_age_hours)
