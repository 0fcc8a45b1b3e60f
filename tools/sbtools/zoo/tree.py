"""The copy of the tree the zoo builds: one git worktree of HEAD in a temporary folder, built
with the release preset (ccache: cmake/compiler_cache.cmake) for the gates' targets only. Each
patch becomes a commit on top of HEAD there (fixed author and date, so a patch's commit is the
same every time); reset() takes the tree back to HEAD, and the next build recompiles only what
the patch touched (from ccache)."""
import os
import shutil
import subprocess
import tempfile
import time

from sbtools.paths import REPO

BUILD_TIMEOUT = 3600   # seconds for one configure + build (a cold cache on 2 cores)


class TreeError(Exception):
    """A worktree that cannot be made, a patch that does not apply, a build that fails."""


def _git(tree, *args, env=None):
    r = subprocess.run(["git", "-C", tree, *args], capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise TreeError(f"git {' '.join(args)}: {r.stderr.strip() or r.returncode}")
    return r.stdout.strip()


class Tree:
    """A worktree of repo's HEAD under a temporary folder; a context manager that removes it."""

    def __init__(self, repo=REPO, keep=False):
        self.repo, self.keep = repo, keep
        self.head = _git(repo, "rev-parse", "HEAD")
        self.folder = tempfile.mkdtemp(prefix="soapbench-zoo-")
        self.path = os.path.join(self.folder, "tree")
        _git(repo, "worktree", "add", "--detach", self.path, self.head)
        self._date = _git(repo, "show", "-s", "--format=%cI", self.head)
        self.configured = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self.keep:
            return
        subprocess.run(["git", "-C", self.repo, "worktree", "remove", "--force", self.path],
                       capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)
        subprocess.run(["git", "-C", self.repo, "worktree", "prune"], capture_output=True)

    def apply(self, patch):
        """Commits patch (a patches.Patch) on top of HEAD; returns the commit's id."""
        self.reset()
        _git(self.path, "apply", "--index", patch.path)
        env = {**os.environ,
               "GIT_AUTHOR_NAME": "soapbench zoo", "GIT_AUTHOR_EMAIL": "zoo@localhost",
               "GIT_COMMITTER_NAME": "soapbench zoo", "GIT_COMMITTER_EMAIL": "zoo@localhost",
               "GIT_AUTHOR_DATE": self._date, "GIT_COMMITTER_DATE": self._date}
        _git(self.path, "commit", "--no-verify", "-q", "-m", f"zoo: {patch.name}\n\n"
             f"{patch.description}", env=env)
        return _git(self.path, "rev-parse", "HEAD")

    def reset(self):
        """Back to HEAD, the patch and anything it left removed (the build folder stays)."""
        _git(self.path, "reset", "-q", "--hard", self.head)
        _git(self.path, "clean", "-q", "-fd", "--exclude=/build")

    def build(self, targets, log):
        """Configures (once) and builds targets with the release preset; the seconds it took.
        The build's output goes to log; a failure raises TreeError naming it."""
        t0 = time.monotonic()
        steps = [] if self.configured else [["cmake", "--preset", "release"]]
        steps.append(["cmake", "--build", "--preset", "release", "--target", *targets])
        with open(log, "a", encoding="utf-8") as out:
            for cmd in steps:
                out.write(f"$ {' '.join(cmd)}\n")
                out.flush()
                try:
                    r = subprocess.run(cmd, cwd=self.path, stdout=out, stderr=subprocess.STDOUT,
                                       timeout=BUILD_TIMEOUT)
                except subprocess.TimeoutExpired:
                    raise TreeError(f"{' '.join(cmd)}: over {BUILD_TIMEOUT} s (log: {log})")
                if r.returncode != 0:
                    raise TreeError(f"{' '.join(cmd)}: exit {r.returncode} (log: {log})")
        self.configured = True
        return time.monotonic() - t0
