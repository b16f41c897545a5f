// @ts-check
import { api, projectPath } from "../api.js";
import { frame, h, show } from "../dom.js";
import { pager } from "./paging.js";
import { rangeText, tierAxis } from "./tiers.js";

/**
 * Loyalty v2: each tier structure's tiers as ranges on one axis (gaps and overlaps visible), then the incentives
 * with status and stock.
 * @param {HTMLElement} section
 * @param {import("../app.js").Context} context
 * @returns {import("../app.js").Panel}
 */
export function loyaltyPanel(section, context) {
  const { error, body } = frame(section, "Loyalty v2");
  const paging = pager("incentives", () => refresh());
  paging.state.size = 5;

  async function refresh() {
    try {
      const project = context.projectId;
      const { total } = await api(projectPath(project, "incentives"), { query: { limit: 1 } });
      const [structures, incentives] = await Promise.all([
        api(projectPath(project, "tier-structures"), { query: { limit: 20 } }),
        api(projectPath(project, "incentives"), { query: paging.offsetInOrder(total) }),
      ]);
      show(error);
      paging.render(incentives.incentives.length);
      show(
        body,
        h("h3", null, "Tier structures"),
        structures.total === 0 ? h("p", null, "No tier structures.") : null,
        ...structures.tier_structures.map((/** @type {any} */ s) => {
          // A POINTS_AND_SEGMENT tier (Loyalty v2 as generally available) needs its segment too: listed here
          // with its range, as the axis shows only what points alone decide.
          const segments = s.tiers.filter((/** @type {any} */ t) => t.qualification_rules.type !== "POINTS");
          return h(
            "div",
            { className: "structure", "data-structure": s.id },
            h("h4", null, `${s.name} `, h("small", null, `${s.id}, ${s.tiers.length} tiers`)),
            tierAxis(s),
            segments.length
              ? h(
                  "p",
                  null,
                  "Segment tiers: ",
                  segments
                    .map((/** @type {any} */ t) =>
                      t.qualification_rules.type === "SEGMENT"
                        ? `${t.name} (${t.qualification_rules.segment.id})`
                        : `${t.name} (${t.qualification_rules.segment.id}, points ${rangeText(t)})`,
                    )
                    .join(", "),
                )
              : null,
          );
        }),
        structures.total > 20 ? h("p", null, `…and ${structures.total - 20} more structures.`) : null,
        h("h3", null, "Incentives"),
        h(
          "table",
          null,
          h(
            "thead",
            null,
            h(
              "tr",
              null,
              ...["Incentive", "Type", "Status", "Stock"].map((t) => h("th", { scope: "col" }, t)),
            ),
          ),
          h(
            "tbody",
            null,
            ...incentives.incentives
              .reverse()
              .map((/** @type {any} */ i) =>
                h(
                  "tr",
                  { "data-incentive": i.id },
                  h("th", { scope: "row" }, i.name, h("br"), h("small", null, i.id)),
                  h("td", null, i.type),
                  h("td", null, h("span", { className: `badge ${i.status.toLowerCase()}` }, i.status)),
                  h("td", null, i.stock === null || i.stock === undefined ? "unlimited" : String(i.stock)),
                ),
              ),
          ),
        ),
        paging.element,
      );
    } catch (e) {
      show(error, String(/** @type {Error} */ (e).message));
    }
  }
  return { topics: ["records"], collections: ["tier_structures", "incentives"], refresh };
}
