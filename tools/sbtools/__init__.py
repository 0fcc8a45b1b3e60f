"""sbtools: soapbench's result tools as one importable package (tools/pyproject.toml).

The executables in tools/ (report, compare, icount, results, track, ...) are thin entry points
over these modules: Python puts a script's own folder first on its path, so they find this
package beside them. Tests find it on PYTHONPATH, which their registration sets
(sb_python_test, cmake/python_tests.cmake); no file changes the path (docs/architecture.md
"The Python package"). Tests: tests/tools/, one file per module.
"""
