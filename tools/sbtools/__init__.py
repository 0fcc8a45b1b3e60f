"""sbtools: soapbench's result tools as one importable package.

The executables in tools/ (report, compare, icount, results, track, ...) are thin entry points
over these modules; Python puts tools/ on sys.path when one of them runs, so `import sbtools`
needs no path manipulation. Tests: tests/tools/, one file per module.
"""
