import type { ScenarioPlayer } from "../../http/control/demo/plays.js";
import { playScenario } from "./player.js";
import { shippedScenarios } from "./scenario.js";

/**
 * The play client as the dashboard's Play button takes it (http/control/demo/plays.ts, handed in by the library's
 * createApp and by startServer): the scenarios shipped in the package, each played by name as
 * `loyalty-mock play <name>` plays it.
 */
export const shippedPlayer: ScenarioPlayer = {
  shipped: () =>
    shippedScenarios().map(({ name, scenario }) => ({
      name,
      title: scenario.title,
      description: scenario.description,
      steps: scenario.steps.length,
    })),
  play: (name, run) => {
    const found = shippedScenarios().find((shipped) => shipped.name === name);
    if (!found) return Promise.resolve({ ok: false, step: 0, message: `no scenario named ${name}` });
    return playScenario(found.scenario, run);
  },
};
