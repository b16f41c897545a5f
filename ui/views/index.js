// @ts-check
import { activityPanel } from "./activity.js";
import { customerPanel } from "./customer.js";
import { demoBar } from "./demo-bar.js";
import { overviewPanel } from "./overview.js";

/**
 * The views of the page: three for an audience (overview, customer, live activity) beside the data panels, which
 * stay for debugging. The view is in the address (`?view=overview#demo`), so a presenter opens the one to show.
 */
const VIEWS = ["overview", "customer", "activity", "data"];

/**
 * @param {import("../app.js").Context} context
 * @param {(panel: import("../app.js").Panel) => void} refreshNow
 */
export function demoViews(context, refreshNow) {
  const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
  const wanted = new URLSearchParams(location.search).get("view") ?? "data";
  let current = VIEWS.includes(wanted) ? wanted : "data";
  const visible = (/** @type {string} */ view) => () => current === view;
  const panels = {
    overview: overviewPanel($("overview"), context, visible("overview")),
    customer: customerPanel($("customer"), context, visible("customer")),
    activity: activityPanel($("activity"), context, visible("activity")),
  };
  const bar = demoBar($("demo-bar"), context);

  function showView(/** @type {string} */ view) {
    current = view;
    for (const name of VIEWS) {
      $(`view-${name}`).hidden = name !== view;
      const button = $(`show-${name}`);
      if (name === view) button.setAttribute("aria-current", "page");
      else button.removeAttribute("aria-current");
    }
    $("panel-links").hidden = view !== "data";
    const url = new URL(location.href);
    url.searchParams.set("view", view);
    history.replaceState(null, "", url);
    const panel = /** @type {Record<string, import("../app.js").Panel>} */ (panels)[view];
    if (panel) refreshNow(panel);
  }
  for (const name of VIEWS) $(`show-${name}`).addEventListener("click", () => showView(name));
  showView(current);
  return [panels.overview, panels.customer, panels.activity, bar];
}
