// @ts-check
import { api, projectPath } from "../api.js";
import { frame, h, shortTime, show, submitted } from "../dom.js";
import { faultForm, rateForm } from "./control-forms.js";

/**
 * What a demo steers, each through the control API: the project's clock, a reset, a fault on an operation for
 * its next N calls, the rate limit.
 * @param {HTMLElement} section
 * @param {import("../app.js").Context} context
 * @returns {import("../app.js").Panel}
 */
export function controlsPanel(section, context) {
  const { error, body } = frame(section, "Controls");
  const now = h("output", { id: "clock-now" });
  const limitNow = h("output", { id: "rate-limit-now" });
  const faultList = h("ul", { className: "plain", "aria-label": "Fault rules" });
  /** @param {() => Promise<unknown>} action @param {string} said */
  const run = async (action, said) => {
    try {
      await action();
      show(error);
      context.say(said);
    } catch (e) {
      show(error, String(/** @type {Error} */ (e).message));
    }
    refresh();
  };
  const path = (/** @type {string[]} */ ...parts) => projectPath(context.projectId, ...parts);

  const advance = h(
    "select",
    { id: "clock-advance" },
    ...[
      [60, "1 minute"],
      [900, "15 minutes (a token's life)"],
      [3600, "1 hour"],
      [86400, "1 day"],
      [2592000, "30 days"],
    ].map(([s, t]) => h("option", { value: String(s) }, String(t))),
  );
  const clock = h(
    "form",
    {
      className: "control",
      "aria-labelledby": "clock-title",
      onsubmit: submitted(() =>
        run(
          () =>
            api(path("clock"), {
              method: "POST",
              body: { advance_seconds: Number(advance.value) },
            }),
          "Clock moved.",
        ),
      ),
    },
    h("h3", { id: "clock-title" }, "Clock"),
    h("p", null, "Now: ", now),
    h("label", { for: "clock-advance" }, "Advance by"),
    advance,
    h("button", { type: "submit" }, "Advance the clock"),
  );

  let armed = 0;
  const resetButton = h(
    "button",
    {
      type: "button",
      className: "danger",
      onclick: () => {
        if (Date.now() - armed > 5000) {
          armed = Date.now();
          show(resetButton, `Press again to reset ${context.projectId}`);
          context.say(`Press Reset again within 5 seconds to put ${context.projectId} back to its fixtures.`);
          return;
        }
        armed = 0;
        show(resetButton, "Reset the project");
        run(
          () => api(path("reset"), { method: "POST" }),
          `Project ${context.projectId} reset to its fixtures.`,
        );
      },
    },
    "Reset the project",
  );
  const reset = h(
    "div",
    { className: "control", role: "group", "aria-labelledby": "reset-title" },
    h("h3", { id: "reset-title" }, "Reset"),
    h("p", null, "Back to the fixtures: data, keys, clock, journal, faults, settings."),
    resetButton,
  );

  const fault = faultForm(run, path, faultList);
  const rate = rateForm(run, path, limitNow);

  show(body, clock, reset, fault.form, rate);

  async function refresh() {
    try {
      const [time, settings, faults] = await Promise.all([
        api(path("clock")),
        api(path("settings")),
        api(path("faults")),
        fault.offer(),
      ]);
      show(
        now,
        `${shortTime(time.now)}${time.offset_ms ? ` (${Math.round(time.offset_ms / 1000).toLocaleString("en")} s ahead)` : ""}`,
      );
      const limit = settings.effective.rate_limit;
      const window = settings.rate_limit_window;
      show(
        limitNow,
        limit
          ? `${limit.limit} per ${limit.window_seconds} s${settings.settings.rate_limit ? "" : " (server default)"}${window ? `; ${window.used} used, ${window.remaining} left until ${shortTime(window.resets_at)}` : ""}`
          : "off",
      );
      show(
        faultList,
        ...faults.faults.map((/** @type {any} */ f) =>
          h(
            "li",
            { "data-fault": f.id },
            `${f.method} ${f.path} → ${f.status ?? f.action}, ${f.remaining ?? "∞"} left `,
            h(
              "button",
              {
                type: "button",
                "aria-label": `Delete fault ${f.id}`,
                onclick: () => run(() => api(path("faults", f.id), { method: "DELETE" }), "Fault deleted."),
              },
              "Delete",
            ),
          ),
        ),
      );
    } catch (e) {
      show(error, String(/** @type {Error} */ (e).message));
    }
  }

  return { topics: ["clock", "settings", "faults", "requests", "reset"], refresh };
}
