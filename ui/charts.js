// @ts-check
import { h, show } from "./dom.js";

/**
 * Charts drawn by Chart.js (the package's own UMD build, served by the server at vendor/chart.js/: no CDN), each
 * in a <figure> with a caption, an accessible name on its canvas (role img) and its numbers in a <table>, so a
 * screen reader, a keyboard user and a test read what the picture shows. Drawn without animation: a projector
 * shows the numbers at once, and the same numbers draw the same picture.
 * @typedef {{ label: string, values: number[], color?: string }} Series
 * @typedef {{ kind: "line" | "bar", title: string, labels: string[], series: Series[], unit: string }} ChartData
 */

/** @returns {any} Chart.js's global, set by its UMD script before the modules run */
const chartJs = () => /** @type {any} */ (window).Chart;

const COLORS = ["#0b5cad", "#1a7f37", "#9a6700", "#8250df", "#cf222e"];
/** The page's ink: the charts' text as dark as the rest, for a projector, not Chart.js's pale grey. */
const INK = "#1b1f24";
/** The type size the charts' text has at the page's normal size (16 px); Large type scales it with the page. */
const BASE_FONT_PX = 13;

/**
 * How much larger than normal the page's type is (1 normally, 1.5 in Large type): read from the root's font
 * size, so the charts' text, lines and points grow with whatever makes the page's text grow.
 */
function scale() {
  const root = Number.parseFloat(getComputedStyle(document.documentElement).fontSize);
  return Number.isFinite(root) && root > 0 ? root / 16 : 1;
}

/** Every chart on the page, to draw again at a new type size. */
/** @type {Set<{ redraw(): void }>} */
const drawn = new Set();

/** Draws every chart again at the page's type size (Large type was switched on or off). */
export function rescaleCharts() {
  for (const chart of drawn) chart.redraw();
}

/**
 * A figure that draws `data` now and again whenever `update` gets new numbers; the chart is made once and its
 * data replaced, so a refresh under load costs a redraw, not a new canvas.
 * @param {string} id
 */
export function chartFigure(id) {
  const canvas = h("canvas", { id: `${id}-canvas`, role: "img" });
  const caption = h("figcaption", { id: `${id}-caption` });
  const table = h("table", { className: "numbers" });
  const numbers = h("details", { className: "chart-numbers" }, h("summary", null, "The numbers"), table);
  const figure = h(
    "figure",
    { className: "chart", id, "aria-labelledby": `${id}-caption` },
    caption,
    h("div", { className: "chart-box" }, canvas),
    numbers,
  );
  /** @type {any} */
  let chart;
  /** @type {string} */
  let shown = "";
  /** @type {ChartData | undefined} */
  let last;
  /** @type {number} */
  let drawnAt = 0;
  function draw() {
    if (!last) return;
    const factor = scale();
    const config = configOf(last, factor);
    const Chart = chartJs();
    if (!Chart) return;
    if (chart && chart.config.type === last.kind && drawnAt === factor) {
      chart.data = config.data;
      chart.update("none");
    } else {
      chart?.destroy();
      chart = new Chart(canvas, config);
    }
    drawnAt = factor;
  }
  const self = {
    figure,
    /** @param {ChartData} data */
    update(data) {
      const key = JSON.stringify(data);
      if (key === shown) return;
      shown = key;
      last = data;
      show(caption, data.title);
      canvas.setAttribute("aria-label", `${data.title}. ${summaryOf(data)}`);
      show(table, ...tableOf(data));
      draw();
    },
    /** Draws it again when the type size changed since it was drawn. */
    redraw() {
      if (drawnAt !== scale()) draw();
    },
  };
  drawn.add(self);
  return self;
}

/** @param {ChartData} data */
function summaryOf(data) {
  const last = data.labels.length - 1;
  if (data.kind === "line")
    return data.series
      .map((s) => `${s.label}: ${fmt(s.values[last] ?? 0)} ${data.unit} at ${data.labels[last] ?? ""}`)
      .join("; ");
  return data.labels
    .map((label, i) => `${label}: ${data.series.map((s) => fmt(s.values[i] ?? 0)).join(", ")} ${data.unit}`)
    .join("; ");
}

/** @param {number} value */
const fmt = (value) => value.toLocaleString("en");

/** @param {ChartData} data */
function tableOf(data) {
  return [
    h("caption", { className: "sr-only" }, `${data.title}: the numbers`),
    h(
      "thead",
      null,
      h(
        "tr",
        null,
        h("th", { scope: "col" }, data.kind === "line" ? "When" : "Tier"),
        ...data.series.map((s) => h("th", { scope: "col" }, s.label)),
      ),
    ),
    h(
      "tbody",
      null,
      ...data.labels.map((label, i) =>
        h(
          "tr",
          null,
          h("th", { scope: "row" }, label),
          ...data.series.map((s) => h("td", { "data-value": s.values[i] ?? 0 }, fmt(s.values[i] ?? 0))),
        ),
      ),
    ),
  ];
}

/**
 * Chart.js's configuration for the data, its text, lines and points sized for the page's type (`factor` times
 * their normal size): Large type reaches the charts too.
 * @param {ChartData} data
 * @param {number} factor
 */
function configOf(data, factor) {
  const font = { size: Math.round(BASE_FONT_PX * factor) };
  const ticks = { font, color: INK };
  return {
    type: data.kind,
    data: {
      labels: data.labels,
      datasets: data.series.map((s, i) => ({
        label: s.label,
        data: s.values,
        borderColor: s.color ?? COLORS[i % COLORS.length],
        backgroundColor: s.color ?? COLORS[i % COLORS.length],
        borderWidth: 2 * factor,
        pointRadius: (data.labels.length > 30 ? 0 : 3) * factor,
        pointHoverRadius: 4 * factor,
        tension: 0,
      })),
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      plugins: {
        legend: { display: data.series.length > 1, labels: { font, color: INK } },
        tooltip: { titleFont: font, bodyFont: font },
      },
      scales: {
        x: { ticks: { ...ticks, autoSkip: true, maxRotation: 0 } },
        y: { beginAtZero: true, ticks: { ...ticks, precision: 0 } },
      },
    },
  };
}
