// @ts-check
import { api, projectPath } from "../api.js";
import { h, show, submitted } from "../dom.js";

/** The scenario a presenter narrates, chosen when the bar first lists them. */
const NARRATED = "first-month";
/** Its pauses as written (2 s between steps): a pace an audience follows. */
const SPEEDS = [1, 10, 100];

/**
 * The presenter's controls, on every view: put the demo back to a chosen snapshot ("Reset demo"), save the state as
 * one, and play a shipped scenario, on its own or right after a reset ("Reset, then play") (GET/POST
 * .../snapshots, .../snapshots/{name}/restore, /__mock/scenarios, POST .../plays). What they did is said in the
 * status line; a play's progress and failure in its own, which a reset clears (the server lists no play from
 * before it, so a reload shows none either).
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
    ...SPEEDS.map((n) => h("option", { value: String(n), selected: n === 1 }, `${n}×`)),
  );
  const playStatus = h("p", { id: "play-status", className: "play-status", role: "status" });
  const reset = h("button", { type: "submit", id: "reset-demo" }, "Reset demo");
  const resetAndPlay = h(
    "button",
    {
      type: "button",
      id: "reset-play",
      onclick: () => restore().then((done) => (done ? play() : undefined)),
    },
    "Reset, then play",
  );

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
      resetAndPlay,
    ),
    playStatus,
  );

  /** @returns {Promise<boolean>} whether the demo was reset */
  async function restore() {
    const chosen = snapshotPick.value;
    if (!chosen) {
      context.say("No snapshot to reset to: save one first (Save snapshot).");
      return false;
    }
    try {
      await api(projectPath(context.projectId, "snapshots", chosen, "restore"), { method: "POST" });
      // What was played before the reset is no longer the demo's: its status goes with it.
      showPlay(undefined);
      context.say(`Demo reset to snapshot ${chosen}.`);
      context.changedHere();
      return true;
    } catch (e) {
      context.say(`Reset failed: ${/** @type {Error} */ (e).message}`);
      return false;
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
      showPlay(started);
    } catch (e) {
      show(playStatus, `Play failed: ${/** @type {Error} */ (e).message}`);
      playStatus.classList.add("failed");
    }
  }

  /** @param {{ status: string, title: string, played: number, steps: number, failure: string | null } | undefined} last */
  function showPlay(last) {
    show(
      playStatus,
      last === undefined
        ? ""
        : last.status === "running"
          ? `Playing "${last.title}": ${last.played} of ${last.steps} steps.`
          : last.status === "done"
            ? `Played "${last.title}": all ${last.steps} steps.`
            : `"${last.title}" stopped: ${last.failure}`,
    );
    playStatus.classList.toggle("failed", last?.status === "failed");
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
              h("option", { value: s.name, selected: s.name === NARRATED }, s.title),
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
        resetAndPlay.disabled = reset.disabled;
        const plays = await api(projectPath(context.projectId, "plays"));
        showPlay(plays.plays[0]);
      } catch (e) {
        show(playStatus, `Cannot read snapshots and plays: ${/** @type {Error} */ (e).message}`);
      }
    },
  };
  return panel;
}
