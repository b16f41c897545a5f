import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exportProject } from "../../src/domain/projects/state-export.js";
import { type RawResponse, rawRequest } from "../helpers/raw-http.js";
import { ADMIN_TOKEN, type ControlCase, controlCases } from "./control.js";
import {
  FUZZ_RUNS,
  FUZZ_TIMEOUT_MS,
  fuzzParameters,
  sendCase,
  stillServing,
  useFuzzWorld,
} from "./harness.js";

/**
 * Generated calls of the control API, with the admin token configured: every route with near-valid bodies and
 * queries, wrong methods, odd ids, and the token right, wrong or missing. The same properties as for the six
 * operations (no 5xx, the error object valid against the control API's OpenAPI document, a refused call changes
 * no project's state or fault rules, prototypes untouched, still serving). A fault rule the API accepted must
 * also play without a failure of its own. Twice FUZZ_RUNS cases: the control API has many routes.
 */

const fuzz = useFuzzWorld({ adminToken: ADMIN_TOKEN });
const RUNS = FUZZ_RUNS * 2;

interface CreatedFault {
  id: string;
  method: string;
  path: string;
  action: string;
  status: number;
  error: { key: string };
  latency_ms: number;
}

/** A concrete path a fault's pattern matches (`{name}` and `*` become `x`, `**` becomes `x/y`). */
function pathFor(pattern: string): string {
  return pattern.replace(/\*\*/g, "x/y").replace(/\{[^}]*\}|\*/g, "x");
}

/** A request the new `error` rule of the demo project matches must get exactly the rule's answer. */
async function playsAsDeclared(fault: CreatedFault): Promise<void> {
  if (fault.action !== "error" || fault.latency_ms > 1000) return;
  const response: RawResponse = await rawRequest(fuzz.world.port, {
    method: fault.method === "*" ? "GET" : fault.method,
    target: pathFor(fault.path),
    headers: [
      ["X-App-Id", "demo-app-id"],
      ["X-App-Token", "demo-app-token"],
    ],
  });
  expect(response.status, response.text).toBe(fault.status);
  expect(response.headers["x-request-id"]).toMatch(/^v-[0-9a-f]{18}$/);
  if (fault.method !== "HEAD")
    expect(response.body).toMatchObject({ code: fault.status, key: fault.error.key });
}

describe(`generated input for the control API (${RUNS} cases)`, () => {
  it(
    "never 5xx, always the error object, refused calls change nothing, accepted faults play as declared",
    async () => {
      const demoState = exportProject(fuzz.world.server.registry.get("demo"));
      let count = 0;
      const statuses = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(controlCases(demoState), async ({ request }: ControlCase) => {
          const before = fuzz.world.mark();
          const { response } = await sendCase(fuzz.world, request, fuzz.uncaught);
          const label = `${request.method} ${response.status} ${(response.body as { key?: string })?.key ?? ""}`;
          statuses.set(label, (statuses.get(label) ?? 0) + 1);
          if (response.status === 201 && /^\/__mock\/projects\/demo\/faults$/.test(request.target))
            await playsAsDeclared(response.body as CreatedFault);
          if (!fuzz.world.unchangedSince(before) || (response.status < 400 && request.method !== "GET"))
            fuzz.world.restore();
          if (++count % 250 === 0) await stillServing(fuzz.world);
        }),
        { ...fuzzParameters(), numRuns: RUNS },
      );
      await stillServing(fuzz.world);
      if (process.env.FUZZ_STATS)
        console.log(Object.fromEntries([...statuses].sort((a, b) => b[1] - a[1]).slice(0, 60)));
    },
    FUZZ_TIMEOUT_MS,
  );
});
