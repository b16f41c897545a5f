// @ts-check
import { api, projectPath } from "../api.js";
import { frame, h, show } from "../dom.js";

/**
 * Live activity: every operation as a sentence naming people and things ("Alice Nowak earned 100 points for
 * user_subscribed"), newest first, failures said plainly (GET .../activity).
 * @param {HTMLElement} section
 * @param {import("../app.js").Context} context
 * @param {() => boolean} visible
 */
export function activityPanel(section, context, visible) {
  const { error, body } = frame(section, "Live activity");
  const list = h("ol", { className: "activity", "aria-live": "polite", "aria-relevant": "additions" });
  body.append(list);
  return {
    topics: ["requests", "project"],
    async refresh() {
      if (!visible() || !context.projectId) return;
      try {
        const answer = await api(projectPath(context.projectId, "activity"), { query: { limit: 50 } });
        show(error);
        if (answer.activity.length === 0)
          return show(
            list,
            h("li", { className: "muted" }, "Nothing yet: calls to the project appear here as they happen."),
          );
        show(
          list,
          ...answer.activity.map(
            (
              /** @type {{ ok: boolean, text: string, time: string, status: number | null, request_id: string }} */ item,
            ) =>
              h(
                "li",
                { className: item.ok ? "ok" : "failed", "data-request": item.request_id },
                h("time", { dateTime: item.time }, item.time.slice(5, 19).replace("T", " ")),
                " ",
                item.ok ? null : h("strong", null, "Failed: "),
                item.text,
              ),
          ),
        );
      } catch (e) {
        show(error, `Cannot load the activity: ${/** @type {Error} */ (e).message}`);
      }
    },
  };
}
