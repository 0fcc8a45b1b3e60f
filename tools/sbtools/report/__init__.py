"""tools/report as modules: data.py reads the result files, one module per report section
(each computes its data first, then renders Markdown from it), driver.py puts them together.

A section module has TITLE, compute(run) -> data or None (None: no section) and
markdown(data, charts) -> str; run is a report.run.Run. The data are plain values (numbers,
names, lists of rows) so another renderer (an HTML page) can use them.
"""
