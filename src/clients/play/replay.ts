import type { JsonAnswer } from "./calls.js";
import type { Scenario, Step } from "./scenario.js";

/**
 * What lets a scenario be played again, and after another, on the same data: a customer joins a program once, a
 * tier's range cannot overlap another's, an incentive is deleted once. Before it starts, a play whose people are
 * there already (the same scenario played before) names them afresh for this run (`zofia.lis+2@example.com`,
 * the names they go by unchanged); a step that makes what is there already (the same tier, the same range) or
 * deletes what is gone says so and goes on. Each is read from the control API; a server that refuses it (no
 * admin token) gets the scenario as written.
 */

/** Reads a control API path: its answer, or undefined when it cannot be read (refused, not found). */
export type Look = (path: string) => Promise<JsonAnswer | undefined>;

/** How many earlier plays of one scenario a play looks past for names nobody has. */
const MOST_RUNS = 1000;

/** The source id of run `n` of a scenario (the first keeps the scenario's): `zofia.lis+2@example.com`, `bob-2`. */
export function sourceIdOfRun(sourceId: string, n: number): string {
  if (n === 1) return sourceId;
  const at = sourceId.lastIndexOf("@");
  return at > 0 ? `${sourceId.slice(0, at)}+${n}${sourceId.slice(at)}` : `${sourceId}-${n}`;
}

const projectPath = (projectId: string, ...parts: string[]) =>
  ["/__mock/projects", projectId, ...parts]
    .map((part, i) => (i === 0 ? part : encodeURIComponent(part)))
    .join("/");

/**
 * The run this play is: the first whose people (the customers its join steps make) none of the project's
 * customers is yet, so every join makes a new member. 1 when nobody is there, or when the control API cannot
 * tell; each source id is looked up by the store's index (`?source_id=`).
 */
export async function runOf(scenario: Scenario, projectId: string, look: Look): Promise<number> {
  const people = scenario.steps.flatMap((step) => (step.type === "join" ? [step.customer.source_id] : []));
  const exists = async (sourceId: string) => {
    const answer = await look(
      `${projectPath(projectId, "customers")}?source_id=${encodeURIComponent(sourceId)}&limit=1`,
    );
    return answer === undefined ? undefined : answer.body.total !== 0;
  };
  for (let n = 1; n <= MOST_RUNS; n++) {
    let taken = false;
    for (const person of people) {
      const known = await exists(sourceIdOfRun(person, n));
      if (known === undefined) return 1;
      if (known) {
        taken = true;
        break;
      }
    }
    if (!taken) return n;
  }
  return 1;
}

/** Whether the structure holds this tier already: the same name over the same range (a play of it before). */
export async function tierThere(step: Extract<Step, { type: "tier" }>, projectId: string, look: Look) {
  const structure = await look(projectPath(projectId, "tier-structures", step.structure));
  const tiers = Array.isArray(structure?.body.tiers) ? (structure.body.tiers as unknown[]) : [];
  return tiers.some((value) => {
    const tier = value as {
      name?: unknown;
      qualification_rules?: { min_value?: unknown; max_value?: unknown };
    };
    const rules = tier.qualification_rules;
    return (
      tier.name === step.name &&
      Number(rules?.min_value) === step.min_points &&
      Number(rules?.max_value) === step.max_points
    );
  });
}

/** Whether the incentive is deleted already (a play of it before). */
export async function incentiveGone(
  step: Extract<Step, { type: "delete_incentive" }>,
  projectId: string,
  look: Look,
) {
  const incentive = await look(projectPath(projectId, "incentives", step.incentive));
  return incentive?.body.status === "DELETED";
}
