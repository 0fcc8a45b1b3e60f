// The dashboard's pages (tools/track site): a card per series built from the data embedded in
// the page, its chart drawn by Chart.js 3.9.1 when the card scrolls into view. Each drawn canvas
// gets data-rendered="true" (the browser test waits for it).
"use strict";

(function () {
  const data = JSON.parse(document.getElementById("data").textContent);
  const runs = data.runs;

  function label(r) {
    const run = runs[r];
    return run.c.slice(0, 7) + " " + run.d.slice(5, 10);
  }

  function bandAt(s, i, side) {
    for (const b of s.bands) {
      if (i >= b[0] && i < b[1]) return b[side];
    }
    return null;
  }

  function datasets(s) {
    const n = s.v.length;
    const idx = [...Array(n).keys()];
    const marks = idx.map(() => null);
    const colors = idx.map(() => "transparent");
    for (const cp of s.cps) {
      marks[cp.i] = s.v[cp.i];
      colors[cp.i] = cp.reg ? "#c62828" : "#2e7d32";
    }
    const out = [
      {label: "band low", data: idx.map((i) => bandAt(s, i, 2)), borderWidth: 0,
       pointRadius: 0, fill: false, stepped: "middle"},
      {label: "noise band", data: idx.map((i) => bandAt(s, i, 3)), borderWidth: 0,
       pointRadius: 0, fill: "-1", backgroundColor: "rgba(33, 150, 243, 0.15)",
       stepped: "middle"},
      {label: s.m, data: s.v, borderColor: "#1565c0", backgroundColor: "#1565c0",
       borderWidth: 1.5, pointRadius: 2, fill: false},
      {label: "change points", data: marks, showLine: false, pointStyle: "triangle",
       pointRadius: 8, pointBackgroundColor: colors, pointBorderColor: colors},
    ];
    if (s.raw) {
      out.push({label: "as measured", data: s.raw, borderColor: "#9e9e9e", borderWidth: 1,
                pointRadius: 0, fill: false});
    }
    return out;
  }

  function draw(card) {
    const canvas = card.querySelector("canvas");
    if (canvas.dataset.rendered) return;
    const s = data.series[Number(card.dataset.series)];
    const chart = new Chart(canvas, {
      type: "line",
      data: {labels: (s.r || [...Array(s.v.length).keys()]).map(label), datasets: datasets(s)},
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: {
          legend: {display: false},
          tooltip: {filter: (item) => item.datasetIndex >= 2 && item.raw !== null},
        },
        scales: {y: {title: {display: true, text: s.u}}, x: {ticks: {maxRotation: 0,
                                                                      autoSkip: true}}},
      },
    });
    canvas.dataset.rendered = "true";
    canvas.dataset.points = String(chart.data.datasets[2].data.length);
    canvas.dataset.changepoints = String(s.cps.length);
  }

  function pct(x) {
    return (x >= 0 ? "+" : "") + (x * 100).toFixed(2) + "%";
  }

  function element(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // One card per series: title, chart, change points (the DOM the browser test reads). Its id
  // is s<position in the suite's order>, the same on whichever page it is.
  function card(s, n) {
    const div = element("div", {class: "series", id: "s" + (data.first + n), "data-series": n,
                                "data-name": s.b, "data-metric": s.m,
                                "data-changepoints": s.cps.length});
    const h3 = element("h3", {}, s.b + " ");
    h3.appendChild(element("small", {}, s.m + ", " + s.v.length + " runs, noise floor " +
                                        (s.f * 100).toFixed(2) + "%" +
                                        (s.weak ? ", " + s.weak + " weaker change points " +
                                                  "below the suite's multiplicity" : "")));
    if (s.o) h3.appendChild(element("span", {class: "open"}, "open regression"));
    div.appendChild(h3);
    const chart = element("div", {class: "chart"});
    chart.appendChild(element("canvas"));
    div.appendChild(chart);
    const ul = element("ul", {class: "changepoints"});
    const pos = s.r || [...Array(s.v.length).keys()];
    for (const cp of s.cps) {
      const run = runs[pos[cp.i]];
      let text = "run " + (cp.i + 1) + " (" + run.c + ", " + run.d.slice(0, 10) + "): " +
                 pct(cp.s);
      if (cp.lo !== cp.hi) text += " [" + pct(cp.lo) + ", " + pct(cp.hi) + "]";
      if (cp.p !== null) text += ", p=" + cp.p.toFixed(3);
      if (cp.q !== null && cp.q !== undefined) text += " (" + cp.q + " over the suite)";
      ul.appendChild(element("li", {class: cp.reg ? "reg" : "imp", "data-index": cp.i}, text));
    }
    div.appendChild(ul);
    return div;
  }

  const holder = document.getElementById("series");
  data.series.forEach((s, n) => holder.appendChild(card(s, n)));
  if (location.hash) {
    const target = document.getElementById(location.hash.slice(1));
    if (target) target.scrollIntoView();
  }

  const cards = [...document.querySelectorAll(".series")];
  const observer = new IntersectionObserver((entries) => {
    for (const e of entries) {
      if (e.isIntersecting) {
        draw(e.target);
        observer.unobserve(e.target);
      }
    }
  }, {rootMargin: "400px"});
  cards.forEach((c) => observer.observe(c));

  const filter = document.getElementById("filter");
  const shown = document.getElementById("shown");
  const elsewhere = document.getElementById("elsewhere");
  const MAX_ELSEWHERE = 50;

  function pageFile(page) {
    const base = location.pathname.split("/").pop().replace(/(\.p\d+)?\.html$/, "");
    return base + (page === 1 ? "" : ".p" + page) + ".html";
  }

  // The series of the other pages that match, from the names script (loaded on first use:
  // a script element, since a page opened from disk may not fetch).
  function listElsewhere(re) {
    elsewhere.textContent = "";
    if (!data.names || !re || !filter.value) return;
    if (!window.SB_NAMES) {
      if (!document.getElementById("names")) {
        const script = element("script", {id: "names", src: data.names});
        script.addEventListener("load", apply);
        document.body.appendChild(script);
      }
      return;
    }
    const hits = window.SB_NAMES.filter(([b, m, page]) => page !== data.page &&
                                                          (re.test(b) || re.test(m)));
    for (const [b, m, page, n] of hits.slice(0, MAX_ELSEWHERE)) {
      const li = element("li");
      li.appendChild(element("a", {href: pageFile(page) + "#s" + n}, b + " (" + m + ")"));
      li.appendChild(document.createTextNode(" on page " + page));
      elsewhere.appendChild(li);
    }
    if (hits.length) {
      elsewhere.insertBefore(element("li", {class: "count"}, hits.length +
                                        " matching series on other pages" +
                                        (hits.length > MAX_ELSEWHERE ? " (the first " +
                                         MAX_ELSEWHERE + " listed)" : "")),
                             elsewhere.firstChild);
    }
  }

  function apply() {
    let re = null;
    try {
      re = new RegExp(filter.value, "i");
    } catch (e) {
      re = null;
    }
    let n = 0;
    for (const c of cards) {
      const ok = !re || re.test(c.dataset.name) || re.test(c.dataset.metric);
      c.style.display = ok ? "" : "none";
      n += ok ? 1 : 0;
    }
    shown.textContent = n + " of " + cards.length + " series on this page" +
                        (data.pages > 1 ? " (" + data.total + " on " + data.pages + " pages)" : "");
    listElsewhere(re);
  }
  filter.addEventListener("input", apply);
  apply();
})();
