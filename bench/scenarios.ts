import type { Request } from "autocannon";
import type { OperationName } from "../src/http/operations/table.js";
import {
  BENCH_CAMPAIGN,
  BENCH_EVENT,
  BENCH_KEYS,
  BENCH_LOCATION,
  incentiveId,
  tierStructureId,
} from "./fixtures.js";

/**
 * What the benchmark sends to our server: one scenario per operation, each request a success of the real
 * operation (fresh customers for assignments, a new range in a not-yet-full structure for tiers, an incentive not
 * yet deleted). The v2 operations carry a bearer token and the key pair, as the default (strict) mode wants. Scenarios that use up a pool have the project reset between rounds.
 */
export interface Scenario {
  name: string;
  /** The row of the operation table it measures; every row has a scenario (test/api/operation-table.test.ts). */
  operation: OperationName;
  /** Whether the scenario consumes a pool, so the project must be reset before the next round. */
  consumes: boolean;
  requests: (context: { token: string }) => Request[];
}

const JSON_HEADERS = { ...BENCH_KEYS, "content-type": "application/json" };

/** A counter shared by every connection of a round, so no two requests ask for the same thing. */
function counter(): () => number {
  let next = 0;
  return () => next++;
}

export function scenarios(options: { tierStructures: number; incentives: number }): Scenario[] {
  return [
    {
      name: "GET location",
      operation: "getLocation",
      consumes: false,
      requests: () => [
        { method: "GET", path: `/v1/locations/${BENCH_LOCATION}`, headers: { ...BENCH_KEYS } },
      ],
    },
    {
      name: "POST token",
      operation: "generateToken",
      consumes: true,
      requests: () => [
        {
          method: "POST",
          path: "/v1/oauth/token",
          headers: { ...BENCH_KEYS, "content-type": "application/x-www-form-urlencoded" },
          body: "grant_type=client_credentials&scope=api",
        },
      ],
    },
    {
      name: "POST members",
      operation: "addMember",
      consumes: true,
      requests: () => {
        const next = counter();
        return [
          {
            method: "POST",
            path: `/v1/loyalties/${BENCH_CAMPAIGN}/members`,
            headers: JSON_HEADERS,
            setupRequest: (request) => ({
              ...request,
              body: JSON.stringify({ customer: { source_id: `bench-${next()}` } }),
            }),
          },
        ];
      },
    },
    {
      name: "POST events",
      operation: "trackEvent",
      consumes: true,
      requests: () => {
        const next = counter();
        return [
          {
            method: "POST",
            path: "/v1/events",
            headers: JSON_HEADERS,
            setupRequest: (request) => ({
              ...request,
              body: JSON.stringify({
                event: BENCH_EVENT,
                customer: { source_id: `event-${next() % 1000}` },
                metadata: { plan: "pro" },
              }),
            }),
          },
        ];
      },
    },
    {
      name: "POST tier",
      operation: "createTier",
      consumes: true,
      requests: ({ token }) => {
        const next = counter();
        return [
          {
            method: "POST",
            path: "/v2/loyalties/tier-structures/x/tiers",
            headers: { ...JSON_HEADERS, authorization: `Bearer ${token}` },
            setupRequest: (request) => {
              const i = next();
              const structure = i % options.tierStructures;
              const slot = Math.floor(i / options.tierStructures);
              return {
                ...request,
                path: `/v2/loyalties/tier-structures/${tierStructureId(structure)}/tiers`,
                body: JSON.stringify({
                  name: `Tier ${slot}`,
                  qualification_rules: {
                    type: "POINTS",
                    min_value: slot * 1000,
                    max_value: slot * 1000 + 999,
                  },
                }),
              };
            },
          },
        ];
      },
    },
    {
      name: "DELETE incentive",
      operation: "deleteIncentive",
      consumes: true,
      requests: ({ token }) => {
        const next = counter();
        return [
          {
            method: "DELETE",
            path: "/v2/loyalties/incentives/x",
            headers: { ...BENCH_KEYS, authorization: `Bearer ${token}` },
            setupRequest: (request) => ({
              ...request,
              path: `/v2/loyalties/incentives/${incentiveId(next() % options.incentives)}`,
            }),
          },
        ];
      },
    },
  ];
}
