import type { Request } from "express";
import { z } from "zod";
import { apiError } from "../../../domain/errors.js";
import { type Int64, int64 } from "../../../domain/shared/int64.js";
import { dateTime, listSchema } from "../answers.js";
import { type ControlRoute, row } from "../route-table.js";
import { listOf } from "../shapes.js";
import { activityOf } from "./activity.js";
import { overviewOf, storyOf } from "./figures.js";
import { playsOf } from "./plays.js";

const int = z.int();
/**
 * A sum of points, exact at any size: a number up to 2^53, past it the digits of a bigint (stringifyExact), as the
 * service's 64-bit fields are written (docs/internals/exact-integers.md).
 */
const sum = z.custom<Int64>().meta({ type: "integer", format: "int64" });

const overviewAnswer = z.strictObject({
  object: z.literal("overview"),
  project_id: z.string(),
  now: dateTime,
  members: int.describe("Loyalty cards someone holds"),
  customers: int,
  points_issued: sum.describe("Points on the members' cards"),
  balance_outstanding: sum.describe("The members' balances"),
  points_over_time: z
    .array(z.strictObject({ at: dateTime, earned: sum, total: sum }))
    .describe(
      "Hours or days ending at the project's clock: points earned in each, and the total issued by its end",
    ),
  tier_distribution: z.array(
    z.strictObject({
      structure_id: z.string(),
      name: z.string(),
      tiers: z.array(z.strictObject({ id: z.string(), name: z.string(), members: int })),
      no_tier: int,
    }),
  ),
});

const storyAnswer = z.strictObject({
  object: z.literal("customer_story"),
  project_id: z.string(),
  now: dateTime,
  customer: z.strictObject({
    id: z.string(),
    name: z.string().nullable(),
    source_id: z.string().nullable(),
    email: z.string().nullable(),
    created_at: dateTime,
  }),
  cards: z.array(
    z.strictObject({
      id: z.string(),
      code: z.string(),
      campaign_id: z.string(),
      campaign_name: z.string(),
      points: int,
      balance: int,
      progress: z.array(
        z.strictObject({
          structure_id: z.string(),
          structure_name: z.string(),
          tier: z.string().nullable(),
          next_tier: z.string().nullable(),
          next_at: int64(0).nullable().describe("The next tier's min_value, exact past 2^53 (int64)"),
          points: int,
          percent: int,
        }),
      ),
      balance_over_time: z.array(z.strictObject({ at: dateTime, balance: sum })),
    }),
  ),
  timeline: z.array(
    z.strictObject({
      at: dateTime,
      kind: z.enum(["customer", "joined", "event", "points", "webhook"]),
      text: z.string(),
    }),
  ),
});

const activityAnswer = listSchema(
  "activity",
  z.strictObject({
    request_id: z.string(),
    time: dateTime,
    status: int.nullable(),
    ok: z.boolean(),
    text: z.string(),
  }),
);

const scenarioAnswer = z.strictObject({
  object: z.literal("scenario"),
  name: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  steps: int,
});

export const playAnswer = z.strictObject({
  object: z.literal("play"),
  id: int,
  project_id: z.string(),
  scenario: z.string(),
  title: z.string(),
  speed: z.number(),
  status: z.enum(["running", "done", "failed"]),
  steps: int,
  played: int,
  lines: z.array(z.string()),
  failure: z.string().nullable(),
  started_at: dateTime,
});

const playBody = z.strictObject({
  scenario: z.string().min(1).describe("The name of a scenario GET /__mock/scenarios lists"),
  speed: z.number().min(0.01).max(1000).default(1).describe("Pauses last their seconds divided by this"),
});

/** The address of this very server, as the socket the request came in on has it. */
function ownUrl(req: Request): string {
  const { localAddress = "127.0.0.1", localPort } = req.socket;
  const host = localAddress.includes(":") ? `[${localAddress}]` : localAddress;
  return `http://${host}:${localPort}`;
}

/**
 * The dashboard's audience views (docs/guide/dashboard.md): the program at a glance, a customer's story, the
 * journal as sentences; and the shipped scenarios, played by the Play button through the public operations.
 */
export const demoRoutes: readonly ControlRoute[] = [
  row({
    method: "GET",
    path: "/projects/{projectId}/overview",
    tag: "demo",
    summary: "The program at a glance: members, points, points over the project's clock, tier distribution",
    description:
      "Read from figures the project keeps up to date as its records change, not from a pass over its cards: " +
      "the cost does not grow with cards nobody holds. Sums of points are exact past 2^53 (int64).",
    output: overviewAnswer,
    handle: ({ project }) => overviewOf(project),
  }),
  row({
    method: "GET",
    path: "/projects/{projectId}/customers/{customerId}/story",
    tag: "demo",
    summary: "One customer's cards, progress towards the next tier, balance over time and timeline",
    description:
      "Read from the customer's own cards, publications and events, which the project keeps by customer, and " +
      "the outbox: the cost grows with her history, not with the project. 404 for an unknown customer.",
    output: storyAnswer,
    handle: ({ params, project }) => storyOf(project, String(params.customerId)),
  }),
  row({
    method: "GET",
    path: "/projects/{projectId}/activity",
    tag: "demo",
    summary: "The newest requests as sentences naming people and things, newest first",
    description:
      "An event's points are those of the customer's recorded event of that type nearest the request in time, " +
      "found in her events of that type, not in every event.",
    query: z.strictObject({ limit: z.coerce.number().int().min(1).max(1000).default(50) }),
    queryHelp: { limit: "At most this many (default 50)" },
    output: activityAnswer,
    errors: { 400: ["invalid_payload"] },
    handle: ({ query, project }) => activityOf(project, query.limit),
  }),
  row({
    method: "GET",
    path: "/scenarios",
    tag: "demo",
    summary: "The scenarios shipped in the package (loyalty-mock play <name>)",
    output: listSchema("scenarios", scenarioAnswer),
    handle: ({ deps }) =>
      listOf(
        "scenarios",
        (deps.player?.shipped() ?? []).map(({ name, title, description, steps }) => ({
          object: "scenario" as const,
          name,
          title,
          description: description ?? null,
          steps,
        })),
      ),
  }),
  row({
    method: "GET",
    path: "/projects/{projectId}/plays",
    tag: "demo",
    summary: "The scenarios played in the project from the control API, newest first (the last 10)",
    output: listSchema("plays", playAnswer),
    handle: ({ deps, project }) => listOf("plays", playsOf(deps.registry).list(project.id)),
  }),
  row({
    method: "POST",
    path: "/projects/{projectId}/plays",
    tag: "demo",
    summary: "Play a shipped scenario in the project, in the background",
    description:
      "Its calls go to this server through the public operations with the project's first active key, as " +
      "loyalty-mock play makes them; GET .../plays says how far it got. 404 for an unknown scenario.",
    body: playBody,
    status: 202,
    output: playAnswer,
    errors: { 400: ["invalid_payload"], 404: ["not_found"] },
    handle: ({ deps, body, project, req }) => {
      const { registry, player } = deps;
      const found = player?.shipped().find(({ name }) => name === body.scenario);
      if (!player || !found) throw notFoundScenario(body.scenario);
      return playsOf(registry).start(
        project,
        {
          scenario: found,
          player,
          speed: body.speed,
          url: ownUrl(req),
          adminToken: deps.adminToken,
        },
        () => registry.feed.announce(project.id, "plays"),
      );
    },
  }),
];

function notFoundScenario(name: string) {
  return apiError("not_found", {
    details: `Cannot find scenario with id ${name}`,
    resourceId: name,
    resourceType: "scenario",
  });
}
