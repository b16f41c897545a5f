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
  return {
    figure,
    /** @param {ChartData} data */
    update(data) {
      const key = JSON.stringify(data);
      if (key === shown) return;
      shown = key;
      show(caption, data.title);
      canvas.setAttribute("aria-label", `${data.title}. ${summaryOf(data)}`);
      show(table, ...tableOf(data));
      const config = configOf(data);
      const Chart = chartJs();
      if (!Chart) return;
      if (chart && chart.config.type === data.kind) {
        chart.data = config.data;
        chart.update("none");
      } else {
        chart?.destroy();
        chart = new Chart(canvas, config);
      }
    },
  };
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

/** @param {ChartData} data */
function configOf(data) {
  return {
    type: data.kind,
    data: {
      labels: data.labels,
      datasets: data.series.map((s, i) => ({
        label: s.label,
        data: s.values,
        borderColor: s.color ?? COLORS[i % COLORS.length],
        backgroundColor: s.color ?? COLORS[i % COLORS.length],
        borderWidth: 2,
        pointRadius: data.labels.length > 30 ? 0 : 3,
        tension: 0,
      })),
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      plugins: { legend: { display: data.series.length > 1 } },
      scales: {
        x: { ticks: { autoSkip: true, maxRotation: 0 } },
        y: { beginAtZero: true, ticks: { precision: 0 } },
      },
    },
  };
}
