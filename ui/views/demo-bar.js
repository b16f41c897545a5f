// @ts-check
import { api, projectPath } from "../api.js";
import { h, show, submitted } from "../dom.js";

/**
 * The presenter's controls, on every view: put the demo back to a chosen snapshot ("Reset demo"), save the state as
 * one, and play a shipped scenario (GET/POST .../snapshots, .../snapshots/{name}/restore, /__mock/scenarios,
 * POST .../plays). What they did is said in the status line; a play's progress and failure in its own.
 * @param {HTMLElement} bar
 * @param {import("../app.js").Context} context
 */
export function demoBar(bar, context) {
  const snapshotPick = h("select", { id: "snapshot-pick" });
  const name = h("input", {
    id: "snapshot-name",
    value: "start",
    size: 10,
    autocomplete: "off",
    required: true,
  });
  const scenarioPick = h("select", { id: "scenario-pick" });
  const speed = h(
    "select",
    { id: "play-speed" },
    ...[1, 10, 100].map((n) => h("option", { value: String(n), selected: n === 10 }, `${n}×`)),
  );
  const playStatus = h("p", { id: "play-status", className: "play-status", role: "status" });
  const reset = h("button", { type: "submit", id: "reset-demo" }, "Reset demo");

  bar.replaceChildren(
    h("h2", { className: "sr-only", id: "demo-bar-title" }, "Demo controls"),
    h(
      "form",
      { className: "inline", onsubmit: submitted(() => restore()) },
      h("label", { for: "snapshot-pick" }, "Snapshot"),
      snapshotPick,
      reset,
    ),
    h(
      "form",
      { className: "inline", onsubmit: submitted(() => save()) },
      h("label", { for: "snapshot-name" }, "Save as"),
      name,
      h("button", { type: "submit", id: "save-snapshot" }, "Save snapshot"),
    ),
    h(
      "form",
      { className: "inline", onsubmit: submitted(() => play()) },
      h("label", { for: "scenario-pick" }, "Scenario"),
      scenarioPick,
      h("label", { for: "play-speed" }, "Speed"),
      speed,
      h("button", { type: "submit", id: "play" }, "Play"),
    ),
    playStatus,
  );

  async function restore() {
    const chosen = snapshotPick.value;
    if (!chosen) return context.say("No snapshot to reset to: save one first (Save snapshot).");
    try {
      await api(projectPath(context.projectId, "snapshots", chosen, "restore"), { method: "POST" });
      context.say(`Demo reset to snapshot ${chosen}.`);
      context.changedHere();
    } catch (e) {
      context.say(`Reset failed: ${/** @type {Error} */ (e).message}`);
    }
  }

  async function save() {
    const wanted = name.value.trim();
    const exists = [...snapshotPick.options].some((o) => o.value === wanted);
    if (exists && !confirm(`Save over the snapshot ${wanted}?`)) return;
    try {
      await api(projectPath(context.projectId, "snapshots"), {
        method: "POST",
        body: { name: wanted, replace: exists },
      });
      context.say(`Saved snapshot ${wanted}.`);
      await panel.refresh();
      snapshotPick.value = wanted;
    } catch (e) {
      context.say(`Saving failed: ${/** @type {Error} */ (e).message}`);
    }
  }

  async function play() {
    try {
      const started = await api(projectPath(context.projectId, "plays"), {
        method: "POST",
        body: { scenario: scenarioPick.value, speed: Number(speed.value) },
      });
      show(playStatus, `Playing "${started.title}": 0 of ${started.steps} steps.`);
    } catch (e) {
      show(playStatus, `Play failed: ${/** @type {Error} */ (e).message}`);
    }
  }

  let scenariosLoaded = false;
  const panel = {
    topics: ["snapshots", "plays", "project"],
    async refresh() {
      if (!context.projectId) return;
      try {
        if (!scenariosLoaded) {
          const list = await api("/__mock/scenarios");
          show(
            scenarioPick,
            ...list.scenarios.map((/** @type {{ name: string, title: string }} */ s) =>
              h("option", { value: s.name }, s.title),
            ),
          );
          scenariosLoaded = true;
        }
        const current = snapshotPick.value;
        const snapshots = await api(projectPath(context.projectId, "snapshots"));
        show(
          snapshotPick,
          ...snapshots.snapshots.map((/** @type {{ name: string, clock: { now: string } }} */ s) =>
            h(
              "option",
              { value: s.name, selected: s.name === current },
              `${s.name} (${s.clock.now.slice(0, 16).replace("T", " ")})`,
            ),
          ),
        );
        reset.disabled = snapshots.snapshots.length === 0;
        const plays = await api(projectPath(context.projectId, "plays"));
        const last = plays.plays[0];
        if (last)
          show(
            playStatus,
            last.status === "running"
              ? `Playing "${last.title}": ${last.played} of ${last.steps} steps.`
              : last.status === "done"
                ? `Played "${last.title}": all ${last.steps} steps.`
                : `"${last.title}" stopped: ${last.failure}`,
          );
        playStatus.classList.toggle("failed", last?.status === "failed");
      } catch (e) {
        show(playStatus, `Cannot read snapshots and plays: ${/** @type {Error} */ (e).message}`);
      }
    },
  };
  return panel;
}
