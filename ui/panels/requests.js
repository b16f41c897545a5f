// @ts-check
import { api, projectPath } from "../api.js";
import { frame, h, shortTime, show } from "../dom.js";
import { writeJson } from "../json.js";
import { offerOperations, operationAt } from "./operations.js";

const SHOWN = 50;

/**
 * The request journal, live, newest first; filtered by operation and status. A row opens to the request and the
 * answer as the journal keeps them (secrets redacted), its latency, and the fault or rate limit that shaped it.
 * @param {HTMLElement} section
 * @param {import("../app.js").Context} context
 * @returns {import("../app.js").Panel}
 */
export function requestsPanel(section, context) {
  const operation = h(
    "select",
    { id: "request-operation", onchange: () => refresh() },
    h("option", { value: "" }, "Any operation"),
  );
  const status = h(
    "select",
    { id: "request-status", onchange: () => refresh() },
    ...[
      ["", "Any status"],
      ["2xx", "2xx success"],
      ["4xx", "4xx refused"],
      ["429", "429 rate limited"],
      ["5xx", "5xx failed"],
    ].map(([v, t]) => h("option", { value: v }, t)),
  );
  const filters = h(
    "div",
    { className: "filters" },
    h("label", { for: "request-operation" }, "Operation"),
    operation,
    h("label", { for: "request-status" }, "Status"),
    status,
  );
  const { error, body } = frame(section, "Requests", [filters]);
  /** Rows opened stay open as new ones arrive. */
  const open = new Set();
  /**
   * The rows shown, by request id: an entry never changes once journaled, so under load a refresh builds only the
   * rows of requests new since the last, and the list is left alone when no row came or went.
   * @type {Map<string, HTMLLIElement>}
   */
  let rows = new Map();
  const journal = h("ol", { className: "journal", "aria-label": "Requests, newest first" });

  async function refresh() {
    try {
      await offerOperations(operation);
      const chosen = operationAt(operation.value);
      const list = await api(projectPath(context.projectId, "requests"), {
        query: {
          limit: SHOWN,
          // By the name the handling row stamped on the entry, not its URL (a path pattern would also match a 404).
          operation: chosen?.name,
          status: status.value,
        },
      });
      show(error);
      const entries = list.requests.reverse();
      /** @type {Map<string, HTMLLIElement>} */
      const next = new Map();
      const items = entries.map((/** @type {any} */ e) => {
        // A client may send its own request id twice: the entry's time, status and latency tell them apart.
        const key = `${e.request_id} ${e.time} ${e.status} ${e.duration_ms}`;
        const item = (!next.has(key) && rows.get(key)) || row(e);
        next.set(key, item);
        return item;
      });
      rows = next;
      show(journal, ...items);
      show(
        body,
        entries.length === 0 ? h("p", null, "No requests match.") : journal,
        h("p", { className: "muted" }, `The newest ${entries.length} matching requests (at most ${SHOWN}).`),
      );
    } catch (e) {
      show(error, String(/** @type {Error} */ (e).message));
    }
  }

  /** @param {any} entry */
  function row(entry) {
    const shaped = [
      entry.fault ? `fault ${entry.fault.action} (${entry.fault.id})` : "",
      entry.rate_limited ? "rate limited" : "",
      entry.authenticated ? "" : "not authenticated",
    ].filter(Boolean);
    const details = /** @type {HTMLDetailsElement} */ (
      h(
        "details",
        {
          ontoggle: () => (details.open ? open.add(entry.request_id) : open.delete(entry.request_id)),
          open: open.has(entry.request_id),
        },
        h(
          "summary",
          null,
          h("time", { dateTime: entry.time }, shortTime(entry.time)),
          ` ${entry.method} ${entry.path} `,
          h(
            "span",
            { className: `status s${String(entry.status ?? 0)[0]}` },
            entry.status === null ? "dropped" : String(entry.status),
          ),
          ` ${entry.duration_ms} ms`,
          shaped.length ? h("span", { className: "badge fault" }, ` ${shaped.join(", ")}`) : null,
        ),
        h(
          "dl",
          null,
          h("dt", null, "Request id"),
          h("dd", null, entry.request_id),
          h("dt", null, "Latency"),
          h("dd", null, `${entry.duration_ms} ms`),
          h("dt", null, "Shaped by"),
          h("dd", null, shaped.length ? shaped.join(", ") : "nothing: the operation answered"),
        ),
        h("h4", null, "Request"),
        // Focusable: a box that scrolls is scrolled from the keyboard too.
        h(
          "pre",
          { tabIndex: 0 },
          writeJson({ query: entry.query, headers: entry.headers, body: entry.body }, 2),
        ),
        h("h4", null, "Response"),
        h("pre", { tabIndex: 0 }, writeJson(entry.response_body, 2)),
      )
    );
    return h("li", { "data-request": entry.request_id }, details);
  }

  return { topics: ["requests"], refresh };
}
