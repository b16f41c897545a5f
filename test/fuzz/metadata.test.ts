import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rawRequest } from "../helpers/raw-http.js";
import {
  FUZZ_RUNS,
  FUZZ_TIMEOUT_MS,
  fuzzParameters,
  prototypeFingerprint,
  sendCase,
  useFuzzWorld,
} from "./harness.js";
import { type JsonObject, storableObject, toText } from "./json.js";

/**
 * Free-form objects (metadata) with `__proto__`, `constructor` and `prototype` among their keys are stored as own
 * properties, exactly as sent, wherever a request stores one, and survive a state export and import; no built-in
 * prototype changes on the way (docs/reference/limits.md). A quarter of FUZZ_RUNS cases per operation.
 */

const fuzz = useFuzzWorld();

const RUNS = Math.max(100, Math.floor(FUZZ_RUNS / 4));

interface Target {
  path: string;
  body: (metadata: string) => string;
  /** The stored copies of the metadata, read from the exported demo project. */
  stored: (demo: Record<string, unknown>, response: Record<string, unknown>) => unknown[];
  v2?: boolean;
}

type Rows = { id?: string; metadata?: unknown; source_id?: string; tiers?: Rows }[];
const rows = (demo: Record<string, unknown>, name: string) => (demo[name] ?? []) as Rows;

const TARGETS: Record<string, Target> = {
  "POST /v1/loyalties/{campaignId}/members": {
    path: "/v1/loyalties/camp_demo_ondemand/members",
    body: (m) => `{"customer":{"source_id":"meta@example.com","metadata":${m}},"metadata":${m}}`,
    stored: (demo) => [
      rows(demo, "publications").at(-1)?.metadata,
      rows(demo, "customers").find((c) => c.source_id === "meta@example.com")?.metadata,
    ],
  },
  "POST /v1/events": {
    path: "/v1/events",
    body: (m) => `{"event":"cart_abandoned","customer":{"source_id":"meta@example.com"},"metadata":${m}}`,
    stored: (demo, response) => [rows(demo, "events").at(-1)?.metadata, response.metadata],
  },
  "POST /v2/loyalties/tier-structures/{id}/tiers": {
    path: "/v2/loyalties/tier-structures/lts_d0000000000000003/tiers",
    body: (m) =>
      `{"name":"Meta","qualification_rules":{"type":"SEGMENT","segment":{"id":"seg_demo_vip"}},"metadata":${m}}`,
    stored: (demo, response) => [
      rows(demo, "tier_structures")
        .flatMap((structure) => structure.tiers ?? [])
        .find((tier) => tier.id === response.id)?.metadata,
      response.metadata,
    ],
    v2: true,
  },
};

function demoState(): Record<string, unknown> {
  const projects = JSON.parse(fuzz.world.snapshot()) as { project: { id: string } }[];
  return projects.find((p) => p.project.id === "demo") as Record<string, unknown>;
}

describe(`metadata with any keys is stored as sent (${RUNS} cases each)`, () => {
  for (const [operation, target] of Object.entries(TARGETS)) {
    it(
      `${operation}: __proto__, constructor and prototype keys are own properties of what is stored`,
      async () => {
        await fc.assert(
          fc.asyncProperty(storableObject, async (metadata: JsonObject) => {
            const text = toText(metadata);
            const headers: [string, string][] = [
              ["X-App-Id", "demo-app-id"],
              ["X-App-Token", "demo-app-token"],
              ["Content-Type", "application/json"],
            ];
            if (target.v2) headers.push(["Authorization", `Bearer ${fuzz.world.demoToken}`]);
            const request = { method: "POST", target: target.path, headers, body: target.body(text) };
            const { response } = await sendCase(fuzz.world, request, fuzz.uncaught);
            expect(response.status, response.text).toBe(200);
            // What JSON.parse makes of the text is what the server saw: every key an own property.
            const sent = JSON.stringify(JSON.parse(text));
            const body = response.body as Record<string, unknown>;
            for (const copy of target.stored(demoState(), body)) expect(JSON.stringify(copy)).toBe(sent);
            await exportAndImportState();
            for (const copy of target.stored(demoState(), body).slice(0, 1))
              expect(JSON.stringify(copy)).toBe(sent);
            fuzz.world.restore();
          }),
          { ...fuzzParameters(), numRuns: RUNS },
        );
      },
      FUZZ_TIMEOUT_MS,
    );
  }
});

/** Exports the demo project's state and imports it back, over HTTP, as a test suite's snapshot would. */
async function exportAndImportState(): Promise<void> {
  const prototypes = prototypeFingerprint();
  const exported = await rawRequest(fuzz.world.port, {
    method: "GET",
    target: "/__mock/projects/demo/state",
  });
  const imported = await rawRequest(fuzz.world.port, {
    method: "PUT",
    target: "/__mock/projects/demo/state",
    headers: [["Content-Type", "application/json"]],
    body: exported.text,
  });
  expect(imported.status, imported.text.slice(0, 300)).toBe(200);
  expect(prototypeFingerprint()).toBe(prototypes);
}
