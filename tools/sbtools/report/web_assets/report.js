// The report page's script (tools/report --html): draws the charts from the data embedded in
// the page (Chart.js 3.9.1, Debian libjs-chart.js) when they come near the screen, lets every
// table sort by a column and filter its rows (text, family, model, library), and offers each
// chart's data as CSV. No network: everything is in the page or beside it.
"use strict";

const DATA = JSON.parse(document.getElementById("report-data").textContent);
// Tableau 20, the palette the SVG charts use: one colour per series name, the same everywhere.
const PALETTE = ["#1f77b4", "#aec7e8", "#ff7f0e", "#ffbb78", "#2ca02c", "#98df8a", "#d62728",
  "#ff9896", "#9467bd", "#c5b0d5", "#8c564b", "#c49c94", "#e377c2", "#f7b6d2", "#7f7f7f",
  "#c7c7c7", "#bcbd22", "#dbdb8d", "#17becf", "#9edae5"];
const LEVEL_COLORS = {parse: "#4c72b0", walk: "#dd8452", decode: "#55a868"};
const seriesIndex = new Map(DATA.series.map((s, i) => [s, i]));

function colorOf(name, i) {
  if (LEVEL_COLORS[name]) return LEVEL_COLORS[name];
  const k = seriesIndex.has(name) ? seriesIndex.get(name) : DATA.series.length + i;
  return PALETTE[k % PALETTE.length];
}

// --- charts ---------------------------------------------------------------------------------

const refLine = {  // a dashed horizontal line at spec.ref (the decode chart's 1.0)
  id: "refLine",
  afterDraw(chart, _args, opts) {
    if (opts.value === undefined || opts.value === null) return;
    const y = chart.scales.y.getPixelForValue(opts.value);
    const ctx = chart.ctx;
    ctx.save();
    ctx.strokeStyle = "#757575";
    ctx.setLineDash([4, 3]);
    ctx.beginPath();
    ctx.moveTo(chart.chartArea.left, y);
    ctx.lineTo(chart.chartArea.right, y);
    ctx.stroke();
    ctx.restore();
  },
};

function axis(spec, which) {
  const log = which === "x" ? spec.logx : spec.logy;
  const title = spec[which];
  const xy = !spec.labels;
  const out = {stacked: !!spec.stacked,
    title: {display: !!title, text: title || ""}};
  if (log) out.type = "logarithmic";
  else if (which === "x" && xy) out.type = "linear";
  return out;
}

function chartConfig(spec) {
  const xy = !spec.labels;
  const datasets = spec.datasets.map((d, i) => {
    const c = colorOf(d.label, i);
    return {label: d.label, data: d.data, backgroundColor: c, borderColor: c,
      borderWidth: spec.type === "line" ? 1.5 : 0, pointRadius: 3, spanGaps: true,
      showLine: spec.type === "line"};
  });
  const many = datasets.length > 12;
  return {
    type: spec.type,
    data: xy ? {datasets} : {labels: spec.labels, datasets},
    options: {
      animation: false, responsive: true, maintainAspectRatio: false,
      indexAxis: spec.horizontal ? "y" : "x",
      interaction: {mode: spec.type === "bar" ? "nearest" : "point", intersect: true},
      scales: spec.horizontal ? {x: axis(spec, "x"), y: {stacked: !!spec.stacked}}
        : {x: axis(spec, "x"), y: axis(spec, "y")},
      plugins: {
        title: {display: true, text: spec.title},
        legend: {position: many ? "right" : "top", labels: {boxWidth: 10, font: {size: 10}}},
        refLine: {value: spec.ref},
        tooltip: {callbacks: {label: (item) => {
          const p = item.raw;
          const v = (typeof p === "object" && p !== null) ? `${p.x}, ${p.y}` : p;
          const name = (typeof p === "object" && p && p.name) ? ` ${p.name}` : "";
          return `${item.dataset.label}${name}: ${v}`;
        }}},
      },
    },
    plugins: [refLine],
  };
}

function csvCell(v) {
  const s = v === null || v === undefined ? "" : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function figureCsv(fig) {
  const rows = [["chart", "series", "x", "y", "name"]];
  for (const spec of fig.specs) {
    for (const d of spec.datasets) {
      d.data.forEach((p, i) => {
        if (p !== null && typeof p === "object") rows.push([spec.title, d.label, p.x, p.y, p.name]);
        else rows.push([spec.title, d.label, spec.labels ? spec.labels[i] : i, p, ""]);
      });
    }
  }
  return rows.map((r) => r.map(csvCell).join(",")).join("\n") + "\n";
}

function drawFigure(el) {
  if (el.dataset.drawn) return;
  el.dataset.drawn = "1";
  const fig = DATA.charts[el.dataset.chart];
  el.classList.toggle("single", fig.specs.length === 1);  // one chart: the figure's full width
  for (const spec of fig.specs) {
    const box = document.createElement("div");
    box.className = "chart-box" + (spec.horizontal ? " tall" : "");
    if (spec.horizontal) box.style.height = `${Math.max(240, 22 * spec.labels.length + 90)}px`;
    const canvas = document.createElement("canvas");
    canvas.setAttribute("role", "img");
    canvas.setAttribute("aria-label", `${spec.title} (chart; its data: the CSV link below)`);
    box.appendChild(canvas);
    el.insertBefore(box, el.querySelector("figcaption"));
    new Chart(canvas, chartConfig(spec));  // eslint-disable-line no-new
    canvas.dataset.rendered = "1";
  }
}

function setUpFigure(el, observer) {
  const fig = DATA.charts[el.dataset.chart];
  const link = document.createElement("a");
  link.className = "csv";
  link.textContent = "data as CSV";
  link.download = `${el.dataset.chart}.csv`;
  link.href = URL.createObjectURL(new Blob([figureCsv(fig)], {type: "text/csv"}));
  el.querySelector("figcaption").append(" · ", link);
  if (observer) observer.observe(el);
  else drawFigure(el);
}

function setUpCharts() {
  const figures = [...document.querySelectorAll("figure[data-chart]")];
  const observer = "IntersectionObserver" in window ? new IntersectionObserver((entries) => {
    for (const e of entries) {
      if (e.isIntersecting) {
        drawFigure(e.target);
        observer.unobserve(e.target);
      }
    }
  }, {rootMargin: "300px"}) : null;
  figures.forEach((el) => setUpFigure(el, observer));
  window.addEventListener("beforeprint", () => figures.forEach(drawFigure));
}

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

setUpTables();
setUpCharts();
