import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CONTROL_ROUTES } from "../../src/http/control/table.js";
import { control } from "../helpers/control.js";
import { expectError } from "../helpers/http.js";
import { ROOT } from "../helpers/process.js";
import { buildWorld } from "../helpers/world.js";

/**
 * Every control route under /projects/{projectId} gets its project from the mount (http/control/mount.ts), looked
 * up once after the input is parsed, so an unknown project is the same 404 on every one of them. A valid body per
 * row that takes one: a new row with a body fails here until it has its own (its input would be refused first).
 */
const BODIES: Record<string, unknown> = {
  "POST /projects/{projectId}/clock": { advance_seconds: 1 },
  "POST /projects/{projectId}/faults": { path: "/v1/events", action: "drop" },
  "POST /projects/{projectId}/keys": {},
  "POST /projects/{projectId}/webhooks": { url: "http://127.0.0.1:9/hook" },
  "PUT /projects/{projectId}/settings": {},
  "PATCH /projects/{projectId}/settings": {},
  "PUT /projects/{projectId}/state": { project: { id: "nope" } },
  "POST /projects/{projectId}/snapshots": { name: "start" },
  "POST /projects/{projectId}/plays": { scenario: "first-month" },
};

const UNDER_PROJECT = CONTROL_ROUTES.filter((row) => /^\/projects\/\{projectId\}(\/|$)/.test(row.path));

describe("control routes under /projects/{projectId}", () => {
  it("are most of the table", () => {
    expect(UNDER_PROJECT.length).toBeGreaterThan(30);
  });

  for (const row of UNDER_PROJECT) {
    const name = `${row.method} ${row.path}`;
    it(`${row.method.toUpperCase()} ${row.path} - an unknown project is 404`, async () => {
      const { app } = buildWorld();
      const path = `/__mock${row.path.replace("{projectId}", "nope").replace(/\{[^}]+\}/g, "x")}`;
      const res = await control(app, {
        method: row.method.toUpperCase() as "GET",
        path,
        ...(row.body !== undefined && { body: BODIES[name] }),
      });
      expectError(res, 404, {
        key: "not_found",
        details: "Cannot find project with id nope",
        resource_type: "project",
        resource_id: "nope",
      });
    });
  }

  it("look their project up in the mount alone: no other control file reads params.projectId", () => {
    const dir = join(ROOT, "src", "http", "control");
    // Files of its subfolders too (demo/).
    const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((file) =>
      file.endsWith(".ts"),
    );
    const readers = files.filter(
      (file) =>
        file !== "mount.ts" &&
        /params\.projectId|registry\.get\(/.test(readFileSync(join(dir, file), "utf8")),
    );
    expect(readers).toEqual([]);
  });
});
