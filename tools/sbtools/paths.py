"""Where the repository, its results/ store and its build tree are, and paths as users type them."""
import os

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RESULTS_DIR = os.path.join(REPO, "results")
BUILD_DIR = os.path.join(REPO, "build")
CORPUS_DIR = os.path.join(REPO, "corpus")


def rel(path):
    """A path as the user would type it from the repository root."""
    try:
        r = os.path.relpath(path, REPO)
    except ValueError:
        return path
    return path if r.startswith("..") else r
