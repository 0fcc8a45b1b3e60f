"""A section of the web page laid out for reading (report.page): its charts first (README: "charts
first"), then its text and tables; a table of more than FOLD_ROWS rows, every table after the
first OPEN_TABLES, a list of more than FOLD_ITEMS items and every chart after the first folded
into a closed <details> whose summary says what is inside, so a section is a few screens long
and all of it one click away.

Works on the HTML python3-markdown writes from a section's Markdown: tables and lists as
<table>…</table>, <ul>…</ul> (the report writes no nested lists), charts as the <figure> lines
report.webcharts writes.
"""
import html
import re

FOLD_ROWS = 30     # a table with more body rows starts closed
OPEN_TABLES = 2    # the tables of a section shown open (when short), the later ones closed
FOLD_ITEMS = 8     # a list with more items starts closed
SUMMARY_HEADS = 5  # column names a closed table's summary lists

FIGURE = re.compile(r'<figure class="chart-figure"[^>]*>.*?</figure>\n?', re.S)
CAPTION = re.compile(r"<figcaption>(.*?)</figcaption>", re.S)
TABLE = re.compile(r"<table>.*?</table>", re.S)
LIST = re.compile(r"<ul>\n.*?</ul>", re.S)
NOTE = re.compile(r"<p><em>Not from this run:.*?</p>\n?", re.S)  # driver.section_markdown's


def _text(fragment):
    return html.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()


def details(summary, inner, kind):
    return (f'<details class="fold fold-{kind}"><summary>{html.escape(summary)}</summary>\n'
            f"{inner}\n</details>")


def fold_table(table, index):
    """The index-th table of a section, folded when long or late."""
    body = table.split("<tbody>", 1)[-1]
    rows = body.count("<tr")
    if rows <= FOLD_ROWS and index < OPEN_TABLES:
        return table
    heads = [_text(h) for h in re.findall(r"<th[^>]*>(.*?)</th>", table.split("</thead>")[0], re.S)]
    shown = ", ".join(heads[:SUMMARY_HEADS]) + (", …" if len(heads) > SUMMARY_HEADS else "")
    return details(f"Table of {rows} rows ({shown})", table, "table")


def fold_list(m):
    items = m.group(0).count("<li>")
    if items <= FOLD_ITEMS:
        return m.group(0)
    first = _text(m.group(0).split("<li>", 2)[1].split("</li>")[0])
    return details(f"List of {items} items ({first[:80]}{'…' if len(first) > 80 else ''}; …)",
                   m.group(0), "list")


def charts_first(body):
    """The body with its figures moved to the top (after a 'Not from this run' note), every one
    after the first folded."""
    figures = FIGURE.findall(body)
    if not figures:
        return body
    rest = FIGURE.sub("", body)
    note = NOTE.match(rest)
    head, rest = (note.group(0), rest[note.end():]) if note else ("", rest)
    top = figures[0].rstrip("\n")
    if len(figures) > 1:
        names = [_text(m.group(1)) for m in map(CAPTION.search, figures[1:]) if m]
        top += "\n" + details(f"{len(figures) - 1} more charts: " + "; ".join(names),
                              "".join(figures[1:]), "charts")
    return f"{head}{top}\n{rest}"


def lay_out(body):
    """A section body's HTML as the page shows it."""
    tables = iter(range(1 << 30))
    body = TABLE.sub(lambda m: fold_table(m.group(0), next(tables)), body)
    body = LIST.sub(fold_list, body)
    return charts_first(body)
