import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { metadata } from "../../domain/shared/schema-parts.js";
import { describeProblem, parseDocument, parseJsonText } from "../../platform/documents.js";

/**
 * A journey: a customer's story as a list of steps, played through the public operations of a running server
 * (player.ts) by `loyalty-mock play` and the dashboard's Play button. Each step is one thing that happens in the
 * story; its `type` says which.
 */

const sourceId = z.string().min(1).max(200);
const AMOUNT = /^(\d{1,7})(s|m|h|d)$/;

const stepSchema = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("join"),
    /** The loyalty program the customer joins (a card is assigned: POST /v1/loyalties/{campaign}/members). */
    campaign: z.string().min(1),
    customer: z.strictObject({
      source_id: sourceId,
      name: z.string().min(1).max(200).optional(),
      email: z.string().min(1).max(200).optional(),
      metadata: metadata.optional(),
    }),
  }),
  z.strictObject({
    type: z.literal("event"),
    /** A custom event (POST /v1/events) by the customer of this source id. */
    event: z.string().min(1),
    customer: sourceId,
    metadata: metadata.optional(),
  }),
  z.strictObject({
    type: z.literal("clock"),
    /** How far the project's clock moves on: a whole number and s, m, h or d (`7d`). */
    advance: z.string().regex(AMOUNT, "should be a whole number and s, m, h or d, as in 7d"),
  }),
  z.strictObject({
    type: z.literal("tier"),
    /** A POINTS tier created in a tier structure (POST /v2/loyalties/tier-structures/{structure}/tiers). */
    structure: z.string().min(1),
    name: z.string().min(1).max(200),
    min_points: z.number().int().min(0),
    max_points: z.number().int().min(0),
  }),
  z.strictObject({
    type: z.literal("delete_incentive"),
    incentive: z.string().min(1),
  }),
  z.strictObject({
    type: z.literal("pause"),
    /** Real seconds, divided by --speed. */
    seconds: z.number().min(0).max(3600),
  }),
]);

const scenarioSchema = z.strictObject({
  title: z.string().min(1).max(200),
  description: z.string().max(2000).optional(),
  steps: z.array(stepSchema).min(1).max(10_000),
});

export type Scenario = z.output<typeof scenarioSchema>;
export type Step = Scenario["steps"][number];

/** The seconds a clock step moves the clock by. */
export function advanceSeconds(advance: string): number {
  const [, amount = "0", unit = "s"] = AMOUNT.exec(advance) ?? [];
  return Number(amount) * { s: 1, m: 60, h: 3600, d: 86_400 }[unit as "s" | "m" | "h" | "d"];
}

/** A scenario from its JSON text; throws an Error naming the JSON path of the first problem. */
export function parseScenario(text: string): Scenario {
  const json = parseJsonText(text);
  if (!json.ok) throw new Error(describeProblem(json.problem));
  const parsed = parseDocument(scenarioSchema, json.value);
  if (!parsed.ok) throw new Error(describeProblem(parsed.problem));
  return parsed.value;
}

/** The scenarios shipped in the package (`scenarios/` at its root), beside src/ and dist/ alike. */
const SCENARIOS_DIR = fileURLToPath(new URL("../../../scenarios/", import.meta.url));

/** Each shipped scenario by name (its file name without `.json`), in name order. */
export function shippedScenarios(dir = SCENARIOS_DIR): { name: string; scenario: Scenario }[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => {
      try {
        return { name: file.slice(0, -5), scenario: parseScenario(readFileSync(`${dir}${file}`, "utf8")) };
      } catch (error) {
        throw new Error(`${dir}${file}: ${(error as Error).message}`);
      }
    });
}
