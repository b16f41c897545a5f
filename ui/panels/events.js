// @ts-check
import { api, projectPath } from "../api.js";
import { frame, h, shortTime, show } from "../dom.js";
import { customerLabel, customerNames } from "../names.js";
import { pager } from "./paging.js";

/**
 * Custom events as a timeline, newest first: the points each earned (per card) and the referral conversions.
 * @param {HTMLElement} section
 * @param {import("../app.js").Context} context
 * @returns {import("../app.js").Panel}
 */
export function eventsPanel(section, context) {
  const { error, body } = frame(section, "Custom events");
  const paging = pager("events", () => refresh());
  paging.state.size = 15;
  /** Card id to code: a code never changes, so each card is asked for once per project. */
  let known = new Map();
  let knownFor = "";

  async function refresh() {
    try {
      if (knownFor !== context.projectId) {
        known = new Map();
        knownFor = context.projectId;
      }
      const path = projectPath(context.projectId, "events");
      /** @type {any} */
      const list = await paging.newest((window) => api(path, { query: window }));
      const events = list.events.reverse();
      const codes = await cardCodes(events);
      const names = await customerNames(
        context.projectId,
        events.map((/** @type {any} */ e) => e.customer_id),
      );
      show(error);
      paging.render(events.length);
      show(
        body,
        events.length === 0
          ? h("p", null, "No custom events yet.")
          : h(
              "ol",
              { className: "timeline", "aria-label": "Custom events, newest first" },
              ...events.map((/** @type {any} */ e) => item(e, codes, names)),
            ),
        paging.element,
      );
    } catch (e) {
      show(error, String(/** @type {Error} */ (e).message));
    }
  }

  /**
   * The codes of the cards the events paid, read once per refresh.
   * @param {any[]} events
   */
  async function cardCodes(events) {
    const ids = new Set(
      events.flatMap((e) =>
        [...e.earned.map((/** @type {any} */ x) => x.voucher_id), e.referral?.voucher_id].filter(Boolean),
      ),
    );
    const missing = [...ids].filter((id) => !known.has(id));
    const cards = await Promise.all(
      missing.map((id) =>
        api(projectPath(context.projectId, "vouchers", id)).catch(() => ({ id, code: id })),
      ),
    );
    for (const card of cards) known.set(card.id, card.code);
    return known;
  }

  /**
   * @param {any} event
   * @param {Map<string, string>} codes
   * @param {Map<string, string>} names
   */
  function item(event, codes, names) {
    const points = event.earned.reduce(
      (/** @type {number} */ sum, /** @type {any} */ x) => sum + x.points,
      0,
    );
    return h(
      "li",
      { "data-event": event.id },
      h("time", { dateTime: event.created_at }, shortTime(event.created_at)),
      " ",
      h("strong", null, event.type),
      " by ",
      customerLabel(event.customer_id, names),
      points
        ? h("span", { className: "points" }, ` +${points} points`)
        : h("span", { className: "muted" }, " no points"),
      event.earned.length
        ? h(
            "small",
            null,
            ` (${event.earned.map((/** @type {any} */ x) => `${x.points} to ${codes.get(x.voucher_id)} by ${x.earning_rule_id}`).join("; ")})`,
          )
        : null,
      event.referral?.voucher_id
        ? h(
            "span",
            { className: "badge referral" },
            ` referral conversion: ${codes.get(event.referral.voucher_id)}`,
          )
        : null,
    );
  }

  return { topics: ["records"], collections: ["events", "vouchers"], refresh };
}
