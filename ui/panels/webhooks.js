// @ts-check
import { api, projectPath } from "../api.js";
import { frame, h, shortTime, show, submitted } from "../dom.js";

/**
 * Webhook deliveries: type, status, the receiver's answer; resend. Shows the control API's answer as it is: on a
 * server without webhooks, its 404 as an error line, never made-up rows.
 * @param {HTMLElement} section
 * @param {import("../app.js").Context} context
 * @returns {import("../app.js").Panel}
 */
export function webhooksPanel(section, context) {
  const status = h(
    "select",
    { id: "delivery-status", onchange: () => refresh() },
    ...["", "pending", "delivered", "failed", "not_sent"].map((v) =>
      h("option", { value: v }, v || "Any status"),
    ),
  );
  const type = h("input", {
    id: "delivery-type",
    type: "search",
    placeholder: "voucher.published",
    size: 18,
  });
  const filters = h(
    "form",
    { className: "filters", onsubmit: submitted(() => refresh()) },
    h("label", { for: "delivery-status" }, "Status"),
    status,
    h("label", { for: "delivery-type" }, "Type"),
    type,
    h("button", { type: "submit" }, "Filter"),
  );
  const { error, body } = frame(section, "Webhooks", [filters]);

  async function refresh() {
    try {
      const list = await api(projectPath(context.projectId, "webhooks", "deliveries"), {
        query: { limit: 50, status: status.value, type: type.value.trim() },
      });
      show(error);
      const deliveries = list.deliveries.slice().reverse();
      show(
        body,
        deliveries.length === 0
          ? h("p", null, "No deliveries yet.")
          : h(
              "table",
              null,
              h("caption", { className: "sr-only" }, "Webhook deliveries, newest first"),
              h(
                "thead",
                null,
                h(
                  "tr",
                  null,
                  ...["Type", "Status", "Receiver's answer", "Sent", ""].map((t) =>
                    h("th", { scope: "col" }, t),
                  ),
                ),
              ),
              h("tbody", null, ...deliveries.map(row)),
            ),
        h("p", { className: "muted" }, `${list.total} deliveries in the outbox.`),
      );
    } catch (e) {
      show(body);
      show(error, String(/** @type {Error} */ (e).message));
    }
  }

  /** @param {any} d */
  function row(d) {
    const answer =
      d.response_status !== null ? `${d.response_status} in ${d.response_time_ms} ms` : (d.error ?? "—");
    const resend = h(
      "button",
      {
        type: "button",
        disabled: d.webhook_id === null,
        "aria-label": `Resend ${d.type} ${d.id}`,
        onclick: () => send(d, resend),
      },
      "Resend",
    );
    return h(
      "tr",
      { "data-delivery": d.id },
      h("th", { scope: "row" }, d.type, h("br"), h("small", null, d.url ?? "no endpoint")),
      h("td", null, h("span", { className: `badge ${d.status}` }, d.status)),
      h("td", null, answer),
      h(
        "td",
        null,
        `${d.attempts} attempt${d.attempts === 1 ? "" : "s"}`,
        d.last_attempt_at ? h("br") : null,
        shortTime(d.last_attempt_at),
      ),
      h("td", null, resend),
    );
  }

  /**
   * @param {any} delivery
   * @param {HTMLButtonElement} button
   */
  async function send(delivery, button) {
    button.disabled = true;
    try {
      await api(projectPath(context.projectId, "webhooks", "deliveries", delivery.id, "resend"), {
        method: "POST",
      });
      context.say(`Delivery ${delivery.id} sent again.`);
    } catch (e) {
      show(error, String(/** @type {Error} */ (e).message));
    }
    refresh();
  }

  return { topics: ["webhooks"], refresh };
}
