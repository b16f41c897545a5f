import { Validator } from "@seriousme/openapi-schema-validator";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { CONTROL_ROUTES } from "../../src/http/control/table.js";
import { control } from "../helpers/control.js";
import { buildWorld } from "../helpers/world.js";

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** A concrete path for a row: the demo project, and an id no record has. */
const concrete = (path: string) =>
  `/__mock${path.replace("{projectId}", "demo").replace(/\{[^}]+\}/g, "no-such-id")}`;

describe("the control API's OpenAPI document", () => {
  it("GET /__mock/openapi.json - validates as OpenAPI 3.1", async () => {
    const { app } = buildWorld();
    const res = await control(app, { method: "GET", path: "/__mock/openapi.json" });
    const validator = new Validator();
    const result = await validator.validate(res.body);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("every row of the table is a route: none answers the unknown-route 404", async () => {
    for (const row of CONTROL_ROUTES) {
      // A fresh world each: rows delete and reset projects. The live feed is asked with HEAD, which ends it.
      const { app } = buildWorld();
      const path = concrete(row.path);
      const method = row.path.endsWith("/feed")
        ? "head"
        : (row.method.toLowerCase() as Lowercase<typeof row.method>);
      const res = await request(app)[method](path);
      expect(res.body?.details ?? "", `${row.method} ${path}`).not.toMatch(/no such endpoint/);
      expect(res.status, `${row.method} ${path}`).not.toBe(405);
    }
  });

  it("a method the path does not take is 405 with Allow, as before the table", async () => {
    const { app } = buildWorld();
    const byPath = new Map<string, string[]>();
    for (const row of CONTROL_ROUTES)
      byPath.set(row.path, [...(byPath.get(row.path) ?? []), row.method.toLowerCase()]);
    for (const [path, methods] of byPath) {
      const other = METHODS.find((method) => !methods.includes(method));
      if (other === undefined) continue;
      const res = await request(app)[other](concrete(path));
      expect(res.status, `${other} ${path}`).toBe(405);
      expect(res.body.message).toBe("HTTP Method Not Allowed");
      expect(res.body).not.toHaveProperty("key");
      const allowed = methods.map((m) => m.toUpperCase());
      if (methods.includes("get")) allowed.push("HEAD");
      expect(res.headers.allow?.split(", ").sort()).toEqual(allowed.sort());
    }
  });

  it("an unknown control path is still the unknown-route 404", async () => {
    const { app } = buildWorld();
    const res = await control(app, { method: "GET", path: "/__mock/projects/demo/nothing-here" });
    expect(res.status).toBe(404);
    expect(res.body.details).toBe("Cannot GET /__mock/projects/demo/nothing-here: no such endpoint");
  });
});
