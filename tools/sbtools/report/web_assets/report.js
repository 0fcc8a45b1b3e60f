// The report page's script (tools/report --html): lets every table sort by a column and filter
// its rows (text, family, model, library), names a family in full where a table shows its short
// label, opens the folded tables and charts for printing, and starts the charts (charts.js, which
// also reads the page's data into DATA). No network: everything is in the page or beside it.
"use strict";

// --- tables ---------------------------------------------------------------------------------

const NUMBER = /^[^\d-]*(-?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?)/i;

function cellValue(td) {
  const t = td ? td.textContent.trim() : "";
  const m = t.match(NUMBER);
  return {text: t, num: m && !/^[A-Za-z`]/.test(t) ? parseFloat(m[1].replace(/,/g, "")) : null};
}

function sortBy(table, col, button) {
  const th = button.closest("th");
  const asc = th.getAttribute("aria-sort") !== "ascending";
  table.querySelectorAll("thead th").forEach((h) => h.removeAttribute("aria-sort"));
  th.setAttribute("aria-sort", asc ? "ascending" : "descending");
  const body = table.tBodies[0];
  const rows = [...body.rows];
  const vals = rows.map((r) => cellValue(r.cells[col]));
  const numeric = vals.every((v) => v.num !== null || v.text === "" || v.text === "–");
  const order = rows.map((r, i) => i).sort((a, b) => {
    const x = vals[a]; const y = vals[b];
    let d;
    if (numeric) {
      const xn = x.num === null ? Infinity : x.num; const yn = y.num === null ? Infinity : y.num;
      d = xn === yn ? 0 : (xn < yn ? -1 : 1);
    } else {
      d = x.text.localeCompare(y.text, undefined, {numeric: true});
    }
    return asc ? d || a - b : -d || a - b;
  });
  order.forEach((i) => body.appendChild(rows[i]));
}

function tagRows(table) {
  // A row naming an adapter (in a code cell) takes its library and model, for the filters.
  let tagged = 0;
  for (const row of table.tBodies[0].rows) {
    for (const code of row.querySelectorAll("td code, th code")) {
      const name = code.textContent.trim().replace(/\//g, "-");
      const facts = DATA.adapters[name];
      if (facts) {
        row.dataset.library = facts.library;
        row.dataset.model = facts.model;
        tagged += 1;
        break;
      }
    }
  }
  return tagged;
}

function select(label, values, onChange) {
  const wrap = document.createElement("label");
  wrap.textContent = `${label} `;
  const s = document.createElement("select");
  s.dataset.filter = label;
  s.append(new Option("all", ""));
  values.forEach((v) => s.append(new Option(v, v)));
  s.addEventListener("change", onChange);
  wrap.appendChild(s);
  return wrap;
}

function setUpFilters(table, familyCol, tagged) {
  const bar = document.createElement("div");
  bar.className = "filters";
  const box = document.createElement("input");
  box.type = "search";
  box.placeholder = "filter rows (text)";
  box.setAttribute("aria-label", "filter the table's rows by text");
  const count = document.createElement("span");
  count.className = "count";
  const rows = [...table.tBodies[0].rows];
  const selects = {};
  const apply = () => {
    const q = box.value.trim().toLowerCase();
    let shown = 0;
    for (const r of rows) {
      const fam = familyCol >= 0 && r.cells[familyCol] ? r.cells[familyCol].textContent.trim() : "";
      const ok = (!q || r.textContent.toLowerCase().includes(q)) &&
        (!selects.family || !selects.family.value || fam === selects.family.value) &&
        (!selects.model || !selects.model.value || r.dataset.model === selects.model.value) &&
        (!selects.library || !selects.library.value || r.dataset.library === selects.library.value);
      r.hidden = !ok;
      shown += ok ? 1 : 0;
    }
    count.textContent = `${shown} of ${rows.length} rows`;
  };
  box.addEventListener("input", apply);
  bar.appendChild(box);
  const distinct = (f) => [...new Set(rows.map(f).filter((v) => v))].sort();
  if (familyCol >= 0) {
    const fams = distinct((r) => r.cells[familyCol] && r.cells[familyCol].textContent.trim());
    if (fams.length > 1) {
      const w = select("family", fams, apply);
      selects.family = w.querySelector("select");
      bar.appendChild(w);
    }
  }
  if (tagged) {
    for (const key of ["model", "library"]) {
      const vals = distinct((r) => r.dataset[key]);
      if (vals.length > 1) {
        const w = select(key, vals, apply);
        selects[key] = w.querySelector("select");
        bar.appendChild(w);
      }
    }
  }
  bar.appendChild(count);
  apply();
  return bar;
}

function setUpTable(table, n) {
  if (!table.tHead || !table.tBodies.length) return;
  table.id = table.id || `table-${n}`;
  const heads = [...table.tHead.rows[0].cells];
  let familyCol = -1;
  heads.forEach((th, col) => {
    const label = th.textContent.trim();
    if (label.toLowerCase() === "family") familyCol = col;
    const b = document.createElement("button");
    b.type = "button";
    b.className = "sort";
    b.title = `sort by ${label}`;
    while (th.firstChild) b.appendChild(th.firstChild);
    th.appendChild(b);
    b.addEventListener("click", () => sortBy(table, col, b));
  });
  const wrap = document.createElement("div");
  wrap.className = "table-wrap";
  table.parentNode.insertBefore(wrap, table);
  wrap.appendChild(table);
  if (table.tBodies[0].rows.length > 3) {
    wrap.parentNode.insertBefore(setUpFilters(table, familyCol, tagRows(table)), wrap);
  }
}

function setUpTables() {
  document.querySelectorAll("section.section table").forEach(setUpTable);
}

// A cell or heading that is a family's short label or code (s11-enc, soap11-rpc-encoded) says
// its full name on hover.
function nameFamilies() {
  const titles = DATA.familyTitles || {};
  for (const cell of document.querySelectorAll("section.section th, section.section td")) {
    const t = titles[cell.textContent.trim()];
    if (t && !cell.title) cell.title = t;
  }
}

setUpTables();
nameFamilies();
setUpCharts();
window.addEventListener("beforeprint", () => {
  document.querySelectorAll("details.fold").forEach((d) => { d.open = true; });
});
