"""parse_bench with a planted change, for proving the instruction-count gate: one source
compiled again with an edit and linked into a copy of parse_bench by the release tree's own
commands (build/compile_commands.json, `ninja -t commands`), and the subset of benchmarks
tools/icount counts for it. Read by the gate's test (tests/tools/gate_check.py) and by
tools/track_study (sbtools/track/study.py)."""
import json
import os
import shlex
import shutil
import subprocess

from sbtools.paths import REPO

PY = "/usr/bin/python3"
# Decode of two small calls in two families for every adapter, and the 64 KB parse of every XML
# adapter in one family: an injected slowdown in a parse shows in the latter.
FILTER = (r"^(decode/[^/]+/(soap11-rpc-encoded|jsonrpc)/(getRate|add)\.call"
          r"|parse/[^/]+/soap11-rpc-encoded/respond\.64KB\.response)(/iterations:[0-9]+)?$")
ITERATIONS = "10"
# 2% of pugixml's parse of the 64 KB response (about 5.3 instructions a byte): a loop of about
# 7 instructions every 64 bytes, planted at ANCHOR in parsers/pugixml_dom.cpp.
INJECTION = ("{ static volatile unsigned sb_injected; for (std::size_t i = 0; i < "
             "message.size(); i += 64) sb_injected = sb_injected + "
             "static_cast<unsigned char>(message.data()[i]); }")
ANCHOR = "Status parse(MessageBuffer& message) {"
PUGIXML_DOM = os.path.join(REPO, "parsers", "pugixml_dom.cpp")


class PlantError(RuntimeError):
    """A command failed, or the source no longer holds the place an edit plants at."""


def run(cmd, cwd=None, check=True):
    """The finished process (stdout and stderr together); PlantError on a non-zero exit."""
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, check=False)
    if check and proc.returncode != 0:
        raise PlantError(f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stdout[-3000:]}")
    return proc


def inject(text, injection=INJECTION, anchor=ANCHOR):
    """text with injection planted after anchor (its first occurrence)."""
    if anchor not in text:
        raise PlantError(f"the injection point moved ({anchor!r} is gone): update sbtools/plant.py")
    return text.replace(anchor, anchor + "\n" + injection, 1)


def compile_command(build, source):
    """(argv, object) of source's compile command in the release tree."""
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
        for entry in json.load(f):
            if os.path.realpath(entry["file"]) == os.path.realpath(source):
                argv = shlex.split(entry["command"])
                return argv, argv[argv.index("-o") + 1]
    raise PlantError(f"{source} is not in {build}/compile_commands.json")


def variant(build, work, source, edit):
    """parse_bench linked with `source` compiled from edit(its text): the binary's path."""
    argv, obj = compile_command(build, source)
    with open(source, encoding="utf-8") as f:
        text = edit(f.read())
    copy = os.path.join(work, os.path.basename(source))
    with open(copy, "w", encoding="utf-8") as f:
        f.write(text)
    new_obj = os.path.join(work, os.path.basename(obj))
    argv = [copy if a == source or os.path.realpath(a) == os.path.realpath(source) else a
            for a in argv]
    argv[argv.index("-o") + 1] = new_obj
    run(argv, cwd=build)
    # The object lives in a static library named after its target folder: swap it in a copy.
    lib_dir = os.path.dirname(os.path.dirname(obj))  # e.g. parsers/CMakeFiles/sb_parsers.dir
    target = os.path.basename(os.path.dirname(obj))[:-len(".dir")]
    archive = os.path.join(os.path.dirname(lib_dir), f"lib{target}.a")
    new_archive = os.path.join(work, os.path.basename(archive))
    shutil.copy(os.path.join(build, archive), new_archive)
    run(["ar", "r", new_archive, new_obj])
    link = run(["ninja", "-C", build, "-t", "commands", "bench/parse_bench"]).stdout
    line = [l for l in link.splitlines() if " -o bench/parse_bench " in l][-1]
    line = next(part for part in line.split("&&") if " -o bench/parse_bench " in part)
    exe = os.path.join(work, "parse_bench")
    argv = [new_archive if a == archive else a for a in shlex.split(line)]
    argv[argv.index("-o") + 1] = exe
    run(argv, cwd=build)
    return exe


def counts(bench, out, corpus=None):
    """tools/icount's instructions for FILTER's benchmarks of `bench`, written to out."""
    cmd = [PY, os.path.join(REPO, "tools", "icount"), "--bench", bench, "--filter", FILTER,
           "--iterations", ITERATIONS, "--quiet", "--out", out]
    if corpus:
        cmd += ["--corpus", corpus]
    run(cmd)
    with open(out, encoding="utf-8") as f:
        return json.load(f)["instructions"]
