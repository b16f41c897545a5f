// @ts-check
import { api, projectPath } from "../api.js";
import { frame, h, show } from "../dom.js";
import { freshness } from "./fresh.js";

/**
 * @typedef {{ summary: string, lines: string[] }} WebhookGroup
 * @typedef {{ ok: boolean, text: string, time: string, status: number | null, request_id: string,
 *   moments: string[], webhooks: WebhookGroup | null }} Item
 */

/**
 * Live activity: every operation as a sentence naming people and things ("Alice Nowak earned 100 points for user
 * subscribed"), newest first, failures said plainly (GET .../activity, which leaves the app's token requests out).
 * A customer reaching a tier is a line of its own, above the event that took her there; the webhooks a request
 * caused are one line under it, opened for each (told again as they are delivered). Rows that just came in are
 * marked for a moment.
 * @param {HTMLElement} section
 * @param {import("../app.js").Context} context
 * @param {() => boolean} visible
 */
export function activityPanel(section, context, visible) {
  const { error, body } = frame(section, "Live activity");
  const list = h("ol", { className: "activity", "aria-live": "polite", "aria-relevant": "additions" });
  body.append(list);
  /** Rows that just came in, marked for a moment. */
  const fresh = freshness();
  /** The webhook groups the presenter opened, by request: kept open when the list is drawn again. */
  const opened = new Set();
  let shownFor = "";
  return {
    topics: ["requests", "project", "webhooks"],
    async refresh() {
      if (!visible() || !context.projectId) return;
      try {
        const answer = await api(projectPath(context.projectId, "activity"), { query: { limit: 50 } });
        show(error);
        // The first answer for a project is what was there already: nothing in it is new.
        if (shownFor !== context.projectId) fresh.forget();
        shownFor = context.projectId;
        fresh.see(answer.activity.map((/** @type {Item} */ item) => item.request_id));
        if (answer.activity.length === 0)
          return show(
            list,
            h("li", { className: "muted" }, "Nothing yet: calls to the project appear here as they happen."),
          );
        show(
          list,
          ...answer.activity.flatMap((/** @type {Item} */ item) => {
            const isNew = fresh.isFresh(item.request_id) ? " new" : "";
            const time = h("time", { dateTime: item.time }, item.time.slice(5, 19).replace("T", " "));
            return [
              ...item.moments.map((moment) =>
                h(
                  "li",
                  {
                    className: `moment${isNew}`,
                    "data-moment": item.request_id,
                    "data-fresh": item.request_id,
                  },
                  h("span", { "aria-hidden": "true", className: "star" }, "★ "),
                  moment,
                ),
              ),
              h(
                "li",
                {
                  className: `${item.ok ? "ok" : "failed"}${isNew}`,
                  "data-request": item.request_id,
                  "data-fresh": item.request_id,
                },
                time,
                " ",
                item.ok ? null : h("strong", null, "Failed: "),
                item.text,
                item.webhooks ? webhooksOf(item.request_id, item.webhooks) : null,
              ),
            ];
          }),
        );
        fresh.fade(list);
      } catch (e) {
        show(error, `Cannot load the activity: ${/** @type {Error} */ (e).message}`);
      }
    },
  };

  /**
   * @param {string} requestId
   * @param {WebhookGroup} group
   */
  function webhooksOf(requestId, group) {
    const details = /** @type {HTMLDetailsElement} */ (
      h(
        "details",
        {
          className: "webhooks",
          open: opened.has(requestId),
          ontoggle: () => (details.open ? opened.add(requestId) : opened.delete(requestId)),
        },
        h("summary", null, group.summary),
        h("ul", null, ...group.lines.map((line) => h("li", null, line))),
      )
    );
    return details;
  }
}
