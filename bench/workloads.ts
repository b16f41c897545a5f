import type { Request } from "autocannon";
import type { ExampleIds } from "../src/http/operations/row.js";
import { OPERATIONS, type Operation, type OperationName } from "../src/http/operations/table.js";
import { filledPath } from "../src/http/route.js";
import {
  BENCH_CAMPAIGN,
  BENCH_EVENT,
  BENCH_KEYS,
  BENCH_LOCATION,
  incentiveId,
  tierStructureId,
} from "./fixtures.js";

/**
 * What the benchmark sends to our server: one workload per row of the operation table, each request the row's
 * example call (a plain success of the real operation) made from the bench project's records, the i-th request of
 * a round with the i-th of each pool: a fresh customer, the next slot of a not-yet-full tier structure, an incentive
 * not yet deleted. The v2 operations carry a bearer token and the key pair, as the default (strict) mode wants.
 * Workloads that write have the project reset between rounds.
 */
export interface Workload {
  /** The operation's name, as `--only` takes it. */
  name: string;
  /** The row of the operation table it measures. */
  operation: OperationName;
  /** Whether the workload writes (uses a pool up), so the project must be reset before the next round. */
  consumes: boolean;
  requests: (context: { token: string }) => Request[];
}

/**
 * The names the workloads had before 0.12, when they were called scenarios (`--only "GET location"`), still
 * taken: they are in the commands of docs/performance.md and in earlier reports.
 */
const NAMED_BEFORE: ReadonlyMap<string, OperationName> = new Map<string, OperationName>([
  ["GET location", "getLocation"],
  ["POST token", "generateToken"],
  ["POST members", "addMember"],
  ["POST events", "trackEvent"],
  ["POST tier", "createTier"],
  ["DELETE incentive", "deleteIncentive"],
]);

/** The operation a name of `--only` means: an operation's name, or a workload's name before 0.12. */
export const workloadNamed = (name: string): string => NAMED_BEFORE.get(name) ?? name;

/** The pools of a bench project, and the records every example call is made from. */
function idsAt(i: number, sizes: { tierStructures: number; incentives: number }): ExampleIds {
  return {
    campaign: BENCH_CAMPAIGN,
    location: BENCH_LOCATION,
    event: { name: BENCH_EVENT, metadata: { plan: "pro" } },
    // Each structure holds ten tiers: filled slot by slot, one structure after another.
    tierStructure: tierStructureId(i % sizes.tierStructures),
    n: Math.floor(i / sizes.tierStructures),
    incentive: incentiveId(i % sizes.incentives),
    customer: `bench-${i}`,
  };
}

/** A row's example call as autocannon sends it, with the bench key pair (and the token, for v2). */
function requestOf(row: Operation, ids: ExampleIds, token: string): Request {
  const { params, body } = row.example(ids);
  const headers: Record<string, string> = { ...BENCH_KEYS };
  if (row.auth.v2) headers.authorization = `Bearer ${token}`;
  let text: string | undefined;
  if (body !== undefined && row.body === "form") {
    headers["content-type"] = "application/x-www-form-urlencoded";
    text = new URLSearchParams(body as Record<string, string>).toString();
  } else if (body !== undefined && row.body === "json") {
    headers["content-type"] = "application/json";
    text = JSON.stringify(body);
  }
  return {
    method: row.method,
    path: filledPath(row.path, params),
    headers,
    ...(text !== undefined && { body: text }),
  };
}

export function workloads(sizes: { tierStructures: number; incentives: number }): Workload[] {
  return OPERATIONS.map((row) => ({
    name: row.name,
    operation: row.name,
    consumes: row.method !== "GET",
    requests: ({ token }) => {
      const first = requestOf(row, idsAt(0, sizes), token);
      // The same call every time (a GET, the token): sent as it is, with no work per request in the load generator.
      if (JSON.stringify(requestOf(row, idsAt(1, sizes), token)) === JSON.stringify(first)) return [first];
      // A counter shared by every connection of a round, so no two requests ask for the same thing.
      let next = 0;
      return [
        {
          ...first,
          setupRequest: (request) => ({ ...request, ...requestOf(row, idsAt(next++, sizes), token) }),
        },
      ];
    },
  }));
}
