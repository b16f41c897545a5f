// @ts-check
import { api } from "../api.js";
import { h, submitted } from "../dom.js";
import { offerOperations, operationAt } from "./operations.js";

/**
 * @typedef {(action: () => Promise<unknown>, said: string) => Promise<void>} Run does a control call, says what it
 *   did (or shows its error) and refreshes the panel
 * @typedef {(...parts: string[]) => string} Path a path under the current project
 */

const field = (
  /** @type {string} */ id,
  /** @type {string} */ label,
  /** @type {Record<string, unknown>} */ attrs,
) => [h("label", { for: id }, label), h("input", { id, ...attrs })];
const value = (/** @type {string} */ id) =>
  /** @type {HTMLInputElement} */ (document.getElementById(id)).value;

/**
 * A fault on an operation for its next N calls: the operation answers an error status instead of running.
 * @param {Run} run
 * @param {Path} path
 * @param {HTMLElement} faultList where the panel lists the project's fault rules
 * @returns {{ form: HTMLFormElement, offer: () => Promise<void> }} the form, and what fills its operations in
 */
export function faultForm(run, path, faultList) {
  const operation = h("select", { id: "fault-operation", required: true });
  const fault = h(
    "form",
    {
      className: "control",
      "aria-labelledby": "fault-title",
      onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        const op = operationAt(operation.value);
        const rule = {
          method: op?.method,
          path: op?.path,
          action: "error",
          status: Number(value("fault-status")),
          times: Number(value("fault-times")),
        };
        run(
          () => api(path("faults"), { method: "POST", body: rule }),
          `Fault added: ${op?.title} answers ${rule.status} for the next ${rule.times} calls.`,
        );
      },
    },
    h("h3", { id: "fault-title" }, "Inject a fault"),
    h("label", { for: "fault-operation" }, "Operation"),
    operation,
    ...field("fault-status", "Status", { type: "number", min: 400, max: 599, value: "503", required: true }),
    ...field("fault-times", "For the next N calls", {
      type: "number",
      min: 1,
      max: 1000,
      value: "1",
      required: true,
    }),
    h("button", { type: "submit" }, "Add the fault"),
    faultList,
  );

  return { form: fault, offer: () => offerOperations(operation) };
}

/**
 * The project's own rate limit, or back to the server's default.
 * @param {Run} run
 * @param {Path} path
 * @param {HTMLElement} limitNow where the panel shows the limit in force
 */
export function rateForm(run, path, limitNow) {
  const rate = h(
    "form",
    {
      className: "control",
      "aria-labelledby": "rate-title",
      onsubmit: submitted(() =>
        run(
          () =>
            api(path("settings"), {
              method: "PATCH",
              body: {
                rate_limit: {
                  limit: Number(value("rate-limit")),
                  window_seconds: Number(value("rate-window")),
                },
              },
            }),
          "Rate limit set.",
        ),
      ),
    },
    h("h3", { id: "rate-title" }, "Rate limit"),
    h("p", null, limitNow),
    ...field("rate-limit", "Requests", { type: "number", min: 1, value: "5", required: true }),
    ...field("rate-window", "per seconds", { type: "number", min: 1, value: "60", required: true }),
    h("button", { type: "submit" }, "Set the limit"),
    h(
      "button",
      {
        type: "button",
        onclick: () =>
          run(
            () => api(path("settings"), { method: "PATCH", body: { rate_limit: null } }),
            "Rate limit back to the server's default.",
          ),
      },
      "Server default",
    ),
  );

  return rate;
}
