// @ts-check
import { api, projectPath } from "../api.js";
import { chartFigure } from "../charts.js";
import { frame, h, show } from "../dom.js";
import { freshness } from "./fresh.js";

/**
 * The program at a glance, for an audience: members, points issued and balance outstanding, points over the
 * project's clock, and the members in each tier of each tier structure (GET .../overview).
 * @param {HTMLElement} section
 * @param {import("../app.js").Context} context
 * @param {() => boolean} visible
 */
export function overviewPanel(section, context, visible) {
  const { error, body } = frame(section, "Program overview");
  const stats = h("dl", { className: "stats" });
  const points = chartFigure("points-chart");
  const tiers = h("div", { className: "chart-row" });
  /** @type {Map<string, ReturnType<typeof chartFigure>>} */
  const tierCharts = new Map();
  body.append(stats, h("div", { className: "chart-row" }, points.figure), tiers);
  /** A figure that just changed is marked for a moment: its key is its value. */
  const fresh = freshness();
  let shownFor = "";

  return {
    topics: ["records", "clock", "project"],
    async refresh() {
      if (!visible() || !context.projectId) return;
      try {
        const overview = await api(projectPath(context.projectId, "overview"));
        show(error);
        if (shownFor !== context.projectId) fresh.forget();
        shownFor = context.projectId;
        const figures = [
          ["Members", overview.members, "stat-members"],
          ["Customers", overview.customers, "stat-customers"],
          ["Points issued", overview.points_issued, "stat-points"],
          ["Balance outstanding", overview.balance_outstanding, "stat-balance"],
          ["Project clock", overview.now.replace("T", " ").slice(0, 16), "stat-clock"],
        ];
        fresh.see(figures.map(([, value, id]) => `${id}=${value}`));
        show(
          stats,
          ...figures.flatMap(([label, value, id]) =>
            stat(String(label), value, String(id), fresh.isFresh(`${id}=${value}`)),
          ),
        );
        fresh.fade(stats);
        const series = overview.points_over_time;
        const step = series.length > 1 ? Date.parse(series[1].at) - Date.parse(series[0].at) : 0;
        const days = Math.round(step / 86_400_000);
        const by = step < 86_400_000 ? "hour" : days === 1 ? "day" : `${days} days`;
        points.update({
          kind: "line",
          title: `Points issued over time, by ${by} to ${overview.now.slice(0, 16).replace("T", " ")}`,
          unit: "points",
          labels: series.map((/** @type {{ at: string }} */ b) =>
            step >= 86_400_000 ? b.at.slice(5, 10) : b.at.slice(11, 16),
          ),
          series: [
            { label: "Total issued", values: series.map((/** @type {{ total: number }} */ b) => b.total) },
            { label: "Earned", values: series.map((/** @type {{ earned: number }} */ b) => b.earned) },
          ],
        });
        const ids = new Set();
        for (const structure of overview.tier_distribution) {
          if (structure.tiers.length === 0) continue;
          ids.add(structure.structure_id);
          let chart = tierCharts.get(structure.structure_id);
          if (!chart) {
            chart = chartFigure(`tiers-${structure.structure_id}`);
            tierCharts.set(structure.structure_id, chart);
            tiers.append(chart.figure);
          }
          chart.update({
            kind: "bar",
            title: `Members by tier: ${structure.name}`,
            unit: "members",
            labels: [...structure.tiers.map((/** @type {{ name: string }} */ t) => t.name), "No tier"],
            series: [
              {
                label: "Members",
                values: [
                  ...structure.tiers.map((/** @type {{ members: number }} */ t) => t.members),
                  structure.no_tier,
                ],
              },
            ],
          });
        }
        for (const [id, chart] of tierCharts)
          if (!ids.has(id)) {
            chart.figure.remove();
            tierCharts.delete(id);
          }
      } catch (e) {
        show(error, `Cannot load the overview: ${/** @type {Error} */ (e).message}`);
      }
    },
  };
}

/**
 * @param {string} label
 * @param {unknown} value
 * @param {string} id
 * @param {boolean} changed marked for a moment, as it just changed
 */
function stat(label, value, id, changed) {
  return [
    h(
      "div",
      { className: `stat${changed ? " new" : ""}`, "data-fresh": `${id}=${value}` },
      h("dt", null, label),
      h(
        "dd",
        { id },
        typeof value === "number" || typeof value === "bigint" ? value.toLocaleString("en") : String(value),
      ),
    ),
  ];
}
