#!/usr/bin/python3
"""The Python package's rules (tools.package, label unit; docs/architecture.md "The Python
package"): no file in tools/ or tests/ changes sys.path; every Python test is registered with
sb_python_test; the package imports only itself, the standard library and the Debian packages
tools/pyproject.toml declares (never test code); every one of those is a Debian package; the
entry scripts in tools/ stay thin; every module has its own test; the package this test imports
is this checkout's; and pyproject.toml builds a wheel holding every module and asset."""
import ast
import glob
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
import unittest
import zipfile

from tools_common import PY, REPO, TOOLS, main
import sbtools

PACKAGE = os.path.join(TOOLS, "sbtools")
DEBIAN_PYTHON = "/usr/lib/python3/dist-packages"
# Modules whose test is one file for several (docs/architecture.md "The Python package"): the
# report's parts, compared one by one with the golden report, and the corpus generator, whose
# every byte tests/corpus/test_corpus.py derives again independently.
SHARED_TESTS = {"tests/tools/test_report_sections.py": "the report's sections",
                "tests/corpus/test_corpus.py": "sbtools.corpusgen"}
ENTRY_MAX_LINES = 12


def python_files(*folders):
    """Every Python source under the folders: *.py and the scripts whose #! runs Python."""
    out = []
    for folder in folders:
        for path in glob.glob(os.path.join(REPO, folder, "**", "*"), recursive=True):
            if "__pycache__" in path or not os.path.isfile(path):
                continue
            if path.endswith(".py"):
                out.append(path)
            elif os.access(path, os.X_OK):
                with open(path, "rb") as f:
                    if re.match(rb"#!\S*python", f.readline()):
                        out.append(path)
    return sorted(out)


def tree(path):
    with open(path, encoding="utf-8") as f:
        return ast.parse(f.read(), path)


def imported(path):
    """Every absolute import of a file: module names, and module.name for `from m import name`."""
    out = set()
    for node in ast.walk(tree(path)):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
    return out


def modules():
    """sbtools.<...> of every module of the package (its __init__ files aside)."""
    return sorted(os.path.relpath(p, TOOLS)[:-3].replace(os.sep, ".")
                  for p in glob.glob(os.path.join(PACKAGE, "**", "*.py"), recursive=True)
                  if os.path.basename(p) != "__init__.py")


def entry_scripts():
    """{module whose main() it runs: the command's name} of the scripts in tools/."""
    out = {}
    for path in python_files("tools"):
        if os.path.dirname(path) == TOOLS and not path.endswith(".py"):
            with open(path, encoding="utf-8") as f:
                m = re.search(r"^from (sbtools[\w.]*) import main\b", f.read(), re.M)
            if m:
                out[m.group(1)] = os.path.basename(path)
    return out


def pyproject():
    with open(os.path.join(TOOLS, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)


def requirement_names():
    project = pyproject()["project"]
    reqs = project["dependencies"] + [r for opt in project.get("optional-dependencies", {})
                                      .values() for r in opt]
    return [re.split(r"[<>=!~;\[ ]", r, maxsplit=1)[0] for r in reqs]


class NoPathTricksTest(unittest.TestCase):
    def test_no_file_changes_sys_path(self):
        found = []
        for path in python_files("tools", "tests"):
            for node in ast.walk(tree(path)):
                if isinstance(node, ast.Attribute) and node.attr == "path" and \
                        isinstance(node.value, ast.Name) and node.value.id == "sys" or \
                        isinstance(node, ast.Attribute) and node.attr == "addsitedir" or \
                        isinstance(node, ast.ImportFrom) and node.module == "sys" and \
                        any(a.name == "path" for a in node.names):
                    found.append(f"{os.path.relpath(path, REPO)}:{node.lineno}")
        self.assertEqual(found, [], "the package is found beside an entry script, and by a test "
                         "on the PYTHONPATH sb_python_test sets (docs/architecture.md)")

    def test_every_python_test_is_registered_with_sb_python_test(self):
        found = []
        for path in glob.glob(os.path.join(REPO, "**", "CMakeLists.txt"), recursive=True):
            if os.path.relpath(path, REPO).startswith(("build", ".git")):
                continue
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for m in re.finditer(r"\badd_test\s*\((?:[^()]|\$<[^>]*>|\([^()]*\))*\)", text):
                if re.search(r"\bCOMMAND\s+\$\{SB_PYTHON\}\s+\S*/tests/", m.group(0)):
                    line = text.count("\n", 0, m.start()) + 1
                    found.append(f"{os.path.relpath(path, REPO)}:{line}")
        self.assertEqual(found, [], "register a Python test with sb_python_test(NAME ... COMMAND "
                         "<script> ...) (cmake/python_tests.cmake), which sets its PYTHONPATH")

    def test_the_package_imported_here_is_this_checkouts(self):
        self.assertEqual(os.path.dirname(os.path.abspath(sbtools.__file__)), PACKAGE)


class ImportsTest(unittest.TestCase):
    def test_the_package_imports_itself_the_standard_library_and_its_declared_dependencies(self):
        declared = {n.lower() for n in requirement_names()}
        providers = importlib.metadata.packages_distributions()
        found = []
        for path in python_files("tools/sbtools"):
            for name in imported(path):
                top = name.split(".")[0]
                if top == "sbtools" or top in sys.stdlib_module_names:
                    continue
                dists = {d.lower() for d in providers.get(top, [])}
                if not dists & declared:
                    found.append(f"{os.path.relpath(path, REPO)}: {name}")
        self.assertEqual(found, [], "an import that is neither the package, the standard library "
                         "nor a dependency tools/pyproject.toml declares (test code, a module by "
                         "path, an undeclared package)")

    def test_every_dependency_is_a_debian_package(self):
        for name in requirement_names():
            with self.subTest(dependency=name):
                dist = importlib.metadata.distribution(name)
                where = str(dist.locate_file(""))
                self.assertEqual(os.path.realpath(where), DEBIAN_PYTHON)
                owner = subprocess.run(["dpkg", "-S", str(dist._path)], capture_output=True,
                                       text=True, check=False)  # its .egg-info / .dist-info
                self.assertEqual(owner.returncode, 0, owner.stderr)
                self.assertTrue(owner.stdout.startswith("python3-"), owner.stdout)

    def test_the_version_is_soapbenchs(self):
        with open(os.path.join(REPO, "CMakeLists.txt"), encoding="utf-8") as f:
            cmake = re.search(r"project\(soapbench VERSION (\S+)", f.read()).group(1)
        self.assertEqual(pyproject()["project"]["version"], cmake)


class EntryScriptsTest(unittest.TestCase):
    def test_thin_a_main_of_the_package_and_nothing_else(self):
        scripts = entry_scripts()
        self.assertIn("corpusgen", scripts.values())
        for module, name in scripts.items():
            with self.subTest(script=name):
                with open(os.path.join(TOOLS, name), encoding="utf-8") as f:
                    lines = f.read().splitlines()
                self.assertEqual(lines[0], "#!/usr/bin/python3")
                self.assertLessEqual(len(lines), ENTRY_MAX_LINES)
                self.assertIn(module, modules())

    def test_an_entry_script_ignores_a_foreign_sbtools_on_the_path(self):
        with tempfile.TemporaryDirectory(prefix="sb-foreign-") as other:
            os.makedirs(os.path.join(other, "sbtools"))
            with open(os.path.join(other, "sbtools", "__init__.py"), "w") as f:
                f.write("raise SystemExit('another checkout was imported')\n")
            proc = subprocess.run([PY, os.path.join(TOOLS, "results"), "--help"],
                                  capture_output=True, text=True, timeout=60,
                                  env=dict(os.environ, PYTHONPATH=other))
        self.assertEqual(proc.returncode, 0, proc.stderr)


class ModuleTestsTest(unittest.TestCase):
    """Every module has its own test: tests/**/test_<subpackage>_<module>.py (test_<module>.py for
    a top-level module, or one that imports it), the test of its command (test_<command>.py
    running tools/<command>), or the one test file its kind shares (SHARED_TESTS)."""

    def test_every_module_has_its_own_test(self):
        self.assertEqual(untested(), [], "write tests/tools/test_<subpackage>_<module>.py")

    def test_the_shared_tests_exist(self):
        for path in SHARED_TESTS:
            self.assertTrue(os.path.isfile(os.path.join(REPO, path)), path)


def untested():
    """The package's modules without their own test (ModuleTestsTest's rule)."""
    tests = {}
    for path in glob.glob(os.path.join(REPO, "tests", "**", "test_*.py"), recursive=True):
        tests.setdefault(os.path.basename(path), []).append(path)
    commands = entry_scripts()
    from sbtools.report import driver
    sections = {m.__name__ for m in driver.SECTIONS} | {"sbtools.report.summary",
                                                       "sbtools.report.reproduction"}
    out = []
    for module in modules():
        parts = module.split(".")[1:]
        own = tests.get(f"test_{'_'.join(parts)}.py", [])
        short = [p for p in tests.get(f"test_{parts[-1]}.py", []) if module in imported(p)]
        command = commands.get(module)
        by_command = [p for p in tests.get(f"test_{command}.py", [])
                      if re.search(r"""["'/]%s["']""" % re.escape(command or "\0"),
                                   open(p, encoding="utf-8").read())]
        shared = module in sections or module.startswith("sbtools.corpusgen.")
        if not (own or short or by_command or shared):
            out.append(module)
    return out


class WheelTest(unittest.TestCase):
    def test_pyproject_builds_a_wheel_of_every_module_and_asset(self):
        with tempfile.TemporaryDirectory(prefix="sb-wheel-") as tmp:
            src = os.path.join(tmp, "src")
            shutil.copytree(PACKAGE, os.path.join(src, "sbtools"),
                            ignore=shutil.ignore_patterns("__pycache__"))
            shutil.copy(os.path.join(TOOLS, "pyproject.toml"), src)
            build = subprocess.run(
                [PY, "-c", "import sys; from setuptools import build_meta as b; "
                 "print(b.build_wheel(sys.argv[1]))", os.path.join(tmp, "dist")],
                cwd=src, capture_output=True, text=True, timeout=300,
                env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
            self.assertEqual(build.returncode, 0, build.stderr[-2000:])
            wheel = os.path.join(tmp, "dist", build.stdout.split()[-1])
            with zipfile.ZipFile(wheel) as z:
                held = {n for n in z.namelist() if n.startswith("sbtools/")}
        want = {os.path.relpath(p, TOOLS) for p in glob.glob(os.path.join(PACKAGE, "**", "*"),
                                                              recursive=True)
                if os.path.isfile(p) and "__pycache__" not in p}
        self.assertEqual(sorted(want - held), [])


if __name__ == "__main__":
    if sys.argv[1:] == ["--list-untested"]:  # the modules without their own test, one a line
        print("\n".join(untested()))
    else:
        main()
