"""The zoo's patches: tests/data/zoo/<name>.patch, a `git apply`-able diff whose first line is a
one-line description of the contributor's change (git apply skips text before the diff)."""
import os
import subprocess
from dataclasses import dataclass

from sbtools.paths import REPO

ZOO_DIR = os.path.join(REPO, "tests", "data", "zoo")


class PatchError(Exception):
    """A patch that cannot be read, is not described, or does not apply."""


@dataclass(frozen=True)
class Patch:
    name: str          # the file name without .patch
    path: str
    description: str   # its first line


def read(path):
    """The Patch at path; PatchError when it has no description line or no diff."""
    name = os.path.basename(path)[:-len(".patch")] if path.endswith(".patch") else None
    if not name:
        raise PatchError(f"{path}: not a .patch file")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    first = text.split("\n", 1)[0].strip()
    if not first or first.startswith(("diff --git", "---", "+++")):
        raise PatchError(f"{path}: the first line must describe the change")
    if "\ndiff --git " not in text:
        raise PatchError(f"{path}: no diff in it")
    return Patch(name, path, first)


def load(folder=ZOO_DIR, names=None):
    """Every patch of folder, by name; only names (in that order) when given."""
    found = {p.name: p for p in (read(os.path.join(folder, f)) for f in sorted(os.listdir(folder))
                                 if f.endswith(".patch"))}
    if not names:
        return list(found.values())
    missing = [n for n in names if n not in found]
    if missing:
        raise PatchError(f"no such patch in {folder}: {', '.join(missing)} "
                         f"(there are: {', '.join(found)})")
    return [found[n] for n in names]


def check_applies(patch, tree=REPO):
    """None when patch applies cleanly to tree's work tree, else git's complaint."""
    r = subprocess.run(["git", "-C", tree, "apply", "--check", patch.path],
                       capture_output=True, text=True)
    return None if r.returncode == 0 else (r.stderr.strip() or f"git apply exit {r.returncode}")
