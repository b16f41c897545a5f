import { expect, it } from "vitest";
import { expectError, send } from "./http.js";
import { buildWorld, DEMO_KEYS } from "./world.js";

/** A concrete path: each parameter a value no literal segment of the references uses. */
export const concrete = (path: string) => path.replace(/\{[^}]+\}/g, "zz_9");

/** The error an operation of the real service we do not emulate answers, naming it (`what`). */
export const notEmulated = (what: string) => ({
  key: "not_emulated",
  message: "Not emulated",
  details: `${what} is not emulated by loyalty-mock`,
});

/**
 * A test per named request: 501 not_emulated naming `what`, with the demo's key pair and with no credentials, and
 * nothing changed (a draft incentive's status, which a deletion of it would change). `title` names the test.
 */
export function eachNamedIs501(
  named: readonly (readonly ["GET" | "POST" | "PUT" | "DELETE", string, string])[],
  title: (method: string, path: string, what: string) => string,
): void {
  for (const [method, path, what] of named)
    it(title(method, path, what), async () => {
      const { app, demo } = buildWorld();
      const before = demo.incentives.get("linc_d0000000000000001").status;
      for (const headers of [DEMO_KEYS, {}]) {
        const res = await send(app, { method, path, headers, ...(method === "GET" ? {} : { body: {} }) });
        expectError(res, 501, notEmulated(what));
      }
      expect(demo.incentives.get("linc_d0000000000000001").status).toBe(before);
    });
}
