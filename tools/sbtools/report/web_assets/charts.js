// The report page's charts (tools/report --html): drawn by Chart.js 3.9.1 (Debian libjs-chart.js)
// from the specifications embedded in the page (report/webcharts.py) when they come near the
// screen. Every series gets a colour and a style (a bar's fill pattern, a line's dash and point
// shape) that no other series of the same chart has, and keeps them on every chart; the legend is
// HTML under the chart (it wraps, so no entry is ever cut or hidden; click an entry to hide its
// series). A bar chart too narrow for its bars (a phone) is drawn across, as tall as its bars
// need. Each chart's data is offered as CSV.
"use strict";

const DATA = JSON.parse(document.getElementById("report-data").textContent);
// Twelve hues that stay apart (Tableau 10 and two darker ones) times four styles: 48 series of
// one chart look distinct.
const PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
  "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#843c39"];
const STYLES = ["solid", "stripes", "dots", "lines"];
const DASHES = [[], [6, 3], [2, 2], [9, 3, 2, 3]];
const POINTS = ["circle", "triangle", "rect", "rectRot"];
const LEVEL_COLORS = {parse: "#4c72b0", walk: "#dd8452", decode: "#55a868"};
const MIN_BAR_PX = 6;    // thinner bars turn the chart across
const BAR_ROW_PX = 10;   // height per bar of a chart drawn across
const STACK_ROW_PX = 22; // height per stacked bar
const WIDE_BARS = 40;    // a bar chart with more bars takes the figure's whole width
// A series' own index: its place among the page's adapters, or among its families.
const seriesIndex = new Map(DATA.series.flatMap((group) => group.map((s, i) => [s, i])));

// [{color, style}] of a spec's datasets: the series' own pair (by its index among the page's
// adapters or families; other series by their place in the chart), the next free one when
// another series of this chart has it.
function looks(spec) {
  const n = PALETTE.length * STYLES.length;
  const used = new Set();
  return spec.datasets.map((d, i) => {
    if (LEVEL_COLORS[d.label]) return {color: LEVEL_COLORS[d.label], style: 0};
    let k = (seriesIndex.has(d.label) ? seriesIndex.get(d.label) : i) % n;
    for (let tries = 0; used.has(k) && tries < n; tries += 1) k = (k + 1) % n;
    used.add(k);
    return {color: PALETTE[k % PALETTE.length], style: Math.floor(k / PALETTE.length)};
  });
}

const patterns = new Map();

// A bar's fill: the colour, with white stripes, dots or lines over it for styles 1-3.
function fillFor(color, style) {
  if (!style) return color;
  const key = `${color}${style}`;
  if (patterns.has(key)) return patterns.get(key);
  const c = document.createElement("canvas");
  c.width = 8;
  c.height = 8;
  const x = c.getContext("2d");
  x.fillStyle = color;
  x.fillRect(0, 0, 8, 8);
  x.fillStyle = x.strokeStyle = "rgba(255, 255, 255, 0.9)";
  x.lineWidth = 2;
  x.beginPath();
  if (style === 1) {
    x.moveTo(-1, 9); x.lineTo(9, -1);
    x.moveTo(-1, 1); x.lineTo(1, -1);
    x.moveTo(7, 9); x.lineTo(9, 7);
  } else if (style === 3) {
    x.moveTo(0, 2); x.lineTo(8, 2); x.moveTo(0, 6); x.lineTo(8, 6);
  }
  x.stroke();
  if (style === 2) { x.fillRect(1, 1, 3, 3); x.fillRect(5, 5, 3, 3); }
  const p = x.createPattern(c, "repeat");
  patterns.set(key, p);
  return p;
}

function datasetStyle(spec, look) {
  const line = spec.type !== "bar";
  return {backgroundColor: line ? look.color : fillFor(look.color, look.style),
    borderColor: look.color, borderWidth: line ? 1.5 : 1, borderDash: DASHES[look.style],
    pointStyle: POINTS[look.style], pointRadius: line ? 3.5 : 0, showLine: spec.type === "line"};
}

const refLine = {  // a dashed line at the value spec.ref (the decode chart's 1.0)
  id: "refLine",
  afterDraw(chart, _args, opts) {
    if (opts.value === undefined || opts.value === null) return;
    const across = chart.options.indexAxis === "y";
    const scale = across ? chart.scales.x : chart.scales.y;
    const at = scale.getPixelForValue(opts.value);
    const a = chart.chartArea;
    const ctx = chart.ctx;
    ctx.save();
    ctx.strokeStyle = "#757575";
    ctx.setLineDash([4, 3]);
    ctx.beginPath();
    if (across) { ctx.moveTo(at, a.top); ctx.lineTo(at, a.bottom); } else {
      ctx.moveTo(a.left, at); ctx.lineTo(a.right, at);
    }
    ctx.stroke();
    ctx.restore();
  },
};

// The value axis (spec.y, spec.logy) and the other one, whichever way the bars run.
function scales(spec, across) {
  const title = (t) => ({display: !!t, text: t || ""});
  const xy = !spec.labels;
  const x = {stacked: !!spec.stacked, title: title(spec.x)};
  const y = {stacked: !!spec.stacked, title: title(spec.y)};
  if (spec.logx) x.type = "logarithmic"; else if (xy) x.type = "linear";
  if (spec.logy) y.type = "logarithmic";
  if (!across || spec.horizontal) return {x, y};
  return {x: Object.assign(y, {position: "bottom"}), y: Object.assign(x, {type: "category"})};
}

function chartConfig(spec, across, styles) {
  const xy = !spec.labels;
  const datasets = spec.datasets.map((d, i) => Object.assign(
    {label: d.label, data: d.data, spanGaps: true, skipNull: true}, styles[i]));
  return {
    type: spec.type,
    data: xy ? {datasets} : {labels: spec.labels, datasets},
    options: {
      animation: false, responsive: true, maintainAspectRatio: false,
      indexAxis: across ? "y" : "x",
      interaction: {mode: spec.type === "bar" ? "nearest" : "point", intersect: true},
      scales: scales(spec, across),
      plugins: {
        title: {display: true, text: spec.title},
        legend: {display: false},
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

// Bars side by side in the widest category (nulls take no room), or 1 when stacked.
function barsPerCategory(spec) {
  if (spec.stacked) return 1;
  return Math.max(1, ...spec.labels.map((_l, i) => spec.datasets.filter(
    (d) => d.data[i] !== null && d.data[i] !== undefined).length));
}

// Whether a bar chart must run across to give each bar MIN_BAR_PX at this width.
function runsAcross(spec, width) {
  if (spec.type !== "bar") return false;
  if (spec.horizontal) return true;
  const bars = spec.labels.length * barsPerCategory(spec);
  return (width - 70) * 0.72 / bars < MIN_BAR_PX;  // 0.8 × 0.9: Chart.js's category and bar share
}

function swatch(spec, look) {
  const c = document.createElement("canvas");
  c.width = 30;
  c.height = 14;
  c.className = "swatch";
  const x = c.getContext("2d");
  if (spec.type === "bar") {
    x.fillStyle = fillFor(look.color, look.style);
    x.fillRect(1, 1, 28, 12);
    x.strokeStyle = look.color;
    x.strokeRect(1.5, 1.5, 27, 11);
    return c;
  }
  x.strokeStyle = x.fillStyle = look.color;
  x.lineWidth = 2;
  if (spec.type === "line") {
    x.setLineDash(DASHES[look.style]);
    x.beginPath(); x.moveTo(0, 7); x.lineTo(30, 7); x.stroke();
    x.setLineDash([]);
  }
  Chart.helpers.drawPoint(x, {pointStyle: POINTS[look.style], radius: 4, borderWidth: 1}, 15, 7);
  return c;
}

// The HTML legend of one chart: every series, wrapping; a click hides or shows it.
function legendFor(chart, spec, styles) {
  const list = document.createElement("ul");
  list.className = "legend";
  spec.datasets.forEach((d, i) => {
    const item = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.setAttribute("aria-pressed", "true");
    b.dataset.swatch = `${styles[i].color}|${STYLES[styles[i].style]}`;
    b.title = `${d.label}: click to hide or show`;
    const label = document.createElement("span");
    label.textContent = d.label;
    b.append(swatch(spec, styles[i]), label);
    b.addEventListener("click", () => {
      const shown = !chart.isDatasetVisible(i);
      chart.setDatasetVisibility(i, shown);
      b.setAttribute("aria-pressed", String(shown));
      chart.update();
    });
    item.appendChild(b);
    list.appendChild(item);
  });
  return list;
}

function drawSpec(el, spec) {
  const box = document.createElement("div");
  box.className = "chart-box";
  const canvasBox = document.createElement("div");
  canvasBox.className = "canvas-box";
  const canvas = document.createElement("canvas");
  canvas.setAttribute("role", "img");
  canvas.setAttribute("aria-label", `${spec.title} (chart; its data: the CSV link below)`);
  canvasBox.appendChild(canvas);
  box.appendChild(canvasBox);
  if (spec.type === "bar" && spec.labels.length * barsPerCategory(spec) > WIDE_BARS) {
    box.classList.add("wide");
  }
  el.insertBefore(box, el.querySelector("figcaption"));
  const across = runsAcross(spec, canvasBox.clientWidth);
  if (across) {
    const row = spec.stacked ? STACK_ROW_PX : BAR_ROW_PX * barsPerCategory(spec) / 0.8;
    canvasBox.style.height = `${Math.round(Math.max(240, row * spec.labels.length + 90))}px`;
    box.classList.add("across");
  }
  const styles = looks(spec).map((l) => Object.assign(datasetStyle(spec, l), l));
  const chart = new Chart(canvas, chartConfig(spec, across, styles));
  box.appendChild(legendFor(chart, spec, styles));
  canvas.dataset.rendered = "1";
}

function drawFigure(el) {
  if (el.dataset.drawn) return;
  el.dataset.drawn = "1";
  const fig = DATA.charts[el.dataset.chart];
  el.classList.toggle("single", fig.specs.length === 1);  // one chart: the figure's full width
  fig.specs.forEach((spec) => drawSpec(el, spec));
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
